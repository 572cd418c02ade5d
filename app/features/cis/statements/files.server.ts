import { and, asc, eq, isNull, sql } from "drizzle-orm";
import { z } from "zod";
import { dbFor } from "~/db/client.server";
import { forTenant } from "~/db/tenancy";
import { cisInvoices, cisSettings, cisStatementDocuments, cisStatements, cisSubcontractors, tenants } from "~/db/schema";
import { londonDateParts } from "../domain/tax-month";
import { decryptPii, encryptPii, type PiiContext } from "../pii.server";
import { assertStatementDocument, statementFileName, statementHtml, statementPdf, type StatementDocument } from "./document";
import type { Err, Ok } from "~/utils/result";
import { brandingPrefix } from "~/features/tenant-settings";

/**
 * The statement's files. The first rendering freezes the document (the statement's data as it
 * stood then: contractor details from the settings, the subcontractor's verification, the
 * invoices) into cis_statement_documents, written once; the PDF in R2 and the HTML
 * download are both rendered from that stored document, so an issued statement never changes
 * when the settings or the subcontractor change afterwards (ADR 0020).
 */

export type StatementFileErrorCode = "not_found" | "settings_incomplete";
export type StatementFileFailure = Err<StatementFileErrorCode>;

export const STATEMENT_FILE_ERROR_MESSAGES: Readonly<Record<StatementFileErrorCode, string>> = {
  not_found: "Statement not found",
  settings_incomplete: "Set the company name and employer reference in CIS settings before producing statements",
};

/** Where a statement's PDF lives: one fixed key per statement, under its tenant. */
export function statementPdfKey(tenantId: string, statementId: string): string {
  return `tenants/${tenantId}/cis/statements/${statementId}.pdf`;
}

/**
 * The document as stored in D1: everything the statement shows except the full UTR, which sits
 * encrypted beside it (cis_statement_documents.utr_enc); the masked form stays in the JSON.
 */
type StoredDocument = Omit<StatementDocument, "subcontractor"> & {
  subcontractor: Omit<StatementDocument["subcontractor"], "utr"> & { utrMasked: string };
};

const documentSchema = z.object({
  contractor: z.object({
    name: z.string(),
    employerRef: z.string(),
    address: z.string().nullable().optional(),
    logo: z
      .object({ key: z.string(), type: z.enum(["image/png", "image/jpeg"]) })
      .nullable()
      .optional(),
  }),
  subcontractor: z.object({ name: z.string(), utrMasked: z.string(), verificationNumber: z.string().nullable(), cisRate: z.number().int() }),
  taxMonth: z.string(),
  statementDate: z.string(),
  invoices: z.array(
    z.object({ invoiceNumber: z.string(), paymentDate: z.string(), grossP: z.number().int(), materialsP: z.number().int(), cisDeductionP: z.number().int() }),
  ),
  totals: z.object({ grossP: z.number().int(), materialsP: z.number().int(), labourP: z.number().int(), cisDeductionP: z.number().int() }),
  footer: z.string().nullable(),
}) satisfies z.ZodType<StoredDocument>;

/** Where a statement document's UTR is bound: its own row, so a copy elsewhere never decrypts. */
function documentUtrCtx(tenantId: string, statementId: string): PiiContext {
  return { tenantId, table: "cis_statement_documents", recordId: statementId, field: "utr" };
}

/** The stored document as rendered: the full UTR decrypted, or the masked one a document frozen without it carries. */
async function renderable(env: Env, tenantId: string, statementId: string, row: { document: string; utrEnc: string | null }): Promise<StatementDocument> {
  const { subcontractor, ...rest } = documentSchema.parse(JSON.parse(row.document));
  const { utrMasked, ...sub } = subcontractor;
  const utr = row.utrEnc ? await decryptPii(env.PII_KEYS, row.utrEnc, documentUtrCtx(tenantId, statementId)) : utrMasked;
  return { ...rest, subcontractor: { ...sub, utr } };
}

function londonIsoDate(epochMs: number): string {
  const { year, month, day } = londonDateParts(new Date(epochMs));
  return `${year}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`;
}

type InvoiceSnapshot = { verificationRate: number | null; verificationReference: string | null; cisRate: number };

/**
 * The rate and verification number in force for the statement: those the invoices were approved
 * under (their verification snapshot). A deduction at the higher rate on any invoice of the month
 * puts the statement at 30% with that invoice's verification number, which HMRC requires on it.
 * Invoices approved before snapshots existed fall back to the subcontractor's current verification.
 */
export function statementVerification(
  invoices: readonly InvoiceSnapshot[],
  current: { verificationRate: number; verificationReference: string | null },
): { cisRate: number; verificationNumber: string | null } {
  const rated = invoices.map((i) => ({ rate: i.verificationRate ?? i.cisRate, reference: i.verificationReference }));
  if (rated.length === 0) return { cisRate: current.verificationRate, verificationNumber: current.verificationReference };
  const highest = rated.reduce((a, b) => (b.rate > a.rate ? b : a));
  const withReference = rated.find((r) => r.rate === highest.rate && r.reference) ?? highest;
  return {
    cisRate: highest.rate,
    verificationNumber: withReference.reference ?? (highest.rate === current.verificationRate ? current.verificationReference : null),
  };
}

type Frozen = Ok<{ document: StatementDocument; pdfKey: string | null }>;

/**
 * The statement's frozen document, building and storing it on the first call. Two first calls at
 * once both build one; the conditional write keeps the first, and both return the stored one.
 */
// eslint-disable-next-line max-lines-per-function -- issue 31 splits this module
export async function statementDocument(env: Env, tenantId: string, statementId: string): Promise<Frozen | StatementFileFailure> {
  const db = dbFor(env, tenantId);
  const ofStatement = and(forTenant(cisStatements, tenantId), eq(cisStatements.id, statementId));
  const ofDocument = and(forTenant(cisStatementDocuments, tenantId), eq(cisStatementDocuments.statementId, statementId));
  const [statements, documents, settings, tenantRows, invoices, subs] = await db.batch([
    db.select().from(cisStatements).where(ofStatement).limit(1),
    db.select({ document: cisStatementDocuments.document, utrEnc: cisStatementDocuments.utrEnc }).from(cisStatementDocuments).where(ofDocument).limit(1),
    db
      .select({ companyName: cisSettings.companyName, employerRef: cisSettings.employerRef, footer: cisSettings.statementFooter })
      .from(cisSettings)
      .where(forTenant(cisSettings, tenantId))
      .limit(1),
    db.select({ name: tenants.name, branding: tenants.branding }).from(tenants).where(eq(tenants.id, tenantId)).limit(1),
    db
      .select({
        invoiceNumber: cisInvoices.invoiceNumber,
        invoiceDate: cisInvoices.invoiceDate,
        paymentDate: cisInvoices.paymentDate,
        grossP: cisInvoices.grossP,
        materialsP: cisInvoices.materialsP,
        cisDeductionP: cisInvoices.cisDeductionP,
        cisRate: cisInvoices.cisRate,
        verificationRate: cisInvoices.verificationRate,
        verificationReference: cisInvoices.verificationReference,
      })
      .from(cisInvoices)
      .where(and(forTenant(cisInvoices, tenantId), eq(cisInvoices.statementId, statementId)))
      .orderBy(asc(cisInvoices.invoiceDate), asc(cisInvoices.id)),
    db
      .select({
        id: cisSubcontractors.id,
        utrEnc: cisSubcontractors.utrEnc,
        verificationRate: cisSubcontractors.verificationRate,
        verificationReference: cisSubcontractors.verificationReference,
      })
      .from(cisSubcontractors)
      .where(
        and(
          forTenant(cisSubcontractors, tenantId),
          sql`${cisSubcontractors.id} = (SELECT ${cisStatements.subcontractorId} FROM ${cisStatements} WHERE ${ofStatement})`,
        ),
      )
      .limit(1),
  ]);
  const st = statements[0];
  if (!st) return { ok: false, code: "not_found" };
  if (documents[0]) return { ok: true, document: await renderable(env, tenantId, statementId, documents[0]), pdfKey: st.pdfKey };

  const s = settings[0];
  const employerRef = s?.employerRef.trim() ?? "";
  const companyName = s?.companyName.trim() || tenantRows[0]?.name?.trim() || "";
  // HMRC requires the contractor's name and employer reference on every statement; a statement
  // frozen without them could never be corrected.
  if (!employerRef || !companyName) return { ok: false, code: "settings_incomplete" };

  const sub = subs[0] ?? { id: null, utrEnc: null, verificationRate: 20, verificationReference: null };
  const verification = statementVerification(invoices, sub);
  // The UTR as it stands now, re-encrypted for the document's own row (never plain in D1).
  const utr =
    sub.id && sub.utrEnc ? await decryptPii(env.PII_KEYS, sub.utrEnc, { tenantId, table: "cis_subcontractors", recordId: sub.id, field: "utr" }) : null;
  const utrEnc = utr ? await encryptPii(env.PII_KEYS, utr, documentUtrCtx(tenantId, statementId)) : null;
  // The address and logo as the branding holds them now: frozen with the rest, so a later change
  // of branding leaves issued statements as they were.
  const branding = tenantRows[0]?.branding ?? {};
  const logo = branding.logo && branding.logo.key.startsWith(brandingPrefix(tenantId)) ? { key: branding.logo.key, type: branding.logo.type } : null;
  const document: StoredDocument = {
    contractor: { name: companyName, employerRef, address: branding.address?.trim() || null, logo },
    subcontractor: {
      name: st.subcontractorName,
      utrMasked: st.utrMasked ?? "N/A",
      verificationNumber: verification.verificationNumber,
      cisRate: verification.cisRate,
    },
    taxMonth: st.taxMonth,
    statementDate: londonIsoDate(st.generatedAt),
    // An approved invoice not yet paid has no payment date: its invoice date stands in.
    invoices: invoices.map((i) => ({
      invoiceNumber: i.invoiceNumber,
      paymentDate: i.paymentDate ?? i.invoiceDate,
      grossP: i.grossP,
      materialsP: i.materialsP,
      cisDeductionP: i.cisDeductionP,
    })),
    totals: { grossP: st.grossP, materialsP: st.materialsP, labourP: st.labourP, cisDeductionP: st.cisDeductionP },
    footer: s?.footer?.trim() ? s.footer : null,
  };
  // Refuses totals that are not the invoices' sums before anything is stored.
  assertStatementDocument({ ...document, subcontractor: { ...document.subcontractor, utr: utr ?? document.subcontractor.utrMasked } });

  // The first writer wins; whoever lost reads back the winner's document.
  const json = JSON.stringify(document);
  const [, stored] = await db.batch([
    db.insert(cisStatementDocuments).values({ tenantId, statementId, document: json, utrEnc, createdAt: Date.now() }).onConflictDoNothing(),
    db.select({ document: cisStatementDocuments.document, utrEnc: cisStatementDocuments.utrEnc }).from(cisStatementDocuments).where(ofDocument).limit(1),
  ]);
  const row = stored[0];
  if (!row) return { ok: false, code: "not_found" };
  // This call's own document was stored: it is rendered as built, without decrypting the UTR just encrypted.
  if (row.document === json && row.utrEnc === utrEnc) {
    const { utrMasked, ...sub } = document.subcontractor;
    return { ok: true, document: { ...document, subcontractor: { ...sub, utr: utr ?? utrMasked } }, pdfKey: st.pdfKey };
  }
  return { ok: true, document: await renderable(env, tenantId, statementId, row), pdfKey: st.pdfKey };
}

export type StatementPdf = Ok<{ key: string; bytes: Uint8Array<ArrayBuffer>; fileName: string }>;

/**
 * The statement's PDF, rendered and stored in R2 on the first call and read back afterwards.
 * Rendering is byte-for-byte repeatable from the frozen document, so two first renders at once
 * write identical bytes to the same key; pdf_key is set only while null.
 */
export async function ensureStatementPdf(env: Env, tenantId: string, statementId: string): Promise<StatementPdf | StatementFileFailure> {
  const frozen = await statementDocument(env, tenantId, statementId);
  if (!frozen.ok) return frozen;
  const key = statementPdfKey(tenantId, statementId);
  const fileName = statementFileName(frozen.document, "pdf");
  if (frozen.pdfKey) {
    const obj = await env.FILES.get(frozen.pdfKey);
    if (obj) return { ok: true, key: frozen.pdfKey, bytes: new Uint8Array(await obj.arrayBuffer()), fileName };
  }
  const bytes = new Uint8Array(await statementPdf(frozen.document, { logo: await logoBytes(env, frozen.document) }));
  await env.FILES.put(key, bytes, {
    httpMetadata: { contentType: "application/pdf", contentDisposition: `attachment; filename="${fileName}"` },
    customMetadata: { tenantId, statementId },
  });
  if (!frozen.pdfKey) {
    await dbFor(env, tenantId)
      .update(cisStatements)
      .set({ pdfKey: key })
      .where(and(forTenant(cisStatements, tenantId), eq(cisStatements.id, statementId), isNull(cisStatements.pdfKey)));
  }
  return { ok: true, key, bytes, fileName };
}

/** The logo's bytes for the PDF, or null when it is gone from R2 or cannot be read: the statement renders without it. */
async function logoBytes(env: Env, doc: StatementDocument): Promise<Uint8Array | null> {
  const logo = doc.contractor.logo;
  if (!logo) return null;
  try {
    const obj = await env.FILES.get(logo.key);
    return obj ? new Uint8Array(await obj.arrayBuffer()) : null;
  } catch (err) {
    console.error("statement logo could not be read; the statement renders without it", err);
    return null;
  }
}

/** The HTML download, from the same frozen document as the PDF. */
export async function statementHtmlFile(
  env: Env,
  tenantId: string,
  statementId: string,
): Promise<Ok<{ html: string; fileName: string }> | StatementFileFailure> {
  const frozen = await statementDocument(env, tenantId, statementId);
  if (!frozen.ok) return frozen;
  return { ok: true, html: statementHtml(frozen.document), fileName: statementFileName(frozen.document, "html") };
}
