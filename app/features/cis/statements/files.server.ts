import { and, asc, eq, isNull, sql } from "drizzle-orm";
import { z } from "zod";
import { dbFor, type Db } from "~/db/client.server";
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

/** The frozen document; `fresh` when this very call froze it (its PDF cannot be in R2 yet). */
type Frozen = Ok<{ document: StatementDocument; pdfKey: string | null; fresh?: boolean }>;

/**
 * Everything freezing a statement reads, as the queries of one D1 batch: the statement, its stored
 * document if any, and its sources. A batch that generates statements can carry them after its writes.
 */
export function statementSourceQueries(db: Db, tenantId: string, statementId: string) {
  const ofStatement = and(forTenant(cisStatements, tenantId), eq(cisStatements.id, statementId));
  return [
    db.select().from(cisStatements).where(ofStatement).limit(1),
    db
      .select({ document: cisStatementDocuments.document, utrEnc: cisStatementDocuments.utrEnc })
      .from(cisStatementDocuments)
      .where(documentOf(tenantId, statementId))
      .limit(1),
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
  ] as const;
}

function statementSources(env: Env, tenantId: string, statementId: string) {
  const db = dbFor(env, tenantId);
  return db.batch(statementSourceQueries(db, tenantId, statementId));
}
export type StatementSources = Awaited<ReturnType<typeof statementSources>>;
type Sources = StatementSources;

function documentOf(tenantId: string, statementId: string) {
  return and(forTenant(cisStatementDocuments, tenantId), eq(cisStatementDocuments.statementId, statementId));
}

/**
 * The document to freeze, from its sources as they stand now (pure). HMRC requires the
 * contractor's name and employer reference on every statement, and a statement frozen without
 * them could never be corrected: without them there is no document.
 */
function documentFromSources([statements, , settings, tenantRows, invoices]: Sources): StoredDocument | null {
  const st = statements[0]!;
  const s = settings[0];
  const employerRef = s?.employerRef.trim() ?? "";
  const companyName = s?.companyName.trim() || tenantRows[0]?.name?.trim() || "";
  if (!employerRef || !companyName) return null;
  // The address and logo as the branding holds them now: frozen with the rest, so a later change
  // of branding leaves issued statements as they were.
  const branding = tenantRows[0]?.branding ?? {};
  const logo = branding.logo && branding.logo.key.startsWith(brandingPrefix(st.tenantId)) ? { key: branding.logo.key, type: branding.logo.type } : null;
  return {
    contractor: { name: companyName, employerRef, address: branding.address?.trim() || null, logo },
    subcontractor: { name: st.subcontractorName, utrMasked: st.utrMasked ?? "N/A", verificationNumber: null, cisRate: 20 },
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
}

/** A document built from its sources, to be frozen: the stored form and the full UTR beside it. */
type ToFreeze = { statementId: string; document: StoredDocument; utr: string | null };

/**
 * Stores each document once. The first writer wins; whoever lost reads back the winner's. A
 * document this call stored is returned as built, without decrypting the UTR it just encrypted.
 * All of them go in one D1 batch, each with its statement's PDF key: the PDF is rendered from this
 * document next, and a key whose object is not in R2 yet is rendered again by the first reader
 * (ensureStatementPdf). Null for a statement that is gone.
 */
async function freezeDocuments(env: Env, tenantId: string, items: readonly ToFreeze[]): Promise<(StatementDocument | null)[]> {
  if (items.length === 0) return [];
  const db = dbFor(env, tenantId);
  const now = Date.now();
  const writes = await Promise.all(
    items.map(async ({ statementId, document, utr }) => ({
      json: JSON.stringify(document),
      utrEnc: utr ? await encryptPii(env.PII_KEYS, utr, documentUtrCtx(tenantId, statementId)) : null,
    })),
  );
  const queries = items.flatMap(({ statementId }, i) => [
    db
      .insert(cisStatementDocuments)
      .values({ tenantId, statementId, document: writes[i]!.json, utrEnc: writes[i]!.utrEnc, createdAt: now })
      .onConflictDoNothing(),
    db
      .select({ document: cisStatementDocuments.document, utrEnc: cisStatementDocuments.utrEnc })
      .from(cisStatementDocuments)
      .where(documentOf(tenantId, statementId))
      .limit(1),
    db
      .update(cisStatements)
      .set({ pdfKey: statementPdfKey(tenantId, statementId) })
      .where(and(forTenant(cisStatements, tenantId), eq(cisStatements.id, statementId), isNull(cisStatements.pdfKey))),
  ]);
  const results = (await db.batch(queries as unknown as BatchQueries)) as readonly unknown[];
  return Promise.all(
    items.map(({ statementId, document, utr }, i) => {
      const row = (results[i * 3 + 1] as { document: string; utrEnc: string | null }[])[0];
      if (!row) return null;
      if (row.document !== writes[i]!.json || row.utrEnc !== writes[i]!.utrEnc) return renderable(env, tenantId, statementId, row);
      const { utrMasked, ...sub } = document.subcontractor;
      return { ...document, subcontractor: { ...sub, utr: utr ?? utrMasked } };
    }),
  );
}
type BatchQueries = Parameters<Db["batch"]>[0];

/**
 * The document a statement would freeze now, from its sources (the statement known to exist and
 * to have no document yet): refused while the settings lack what HMRC requires on it.
 */
async function documentToFreeze(env: Env, tenantId: string, statementId: string, sources: Sources): Promise<ToFreeze | StatementFileFailure> {
  const [, , , , invoices, subs] = sources;
  const built = documentFromSources(sources);
  if (!built) return { ok: false, code: "settings_incomplete" };
  const sub = subs[0] ?? { id: null, utrEnc: null, verificationRate: 20, verificationReference: null };
  const verification = statementVerification(invoices, sub);
  const document: StoredDocument = { ...built, subcontractor: { ...built.subcontractor, ...verification } };
  // The UTR as it stands now, re-encrypted for the document's own row (never plain in D1).
  const utr =
    sub.id && sub.utrEnc ? await decryptPii(env.PII_KEYS, sub.utrEnc, { tenantId, table: "cis_subcontractors", recordId: sub.id, field: "utr" }) : null;
  // Refuses totals that are not the invoices' sums before anything is stored.
  assertStatementDocument({ ...document, subcontractor: { ...document.subcontractor, utr: utr ?? document.subcontractor.utrMasked } });
  return { statementId, document, utr };
}

/**
 * The statement's frozen document, building and storing it on the first call. Two first calls at
 * once both build one; the conditional write keeps the first, and both return the stored one.
 */
export async function statementDocument(env: Env, tenantId: string, statementId: string): Promise<Frozen | StatementFileFailure> {
  const sources = await statementSources(env, tenantId, statementId);
  const [statements, documents] = sources;
  const st = statements[0];
  if (!st) return { ok: false, code: "not_found" };
  if (documents[0]) return { ok: true, document: await renderable(env, tenantId, statementId, documents[0]), pdfKey: st.pdfKey };
  const built = await documentToFreeze(env, tenantId, statementId, sources);
  if ("ok" in built) return built;
  const [frozen] = await freezeDocuments(env, tenantId, [built]);
  return frozen ? { ok: true, document: frozen, pdfKey: statementPdfKey(tenantId, statementId), fresh: true } : { ok: false, code: "not_found" };
}

/**
 * The PDFs of statements just generated together, from the sources their generation read (see
 * statementSourceQueries): their documents frozen in one D1 batch, then each rendered and stored
 * in R2. A statement whose document cannot be built yet (settings incomplete) stands without it;
 * its first download or issue renders it.
 */
export async function storeNewStatementPdfs(
  env: Env,
  tenantId: string,
  made: readonly { statementId: string; sources: StatementSources }[],
  shared: StatementAssets,
): Promise<void> {
  const toFreeze: ToFreeze[] = [];
  for (const { statementId, sources } of made) {
    if (!sources[0][0] || sources[1][0]) continue;
    const built = await documentToFreeze(env, tenantId, statementId, sources);
    if (!("ok" in built)) toFreeze.push(built);
  }
  const frozen = await freezeDocuments(env, tenantId, toFreeze);
  for (const [i, document] of frozen.entries()) {
    if (document) await storePdf(env, tenantId, toFreeze[i]!.statementId, document, shared);
  }
}

/** Renders the statement's PDF from its frozen document and stores it in R2 under its key. */
async function storePdf(env: Env, tenantId: string, statementId: string, document: StatementDocument, shared: StatementAssets) {
  const key = statementPdfKey(tenantId, statementId);
  const fileName = statementFileName(document, "pdf");
  const bytes = new Uint8Array(await statementPdf(document, { logo: await shared.logo(env, document) }));
  shared.rendered(bytes);
  await env.FILES.put(key, bytes, {
    httpMetadata: { contentType: "application/pdf", contentDisposition: `attachment; filename="${fileName}"` },
    customMetadata: { tenantId, statementId },
  });
  return { key, bytes, fileName };
}

export type StatementPdf = Ok<{ key: string; bytes: Uint8Array<ArrayBuffer>; fileName: string }>;

/**
 * The statement's PDF, rendered and stored in R2 on the first call and read back afterwards.
 * Rendering is byte-for-byte repeatable from the frozen document, so two first renders at once
 * write identical bytes to the same key; pdf_key is set only while null.
 */
export async function ensureStatementPdf(
  env: Env,
  tenantId: string,
  statementId: string,
  shared: StatementAssets = new StatementAssets(),
): Promise<StatementPdf | StatementFileFailure> {
  const frozen = await statementDocument(env, tenantId, statementId);
  if (!frozen.ok) return frozen;
  const key = statementPdfKey(tenantId, statementId);
  const fileName = statementFileName(frozen.document, "pdf");
  if (frozen.pdfKey && !frozen.fresh) {
    const obj = await env.FILES.get(frozen.pdfKey);
    if (obj) return { ok: true, key: frozen.pdfKey, bytes: new Uint8Array(await obj.arrayBuffer()), fileName };
  }
  const { bytes } = await storePdf(env, tenantId, statementId, frozen.document, shared);
  if (!frozen.pdfKey) {
    await dbFor(env, tenantId)
      .update(cisStatements)
      .set({ pdfKey: key })
      .where(and(forTenant(cisStatements, tenantId), eq(cisStatements.id, statementId), isNull(cisStatements.pdfKey)));
  }
  return { ok: true, key, bytes, fileName };
}

/**
 * What the statements rendered together (a slice of Generate All) share: the contractor's logo,
 * read from R2 once per key instead of once per statement.
 */
export class StatementAssets {
  private readonly logos = new Map<string, Promise<Uint8Array | null>>();
  private pdfBytes = 0;
  private pdfs = 0;

  /** Notes a PDF rendered with these assets (its size is what the slice's memory estimate grows by). */
  rendered(bytes: Uint8Array) {
    this.pdfBytes += bytes.byteLength;
    this.pdfs += 1;
  }

  /** PDFs rendered so far and their bytes. */
  get renderedCount() {
    return { pdfs: this.pdfs, bytes: this.pdfBytes };
  }

  /** The logo's bytes for the PDF, or null when it is gone from R2 or cannot be read: the statement renders without it. */
  logo(env: Env, doc: StatementDocument): Promise<Uint8Array | null> {
    const logo = doc.contractor.logo;
    if (!logo) return Promise.resolve(null);
    let bytes = this.logos.get(logo.key);
    if (!bytes) {
      bytes = readLogo(env, logo.key);
      this.logos.set(logo.key, bytes);
    }
    return bytes;
  }

  /** Bytes held for the statements still to render: what a slice keeps in memory besides each statement's own work. */
  async heldBytes(): Promise<number> {
    let n = 0;
    for (const b of this.logos.values()) n += (await b)?.byteLength ?? 0;
    return n;
  }
}

async function readLogo(env: Env, key: string): Promise<Uint8Array | null> {
  try {
    const obj = await env.FILES.get(key);
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
