/**
 * Invoices as the subcontractor portal sees and sends them. Every function takes the tenant and
 * the subcontractor from the portal session: nothing here reads another subcontractor's rows.
 * A submission is a portal_draft made by createInvoice (the same rules, the same rate), with the
 * subcontractor's own PDF, if any, streamed into R2 under the tenant before the row is written.
 */
import { and, desc, eq, isNotNull, isNull } from "drizzle-orm";
import { forTenant } from "~/db/tenancy";
import { dbFor, type Db } from "~/db/client.server";
import { cisInvoices, cisSettings } from "~/db/schema";
import type { FilePart } from "~/features/files";
import { MultipartError } from "~/features/files";
import { streamToR2 } from "~/features/files/index.server";
import { PORTAL_PDF_MAX_BYTES, type PortalAttachmentErrorCode } from "./portal-invoice-codes";
import { newId } from "~/utils/ids";
import type { InvoiceInput } from "../domain";
import type { SubcontractorRow } from "../subcontractors/subcontractors.server";
import { getInvoice } from "./queries.server";
import { createInvoice, type SaveInvoiceResult } from "./form.server";
import type { Err, Result } from "~/utils/result";

export function portalInvoicePdfKey(tenantId: string, invoiceId: string): string {
  return `tenants/${tenantId}/cis/portal-invoices/${invoiceId}.pdf`;
}

/** 'Invoice_{number}.pdf' with only safe characters, so the header cannot be broken out of. */
export function attachmentFileName(invoiceNumber: string): string {
  const safe = invoiceNumber.replace(/[^A-Za-z0-9_-]+/g, "_").slice(0, 60) || "attachment";
  return `Invoice_${safe}.pdf`;
}

const PORTAL_INVOICE_LIMIT = 200;

function own(tenantId: string, subcontractorId: string) {
  return and(forTenant(cisInvoices, tenantId), eq(cisInvoices.subcontractorId, subcontractorId), isNull(cisInvoices.deletedAt));
}

/** The subcontractor's invoices, newest first, for the caller's batch. */
export function portalInvoicesQuery(db: Db, tenantId: string, subcontractorId: string, limit = PORTAL_INVOICE_LIMIT) {
  return db
    .select({
      id: cisInvoices.id,
      invoiceNumber: cisInvoices.invoiceNumber,
      invoiceDate: cisInvoices.invoiceDate,
      status: cisInvoices.status,
      source: cisInvoices.source,
      grossP: cisInvoices.grossP,
      materialsP: cisInvoices.materialsP,
      cisRate: cisInvoices.cisRate,
      cisDeductionP: cisInvoices.cisDeductionP,
      netPaymentP: cisInvoices.netPaymentP,
      attachmentBytes: cisInvoices.attachmentBytes,
      createdAt: cisInvoices.createdAt,
    })
    .from(cisInvoices)
    .where(own(tenantId, subcontractorId))
    .orderBy(desc(cisInvoices.invoiceDate), desc(cisInvoices.createdAt), desc(cisInvoices.id))
    .limit(limit);
}

export type PortalInvoice = Awaited<ReturnType<typeof portalInvoicesQuery>>[number];

/** The invoices page's data in one D1 round trip: the contractor's name and the subcontractor's invoices. */
export async function portalInvoicesData(
  env: Env,
  tenant: { id: string; name: string },
  subcontractorId: string,
): Promise<{ contractorName: string; invoices: PortalInvoice[] }> {
  const db = dbFor(env, tenant.id);
  const [settings, invoices] = await db.batch([
    db.select({ companyName: cisSettings.companyName }).from(cisSettings).where(forTenant(cisSettings, tenant.id)).limit(1),
    portalInvoicesQuery(db, tenant.id, subcontractorId),
  ]);
  return { contractorName: settings[0]?.companyName.trim() || tenant.name, invoices };
}

class AttachmentRefused extends Error {
  constructor(readonly code: PortalAttachmentErrorCode) {
    super(code);
  }
}

const PDF_MAGIC = [0x25, 0x50, 0x44, 0x46, 0x2d]; // "%PDF-"

/**
 * Passes the chunks on only once the first bytes read '%PDF-' (so nothing else is ever stored),
 * and refuses the stream as soon as it grows past the limit.
 */
async function* checkedPdf(chunks: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
  const head: number[] = [];
  const held: Uint8Array[] = [];
  let total = 0;
  for await (const chunk of chunks) {
    total += chunk.length;
    if (total > PORTAL_PDF_MAX_BYTES) throw new AttachmentRefused("too_large");
    if (head.length < PDF_MAGIC.length) {
      for (const b of chunk.subarray(0, PDF_MAGIC.length - head.length)) head.push(b);
      held.push(chunk);
      if (head.length < PDF_MAGIC.length) continue;
      if (PDF_MAGIC.some((b, i) => head[i] !== b)) throw new AttachmentRefused("not_pdf");
      yield* held;
      held.length = 0;
      continue;
    }
    yield chunk;
  }
  if (head.length < PDF_MAGIC.length) throw new AttachmentRefused("not_pdf");
}

export type PortalSubmitResult = SaveInvoiceResult | Err<PortalAttachmentErrorCode, { field: "attachment" }>;

/**
 * Submits an invoice from the portal as a portal_draft of this subcontractor, at their current
 * rate, with its audit entry in the same batch. The PDF goes to R2 first, because the row must
 * not claim a file that is not there; if the row is then refused, the file is removed. A session
 * opened with a link staff were shown passes `linkRevealedBy`, which the invoice keeps.
 */
export async function submitPortalInvoice(
  env: Env,
  tenantId: string,
  sub: Pick<SubcontractorRow, "id" | "name" | "email">,
  input: Omit<InvoiceInput, "subcontractorId">,
  file: Pick<FilePart, "contentType" | "stream"> | null,
  opts: { linkRevealedBy: string | null },
): Promise<PortalSubmitResult> {
  const id = newId();
  const key = portalInvoicePdfKey(tenantId, id);
  let attachmentBytes: number | null = null;
  if (file) {
    if (file.contentType.split(";")[0].trim().toLowerCase() !== "application/pdf") return { ok: false, code: "not_pdf", field: "attachment" };
    try {
      attachmentBytes = await streamToR2(env.FILES, key, checkedPdf(file.stream), PORTAL_PDF_MAX_BYTES, "application/pdf");
    } catch (e) {
      if (e instanceof AttachmentRefused) return { ok: false, code: e.code, field: "attachment" };
      if (e instanceof MultipartError) return { ok: false, code: "unreadable", field: "attachment" };
      throw e;
    }
  }
  const actor = { id: sub.id, email: sub.email ?? "", name: sub.name };
  try {
    const saved = await createInvoice(env, tenantId, { ...input, subcontractorId: sub.id }, actor, {
      source: "portal",
      id,
      attachmentBytes,
      portalLinkRevealedBy: opts.linkRevealedBy,
    });
    if (!saved.ok && attachmentBytes !== null) await env.FILES.delete(key);
    return saved;
  } catch (e) {
    if (attachmentBytes !== null) await env.FILES.delete(key);
    throw e;
  }
}

export type InvoiceAttachment = Result<{ body: ReadableStream; size: number; fileName: string }, "not_found">;

async function attachmentOf(env: Env, tenantId: string, row: { id: string; invoiceNumber: string } | undefined | null): Promise<InvoiceAttachment> {
  if (!row) return { ok: false, code: "not_found" };
  const object = await env.FILES.get(portalInvoicePdfKey(tenantId, row.id));
  if (!object) return { ok: false, code: "not_found" };
  return { ok: true, body: object.body, size: object.size, fileName: attachmentFileName(row.invoiceNumber) };
}

/** The PDF a subcontractor sent with one of their own invoices; anyone else's is not found. */
export async function portalInvoiceAttachment(env: Env, tenantId: string, subcontractorId: string, invoiceId: string): Promise<InvoiceAttachment> {
  const [row] = await dbFor(env, tenantId)
    .select({ id: cisInvoices.id, invoiceNumber: cisInvoices.invoiceNumber })
    .from(cisInvoices)
    .where(and(own(tenantId, subcontractorId), eq(cisInvoices.id, invoiceId), isNotNull(cisInvoices.attachmentBytes)))
    .limit(1);
  return attachmentOf(env, tenantId, row);
}

/** The same PDF for staff, from the invoice's detail page. */
export async function staffInvoiceAttachment(env: Env, tenantId: string, invoiceId: string): Promise<InvoiceAttachment> {
  const row = await getInvoice(env, tenantId, invoiceId);
  return attachmentOf(env, tenantId, row?.attachmentBytes != null ? row : null);
}
