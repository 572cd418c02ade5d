/**
 * Saving an invoice from the staff form (create, edit, the amounts preview) and the records the
 * portal and the CSV import save with: amounts always computed here, at the subcontractor's
 * current rate.
 */
import { and, asc, eq, isNull, ne, or, sql } from "drizzle-orm";
import { forTenant } from "~/db/tenancy";
import type { BatchItem } from "drizzle-orm/batch";
import { dbFor, type Db } from "~/db/client.server";
import { cisInvoices, cisSettings, cisSubcontractors, type InvoiceSource } from "~/db/schema";
import { activityInsert, auditInsert, type AuditEntry } from "~/features/platform/index.server";
import { newId } from "~/utils/ids";
import { formatInTimeZone } from "date-fns-tz";
import { LONDON } from "~/utils/dates";
import { cisTreatment, invoiceAmounts, taxMonthOfDate, type InvoiceInput } from "../domain";
import type { Actor } from "~/features/auth";
import { auditIfChanged } from "./transitions.server";
import { getInvoice, visible, type InvoiceRow } from "./queries.server";

export type SaveInvoiceError =
  | { ok: false; code: "not_found" | "not_editable" }
  | { ok: false; code: "subcontractor_not_found" | "subcontractor_archived"; field: "subcontractorId" }
  | { ok: false; code: "duplicate_number"; field: "invoiceNumber" };
export type SaveInvoiceResult = { ok: true; id: string } | SaveInvoiceError;

export function isUniqueNumberViolation(err: unknown): boolean {
  const text = `${err instanceof Error ? err.message : String(err)} ${err instanceof Error && err.cause ? String((err.cause as Error).message ?? err.cause) : ""}`;
  return /UNIQUE constraint failed/i.test(text) && /invoice_number|cis_invoices_number_unique/i.test(text);
}

const DUPLICATE: SaveInvoiceError = { ok: false, code: "duplicate_number", field: "invoiceNumber" };

/** The subcontractor an invoice may be saved against: this tenant's, not deleted, and active. */
async function usableSubcontractor(env: Env, tenantId: string, id: string) {
  const [sub] = await dbFor(env, tenantId)
    .select()
    .from(cisSubcontractors)
    .where(and(forTenant(cisSubcontractors, tenantId), eq(cisSubcontractors.id, id), isNull(cisSubcontractors.deletedAt)))
    .limit(1);
  if (!sub) return { ok: false, code: "subcontractor_not_found", field: "subcontractorId" } as const;
  if (!sub.active) return { ok: false, code: "subcontractor_archived", field: "subcontractorId" } as const;
  return { ok: true, sub } as const;
}

/** A subcontractor as the invoice form offers it: name, current CIS rate, whether it is active and whether it has a VAT number. */
export type InvoiceFormSubcontractor = { id: string; name: string; rate: number; active: boolean; vatRegistered: boolean; publicBody: boolean };

/** How many subcontractors the invoice form offers at once; a search finds the others. */
export const INVOICE_PICKER_LIMIT = 25;

/** What the form's subcontractor picker shows: the choices, the search they answer, and whether there were more. */
export type InvoicePicker = { subcontractors: InvoiceFormSubcontractor[]; q: string; more: boolean };

function pickerColumns() {
  return {
    id: cisSubcontractors.id,
    name: cisSubcontractors.name,
    rate: cisSubcontractors.verificationRate,
    active: cisSubcontractors.active,
    publicBody: cisSubcontractors.publicBody,
    vatRegistered: sql<boolean>`coalesce(trim(${cisSubcontractors.vatNumber}), '') <> ''`.mapWith(Boolean).as("vat_registered"),
  };
}

/**
 * The picker's statements for one D1 batch: the first INVOICE_PICKER_LIMIT active subcontractors
 * by name whose name contains `q` (one more is read to tell whether there are others), and the
 * ones that must stay choosable whatever the search: the subcontractor already chosen (when
 * active) and an edited invoice's own (even if archived since, so the form shows who it is
 * rather than silently offering someone else; saving against it is still refused).
 */
function pickerStatements(db: Db, tenantId: string, opts: { q: string; chosenId?: string | undefined; invoiceId?: string | undefined }) {
  const live = and(forTenant(cisSubcontractors, tenantId), isNull(cisSubcontractors.deletedAt));
  const term = opts.q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`);
  const matches = db
    .select(pickerColumns())
    .from(cisSubcontractors)
    .where(and(live, eq(cisSubcontractors.active, true), term ? sql`${cisSubcontractors.nameLower} LIKE ${`%${term}%`} ESCAPE '\\'` : undefined))
    .orderBy(asc(cisSubcontractors.nameLower), asc(cisSubcontractors.id))
    .limit(INVOICE_PICKER_LIMIT + 1);
  const ownSub = opts.invoiceId
    ? sql`${cisSubcontractors.id} = (SELECT ${cisInvoices.subcontractorId} FROM ${cisInvoices} WHERE ${forTenant(cisInvoices, tenantId)} AND ${cisInvoices.id} = ${opts.invoiceId} AND ${cisInvoices.deletedAt} IS NULL)`
    : undefined;
  const chosen = opts.chosenId ? and(eq(cisSubcontractors.id, opts.chosenId), eq(cisSubcontractors.active, true)) : undefined;
  const pinned = db
    .select(pickerColumns())
    .from(cisSubcontractors)
    .where(and(live, ownSub && chosen ? or(ownSub, chosen) : (ownSub ?? chosen ?? sql`0`)))
    .orderBy(asc(cisSubcontractors.nameLower), asc(cisSubcontractors.id))
    .limit(2);
  return [matches, pinned] as const;
}

function toPicker(q: string, matches: InvoiceFormSubcontractor[], pinned: InvoiceFormSubcontractor[]): InvoicePicker {
  const shown = matches.slice(0, INVOICE_PICKER_LIMIT);
  const ids = new Set(shown.map((s) => s.id));
  return { subcontractors: [...pinned.filter((s) => !ids.has(s.id)), ...shown], q, more: matches.length > INVOICE_PICKER_LIMIT };
}

/** The picker's choices for a search, in one D1 round trip (the form's search step). */
export async function invoicePicker(
  env: Env,
  tenantId: string,
  opts: { q: string; chosenId?: string | undefined; invoiceId?: string | undefined },
): Promise<InvoicePicker> {
  const db = dbFor(env, tenantId);
  const [matches, pinned] = await db.batch(pickerStatements(db, tenantId, opts));
  return toPicker(opts.q, matches, pinned);
}

/**
 * What the invoice form needs, in one D1 round trip: the picker's subcontractors (a page of
 * active ones by name matching the search, plus the chosen one and an edited invoice's own),
 * whether the contractor is the end user (CIS settings; the reverse charge default depends on it)
 * and, for an edit, the invoice (null when unknown, deleted or another tenant's). The form never
 * lists the whole tenant: its size does not grow with the number of subcontractors.
 */
export async function invoiceFormData(
  env: Env,
  tenantId: string,
  invoiceId?: string,
  picker: { q?: string | undefined; chosenId?: string | undefined } = {},
): Promise<{ picker: InvoicePicker; invoice: InvoiceRow | null; contractorEndUser: boolean }> {
  const db = dbFor(env, tenantId);
  const q = picker.q ?? "";
  const [matchesStmt, pinnedStmt] = pickerStatements(db, tenantId, { q, chosenId: picker.chosenId, invoiceId });
  const settings = db.select({ endUser: cisSettings.endUser }).from(cisSettings).where(eq(cisSettings.tenantId, tenantId)).limit(1);
  if (!invoiceId) {
    const [matches, pinned, [found]] = await db.batch([matchesStmt, pinnedStmt, settings]);
    return { picker: toPicker(q, matches, pinned), invoice: null, contractorEndUser: found?.endUser ?? false };
  }
  const [matches, pinned, rows, [found]] = await db.batch([
    matchesStmt,
    pinnedStmt,
    db
      .select()
      .from(cisInvoices)
      .where(and(visible(tenantId), eq(cisInvoices.id, invoiceId)))
      .limit(1),
    settings,
  ]);
  return { picker: toPicker(q, matches, pinned), invoice: rows[0] ?? null, contractorEndUser: found?.endUser ?? false };
}

export type InvoicePreviewInput = Pick<InvoiceInput, "subcontractorId" | "grossP" | "materialsP" | "vatRate" | "reverseCharge"> & {
  /** The invoice date as typed, 'YYYY-MM-DD'; it stands in for the payment date. */
  invoiceDate?: string | null;
};
export type InvoicePreview =
  | { ok: true; cisRate: number; outsideCis: boolean; amounts: ReturnType<typeof invoiceAmounts> }
  | { ok: false; code: "subcontractor_not_found" | "subcontractor_archived"; field: "subcontractorId" };

/** The amounts a save would store now (same subcontractor check, same rate, same maths), writing nothing. */
export async function previewInvoiceAmounts(env: Env, tenantId: string, input: InvoicePreviewInput): Promise<InvoicePreview> {
  const found = await usableSubcontractor(env, tenantId, input.subcontractorId);
  if (!found.ok) return found;
  const treatment = invoiceTreatment(found.sub, input.invoiceDate || londonToday());
  const { cisRate, ...amounts } = amountsAt(input, treatment.cisRate);
  return { ok: true, cisRate, outsideCis: treatment.outsideCis, amounts };
}

function londonToday(): string {
  return formatInTimeZone(new Date(), LONDON, "yyyy-MM-dd");
}

/**
 * The rate an invoice is saved at: the subcontractor's, or none at all when the subcontractor is a
 * public body and the invoice is dated on or after 6 April 2026 (the invoice date stands in for
 * the payment date): then it is not a CIS payment (`outsideCis`).
 */
export function invoiceTreatment(
  sub: { verificationRate: number; publicBody?: boolean | null },
  invoiceDate: string,
): { cisRate: number; outsideCis: boolean } {
  return cisTreatment(sub.verificationRate, sub.publicBody === true, invoiceDate);
}

function amountsAt(input: InvoicePreviewInput, cisRate: number) {
  return {
    cisRate,
    ...invoiceAmounts({ grossP: input.grossP, materialsP: input.materialsP, cisRate, vatRate: input.vatRate, reverseCharge: input.reverseCharge }),
  };
}

async function numberTaken(env: Env, tenantId: string, subcontractorId: string, invoiceNumber: string, exceptId?: string): Promise<boolean> {
  const [row] = await dbFor(env, tenantId)
    .select({ id: cisInvoices.id })
    .from(cisInvoices)
    .where(
      and(
        visible(tenantId),
        eq(cisInvoices.subcontractorId, subcontractorId),
        eq(cisInvoices.invoiceNumber, invoiceNumber),
        exceptId ? ne(cisInvoices.id, exceptId) : undefined,
      ),
    )
    .limit(1);
  return Boolean(row);
}

/** What an invoice copies from its subcontractor when it is saved. */
export type InvoiceSubcontractor = Pick<typeof cisSubcontractors.$inferSelect, "id" | "name" | "utrMasked" | "ninoMasked" | "verificationRate"> & {
  /** A public body: invoices dated from 6 April 2026 are outside CIS. */
  publicBody?: boolean;
};

/** The stored fields of an input: amounts always computed here, at the subcontractor's current rate (none for a public body from 6 April 2026). */
function savedFields(input: InvoiceInput, sub: InvoiceSubcontractor) {
  const treatment = invoiceTreatment(sub, input.invoiceDate);
  const { cisRate, ...amounts } = amountsAt(input, treatment.cisRate);
  return {
    invoiceNumber: input.invoiceNumber,
    subcontractorId: sub.id,
    subcontractorName: sub.name,
    subcontractorNameLower: sub.name.toLowerCase(),
    utrMasked: sub.utrMasked,
    ninoMasked: sub.ninoMasked,
    invoiceDate: input.invoiceDate,
    receivedDate: input.receivedDate ?? null,
    description: input.description ?? null,
    taxMonth: taxMonthOfDate(input.invoiceDate).label,
    ...amounts,
    cisRate,
    outsideCis: treatment.outsideCis,
    vatRate: input.vatRate,
    reverseCharge: input.reverseCharge,
    materialsJustification: input.materialsJustification ?? null,
  };
}

async function runSave(db: Db, statements: BatchItem<"sqlite">[]): Promise<SaveInvoiceError | null> {
  try {
    await db.batch(statements as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]]);
    return null;
  } catch (err) {
    // Two saves racing past the number check meet the unique index, which refuses the batch whole.
    if (isUniqueNumberViolation(err)) return DUPLICATE;
    throw err;
  }
}

/**
 * A new invoice's row and its 'cis.invoice.created' audit entry, not yet written: a draft (or,
 * from the portal, a portal_draft) with its amounts computed here by the rules engine at the
 * subcontractor's current rate. The form (createInvoice) and the CSV import both build their
 * rows with it, so an imported invoice is exactly what the form would have saved.
 */
export function newInvoiceRecords(
  tenantId: string,
  input: InvoiceInput,
  sub: InvoiceSubcontractor,
  actor: Actor,
  opts: {
    source?: InvoiceSource;
    via?: "form" | "import";
    now?: number;
    id?: string;
    attachmentBytes?: number | null;
    /** Portal only: the staff member shown the link that opened the submitting session. */
    portalLinkRevealedBy?: string | null;
  } = {},
) {
  const source = opts.source ?? "staff";
  const now = opts.now ?? Date.now();
  const id = opts.id ?? newId();
  const fields = savedFields(input, sub);
  const row = {
    id,
    tenantId,
    ...fields,
    status: source === "portal" ? "portal_draft" : "draft",
    source,
    attachmentBytes: opts.attachmentBytes ?? null,
    portalLinkRevealedBy: source === "portal" ? (opts.portalLinkRevealedBy ?? null) : null,
    createdAt: now,
    createdBy: actor.id,
    updatedAt: now,
    updatedBy: actor.id,
  } satisfies typeof cisInvoices.$inferInsert;
  const audit = {
    tenantId,
    action: "cis.invoice.created",
    actorId: actor.id,
    actorEmail: actor.email,
    targetType: "invoice",
    targetId: id,
    payload: {
      source: opts.via === "import" ? "import" : source,
      subcontractorId: fields.subcontractorId,
      grossP: fields.grossP,
      cisDeductionP: fields.cisDeductionP,
      ...(opts.attachmentBytes ? { attachmentBytes: opts.attachmentBytes } : {}),
      ...(row.portalLinkRevealedBy ? { linkRevealedBy: row.portalLinkRevealedBy } : {}),
    },
  } satisfies AuditEntry;
  return { id, row, audit };
}

/** Creates a draft (or, from the portal, a portal_draft) with its audit and activity entries in one batch. */
export async function createInvoice(
  env: Env,
  tenantId: string,
  input: InvoiceInput,
  actor: Actor,
  opts: { source?: InvoiceSource; id?: string; attachmentBytes?: number | null; portalLinkRevealedBy?: string | null } = {},
): Promise<SaveInvoiceResult> {
  const found = await usableSubcontractor(env, tenantId, input.subcontractorId);
  if (!found.ok) return found;
  if (await numberTaken(env, tenantId, found.sub.id, input.invoiceNumber)) return DUPLICATE;
  const db = dbFor(env, tenantId);
  const now = Date.now();
  const { id, row, audit } = newInvoiceRecords(tenantId, input, found.sub, actor, { ...opts, now });
  const failed = await runSave(db, [
    db.insert(cisInvoices).values(row),
    auditInsert(db, audit, now),
    activityInsert(
      db,
      {
        tenantId,
        module: "cis",
        action: "invoice.created",
        entityType: "invoice",
        entityId: id,
        performedBy: actor.id,
        performedByName: actor.name,
        details: { invoiceNumber: row.invoiceNumber, subcontractorName: row.subcontractorName },
      },
      now,
    ),
  ]);
  return failed ?? { ok: true, id };
}

/** Edits a draft. The update only lands while the invoice is still a draft, so an approval in between wins. */
export async function updateInvoice(env: Env, tenantId: string, id: string, input: InvoiceInput, actor: Actor): Promise<SaveInvoiceResult> {
  const existing = await getInvoice(env, tenantId, id);
  if (!existing) return { ok: false, code: "not_found" };
  if (existing.status !== "draft") return { ok: false, code: "not_editable" };
  const found = await usableSubcontractor(env, tenantId, input.subcontractorId);
  if (!found.ok) return found;
  if (await numberTaken(env, tenantId, found.sub.id, input.invoiceNumber, id)) return DUPLICATE;
  const db = dbFor(env, tenantId);
  const token = newId();
  const now = Date.now();
  const fields = savedFields(input, found.sub);
  const failed = await runSave(db, [
    db
      .update(cisInvoices)
      .set({ ...fields, transitionId: token, updatedAt: now, updatedBy: actor.id })
      .where(and(visible(tenantId), eq(cisInvoices.id, id), eq(cisInvoices.status, "draft"))),
    auditIfChanged(db, tenantId, id, token, "cis.invoice.updated", actor, { grossP: fields.grossP, cisDeductionP: fields.cisDeductionP }, now),
  ]);
  if (failed) return failed;
  const after = await getInvoice(env, tenantId, id);
  if (!after) return { ok: false, code: "not_found" };
  if (after.transitionId !== token) return { ok: false, code: "not_editable" };
  return { ok: true, id };
}
