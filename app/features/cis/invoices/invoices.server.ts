import { and, asc, count, desc, eq, getTableColumns, inArray, isNull, ne, or, sql, type SQL } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { SQLiteUpdateSetSource } from "drizzle-orm/sqlite-core";
import { formatInTimeZone } from "date-fns-tz";
import { z } from "zod";
import { getDb, type Db } from "~/db/client.server";
import { sameTenant } from "~/db/tenancy";
import { auditEvents, cisInvoices, cisSubcontractors, users, type InvoiceSource } from "~/db/schema";
import { activityInsert, auditInsert, type AuditEntry } from "~/features/platform/audit.server";
import { queueEmail } from "~/features/platform/email/send.server";
import { enqueue } from "~/features/platform/jobs/enqueue.server";
import { claimSubmission, type SubmissionClaim } from "~/features/platform/submission-keys.server";
import { newId } from "~/utils/ids";
import {
  currentTaxMonth,
  formatPence,
  invoiceAmounts,
  isCalendarDate,
  LONDON_TZ,
  materialsWarning,
  previousTaxMonth,
  taxMonthFromLabel,
  taxMonthOfDate,
  type InvoiceInput,
  type InvoiceStatus,
} from "../domain";
import { INVOICE_STATUS_LABELS } from "./components/invoice-status";
import { statementJobKey } from "./jobs.server";
import { pendingInvoices } from "../statements/statements.server";
import type { Actor } from "../module.server";
import {
  INVOICE_BULK_LIMIT,
  INVOICE_PAGE_SIZE,
  INVOICE_PERIODS,
  INVOICE_STATUS_FILTERS,
  type BulkInvoiceAction,
  type InvoiceEmailErrorCode,
  type InvoiceErrorCode,
  type InvoicePeriod,
  type InvoiceStatusFilter,
} from "./invoice-codes";
import { maskEmail } from "../pii.server";
import { contractorDetails } from "../portal-invites.server";

export type InvoiceRow = typeof cisInvoices.$inferSelect;

// The shared constants and codes, for callers that import everything about invoices from here.
export * from "./invoice-codes";

export type SaveInvoiceError =
  | { ok: false; code: "not_found" | "not_editable" }
  | { ok: false; code: "subcontractor_not_found" | "subcontractor_archived"; field: "subcontractorId" }
  | { ok: false; code: "duplicate_number"; field: "invoiceNumber" };
export type SaveInvoiceResult = { ok: true; id: string } | SaveInvoiceError;

// ---------------------------------------------------------------------------
// Reading

/** Soft-deleted invoices never show; everything is scoped to the tenant. */
function visible(tenantId: string) {
  return and(eq(cisInvoices.tenantId, tenantId), isNull(cisInvoices.deletedAt));
}

/** Null for another tenant's id, an unknown id, or a deleted invoice: callers answer 404. */
export async function getInvoice(env: Env, tenantId: string, id: string): Promise<InvoiceRow | null> {
  const [row] = await getDb(env)
    .select()
    .from(cisInvoices)
    .where(and(visible(tenantId), eq(cisInvoices.id, id)))
    .limit(1);
  return row ?? null;
}

export type InvoiceListQuery = { q: string; status: InvoiceStatusFilter; period: InvoicePeriod; page: number };

const listQuerySchema = z.object({
  q: z
    .string()
    .catch("")
    .transform((q) => q.trim().slice(0, 100)),
  status: z.enum(INVOICE_STATUS_FILTERS).catch("all"),
  period: z.enum(INVOICE_PERIODS).catch("all"),
  page: z.coerce.number().int().min(1).max(100_000).catch(1),
});

/** Unknown or malformed filters fall back to their defaults rather than failing the page. */
export function parseInvoiceListQuery(params: URLSearchParams): InvoiceListQuery {
  return listQuerySchema.parse({
    q: params.get("q") ?? "",
    status: params.get("status") ?? "all",
    period: params.get("period") ?? "all",
    page: params.get("page") ?? "1",
  });
}

/**
 * The tax months ('YYYY-MM', inclusive) a period covers, on the London calendar: current and
 * previous are one month; quarter is the current month and the two before; year runs from the
 * tax year's first month (starting 6 April) to the current one.
 */
export function periodTaxMonths(period: InvoicePeriod, now: Date = new Date()): { from: string; to: string } | null {
  const current = currentTaxMonth(now).label;
  switch (period) {
    case "all":
      return null;
    case "current":
      return { from: current, to: current };
    case "previous": {
      const prev = previousTaxMonth(current).label;
      return { from: prev, to: prev };
    }
    case "quarter":
      return { from: previousTaxMonth(previousTaxMonth(current).label).label, to: current };
    case "year": {
      const year = Number(current.slice(0, 4));
      const month = Number(current.slice(5, 7));
      return { from: `${month >= 4 ? year : year - 1}-04`, to: current };
    }
  }
}

/** The list's filters as one condition; shared with the CSV export so a download holds what the list shows. */
export function invoiceFilter(tenantId: string, query: Pick<InvoiceListQuery, "q" | "status" | "period">, now: Date = new Date()): SQL | undefined {
  const conds: (SQL | undefined)[] = [visible(tenantId)];
  if (query.status !== "all") conds.push(eq(cisInvoices.status, query.status));
  const months = periodTaxMonths(query.period, now);
  if (months) conds.push(sql`${cisInvoices.taxMonth} BETWEEN ${months.from} AND ${months.to}`);
  if (query.q) {
    const term = `%${query.q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    conds.push(or(sql`lower(${cisInvoices.invoiceNumber}) LIKE ${term} ESCAPE '\\'`, sql`${cisInvoices.subcontractorNameLower} LIKE ${term} ESCAPE '\\'`));
  }
  return and(...conds);
}

/** What a list row needs, with the 60% materials warning worked out once here. */
export function invoiceListItem(row: InvoiceRow & { linkShownTo?: string | null }) {
  return {
    id: row.id,
    invoiceNumber: row.invoiceNumber,
    subcontractorId: row.subcontractorId,
    subcontractorName: row.subcontractorName,
    status: row.status,
    source: row.source,
    invoiceDate: row.invoiceDate,
    paymentDate: row.paymentDate,
    taxMonth: row.taxMonth,
    grossP: row.grossP,
    materialsP: row.materialsP,
    cisDeductionP: row.cisDeductionP,
    cisRate: row.cisRate,
    netPaymentP: row.netPaymentP,
    materialsPercentage: row.materialsPercentage,
    // From the pence, not the stored (rounded) percentage: 59.999% must not warn.
    materialsWarning: materialsWarning(row.grossP, row.materialsP) !== null,
    statementRequired: row.statementRequired,
    // Sent through a portal link a staff member was shown: their name (or a stand-in once they left).
    linkShownTo: row.portalLinkRevealedBy === null ? null : (row.linkShownTo ?? "a former user"),
  };
}
export type InvoiceListItem = ReturnType<typeof invoiceListItem>;

export type InvoiceStats = { total: number; draft: number; approved: number; thisMonthCisP: number; pendingStatements: number };

/**
 * The stat cards over the tenant's visible invoices (not the filtered view): Draft counts drafts
 * and portal submissions awaiting approval; This Month CIS sums the deductions of approved and
 * paid invoices in the current London tax month; Pending Statements counts the invoices pending a
 * statement, in every tax month (`pendingInvoices`: paid, deducted or asked for, not yet on one). One statement of five scalar subqueries, each
 * answered from its own index range (status, tax month, statement flags) rather than one CASE
 * aggregate over every row: with 50,000 invoices that is a few ms instead of 180-270 ms
 * (bench/explain-invoices.ts). The invoice list and the CIS dashboard both put it in their own
 * D1 batch, so their figures cannot differ.
 */
export function invoiceStatsQuery(db: Db, tenantId: string, now: Date = new Date()) {
  const month = currentTaxMonth(now).label;
  const live = sql`${cisInvoices.tenantId} = ${tenantId} AND ${cisInvoices.deletedAt} IS NULL`;
  const countOf = (cond?: SQL) => sql<number>`(SELECT count(*) FROM ${cisInvoices} WHERE ${live}${cond ? sql` AND ${cond}` : sql``})`;
  return db
    .select({
      total: countOf(),
      draft: countOf(sql`${cisInvoices.status} IN ('draft', 'portal_draft')`),
      approved: countOf(sql`${cisInvoices.status} = 'approved'`),
      thisMonthCisP: sql<number>`(SELECT coalesce(sum(${cisInvoices.cisDeductionP}), 0) FROM ${cisInvoices} WHERE ${live} AND ${cisInvoices.taxMonth} = ${month} AND ${cisInvoices.status} IN ('approved', 'paid'))`,
      pendingStatements: sql<number>`(SELECT count(*) FROM ${cisInvoices} WHERE ${pendingInvoices(tenantId)})`,
    })
    .from(sql`(SELECT 1)`);
}

export function toInvoiceStats(row: { total: number; draft: number; approved: number; thisMonthCisP: number; pendingStatements: number }): InvoiceStats {
  return {
    total: Number(row.total),
    draft: Number(row.draft),
    approved: Number(row.approved),
    thisMonthCisP: Number(row.thisMonthCisP),
    pendingStatements: Number(row.pendingStatements),
  };
}

/** The list's three statements (page, total, cards), built once here so the benchmark's query plans are exactly these. */
export function invoiceListQueries(db: Db, tenantId: string, query: InvoiceListQuery, now: Date = new Date()) {
  const where = invoiceFilter(tenantId, query, now);
  return [
    db
      .select({
        ...getTableColumns(cisInvoices),
        // Looked up by primary key for the rows of the page only, and only where a link was shown.
        linkShownTo: sql<string | null>`CASE WHEN ${cisInvoices.portalLinkRevealedBy} IS NULL THEN NULL ELSE
          (SELECT ${users.displayName} FROM ${users} WHERE ${users.id} = ${cisInvoices.portalLinkRevealedBy} AND ${sameTenant(users, cisInvoices)}) END`.as(
          "link_shown_to",
        ),
      })
      .from(cisInvoices)
      .where(where)
      .orderBy(desc(cisInvoices.invoiceDate), desc(cisInvoices.id))
      .limit(INVOICE_PAGE_SIZE)
      .offset((query.page - 1) * INVOICE_PAGE_SIZE),
    db.select({ total: count() }).from(cisInvoices).where(where),
    invoiceStatsQuery(db, tenantId, now),
  ] as const;
}

/** One page, the total for the pager and the five stat cards (invoiceStatsQuery), in a single D1 round trip. */
export async function listInvoices(env: Env, tenantId: string, query: InvoiceListQuery, now: Date = new Date()) {
  const db = getDb(env);
  const [rows, [{ total }], [stats]] = await db.batch(invoiceListQueries(db, tenantId, query, now));
  return {
    rows: rows.map(invoiceListItem),
    total,
    page: query.page,
    pageCount: Math.max(1, Math.ceil(total / INVOICE_PAGE_SIZE)),
    stats: toInvoiceStats(stats),
  };
}

// ---------------------------------------------------------------------------
// Create and edit

/** Today's date on the London calendar, 'YYYY-MM-DD'. */
export function londonToday(now: Date = new Date()): string {
  return formatInTimeZone(now, LONDON_TZ, "yyyy-MM-dd");
}

export function isUniqueNumberViolation(err: unknown): boolean {
  const text = `${err instanceof Error ? err.message : String(err)} ${err instanceof Error && err.cause ? String((err.cause as Error).message ?? err.cause) : ""}`;
  return /UNIQUE constraint failed/i.test(text) && /invoice_number|cis_invoices_number_unique/i.test(text);
}

const DUPLICATE: SaveInvoiceError = { ok: false, code: "duplicate_number", field: "invoiceNumber" };

/** The subcontractor an invoice may be saved against: this tenant's, not deleted, and active. */
async function usableSubcontractor(env: Env, tenantId: string, id: string) {
  const [sub] = await getDb(env)
    .select()
    .from(cisSubcontractors)
    .where(and(eq(cisSubcontractors.tenantId, tenantId), eq(cisSubcontractors.id, id), isNull(cisSubcontractors.deletedAt)))
    .limit(1);
  if (!sub) return { ok: false, code: "subcontractor_not_found", field: "subcontractorId" } as const;
  if (!sub.active) return { ok: false, code: "subcontractor_archived", field: "subcontractorId" } as const;
  return { ok: true, sub } as const;
}

/** A subcontractor as the invoice form offers it: name, current CIS rate, and whether it is active. */
export type InvoiceFormSubcontractor = { id: string; name: string; rate: number; active: boolean };

/**
 * What the invoice form needs, in one D1 round trip: this tenant's active subcontractors by name
 * and, for an edit, the invoice (null when unknown, deleted or another tenant's). An edited
 * invoice's own subcontractor is listed even if archived since, so the form shows who it is
 * rather than silently offering someone else; saving against it is still refused.
 */
export async function invoiceFormData(
  env: Env,
  tenantId: string,
  invoiceId?: string,
): Promise<{ subcontractors: InvoiceFormSubcontractor[]; invoice: InvoiceRow | null }> {
  const db = getDb(env);
  const usable = eq(cisSubcontractors.active, true);
  const ownSub = invoiceId
    ? sql`${cisSubcontractors.id} = (SELECT ${cisInvoices.subcontractorId} FROM ${cisInvoices} WHERE ${cisInvoices.tenantId} = ${tenantId} AND ${cisInvoices.id} = ${invoiceId} AND ${cisInvoices.deletedAt} IS NULL)`
    : undefined;
  const subs = db
    .select({ id: cisSubcontractors.id, name: cisSubcontractors.name, rate: cisSubcontractors.verificationRate, active: cisSubcontractors.active })
    .from(cisSubcontractors)
    .where(and(eq(cisSubcontractors.tenantId, tenantId), isNull(cisSubcontractors.deletedAt), ownSub ? or(usable, ownSub) : usable))
    .orderBy(asc(cisSubcontractors.nameLower), asc(cisSubcontractors.id));
  if (!invoiceId) return { subcontractors: await subs, invoice: null };
  const [subcontractors, rows] = await db.batch([
    subs,
    db
      .select()
      .from(cisInvoices)
      .where(and(visible(tenantId), eq(cisInvoices.id, invoiceId)))
      .limit(1),
  ]);
  return { subcontractors, invoice: rows[0] ?? null };
}

export type InvoicePreviewInput = Pick<InvoiceInput, "subcontractorId" | "grossP" | "materialsP" | "vatRate" | "reverseCharge">;
export type InvoicePreview =
  | { ok: true; cisRate: number; amounts: ReturnType<typeof invoiceAmounts> }
  | { ok: false; code: "subcontractor_not_found" | "subcontractor_archived"; field: "subcontractorId" };

/** The amounts a save would store now (same subcontractor check, same rate, same maths), writing nothing. */
export async function previewInvoiceAmounts(env: Env, tenantId: string, input: InvoicePreviewInput): Promise<InvoicePreview> {
  const found = await usableSubcontractor(env, tenantId, input.subcontractorId);
  if (!found.ok) return found;
  const { cisRate, ...amounts } = amountsAt(input, found.sub.verificationRate);
  return { ok: true, cisRate, amounts };
}

function amountsAt(input: InvoicePreviewInput, cisRate: number) {
  return {
    cisRate,
    ...invoiceAmounts({ grossP: input.grossP, materialsP: input.materialsP, cisRate, vatRate: input.vatRate, reverseCharge: input.reverseCharge }),
  };
}

async function numberTaken(env: Env, tenantId: string, subcontractorId: string, invoiceNumber: string, exceptId?: string): Promise<boolean> {
  const [row] = await getDb(env)
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
export type InvoiceSubcontractor = Pick<typeof cisSubcontractors.$inferSelect, "id" | "name" | "utrMasked" | "ninoMasked" | "verificationRate">;

/** The stored fields of an input: amounts always computed here, at the subcontractor's current rate. */
function savedFields(input: InvoiceInput, sub: InvoiceSubcontractor) {
  const { cisRate, ...amounts } = amountsAt(input, sub.verificationRate);
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
  const db = getDb(env);
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
  const db = getDb(env);
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

// ---------------------------------------------------------------------------
// Transitions

export type InvoiceAction = "approve" | "reject" | "pay" | "cancel" | "delete" | "statement";

type TransitionRule = {
  from: readonly InvoiceStatus[];
  refused: InvoiceErrorCode;
  audit: string;
  /**
   * Four eyes: refused with this code to the staff member who was shown the portal link the
   * invoice was submitted through (they could have submitted it themselves).
   */
  notByLinkRevealer?: InvoiceErrorCode;
};

/** The states each action starts from; anything else is refused with its code. */
export const INVOICE_TRANSITIONS: Readonly<Record<InvoiceAction, TransitionRule>> = {
  approve: { from: ["draft", "portal_draft"], refused: "not_approvable", audit: "cis.invoice.approved", notByLinkRevealer: "revealer_cannot_approve" },
  // A rejected portal submission is cancelled, and recorded as such.
  reject: { from: ["portal_draft"], refused: "not_rejectable", audit: "cis.invoice.cancelled" },
  pay: { from: ["approved"], refused: "not_payable", audit: "cis.invoice.paid", notByLinkRevealer: "revealer_cannot_pay" },
  // Paid invoices are part of the tax record (returns read them): they are not cancelled.
  cancel: { from: ["draft", "portal_draft", "approved"], refused: "not_cancellable", audit: "cis.invoice.cancelled" },
  // Soft delete hides an invoice from lists; approved and paid ones carry a deduction and stay.
  delete: { from: ["draft", "portal_draft", "cancelled"], refused: "not_deletable", audit: "cis.invoice.deleted" },
  // A statement reports payments made: only a paid invoice can be asked to go on one.
  statement: { from: ["paid"], refused: "not_statement_eligible", audit: "cis.invoice.statement_requested" },
};

/**
 * The audit entry of a transition, written only if the row carries this transition's id: the
 * UPDATE before it in the same batch matched. A transition that lost a race records nothing.
 */
function auditIfChanged(
  db: Db,
  tenantId: string,
  invoiceId: string,
  token: string,
  action: string,
  actor: Actor,
  payload: Record<string, unknown>,
  now: number,
) {
  return db.insert(auditEvents)
    .select(sql`SELECT ${newId()}, ${tenantId}, ${actor.id}, ${actor.email}, ${action}, 'invoice', ${invoiceId}, ${JSON.stringify(payload)}, NULL, ${now}
    FROM ${cisInvoices} WHERE ${cisInvoices.tenantId} = ${tenantId} AND ${cisInvoices.id} = ${invoiceId} AND ${cisInvoices.transitionId} = ${token}`);
}

/** One entry for a bulk action, listing exactly the invoices this batch changed; none when nothing changed. */
function bulkAuditIfAny(db: Db, tenantId: string, token: string, action: InvoiceAction, actor: Actor, now: number) {
  return db.insert(auditEvents).select(sql`SELECT ${newId()}, ${tenantId}, ${actor.id}, ${actor.email}, ${`cis.invoice.bulk.${action}`}, 'invoice', NULL,
      json_object('succeeded', json_group_array(${cisInvoices.id}), 'count', count(*)), NULL, ${now}
    FROM ${cisInvoices} WHERE ${cisInvoices.tenantId} = ${tenantId} AND ${cisInvoices.transitionId} = ${token}
    HAVING count(*) > 0`);
}

export type TransitionFailure = { id: string; code: InvoiceErrorCode };
export type TransitionResult = { succeeded: string[]; failed: TransitionFailure[]; jobs: Record<string, string> };
export type SingleTransitionResult = { ok: true; id: string; jobId?: string } | { ok: false; code: InvoiceErrorCode };

type TransitionOptions = { paymentDate?: string; bulk?: boolean; now?: Date; claim?: SubmissionClaim };

/**
 * Runs one action over ids. Each invoice gets one conditional UPDATE (its id, the tenant, not
 * deleted, status among the action's starting states) and its audit entry, all in one batch:
 * D1 runs a batch as one transaction, so of two simultaneous approvals exactly one matches.
 */
async function transition(
  env: Env,
  tenantId: string,
  rawIds: string[],
  action: InvoiceAction,
  actor: Actor,
  opts: TransitionOptions = {},
): Promise<TransitionResult> {
  const all = [...new Set(rawIds)];
  const ids = all.slice(0, INVOICE_BULK_LIMIT);
  const result: TransitionResult = { succeeded: [], failed: all.slice(INVOICE_BULK_LIMIT).map((id) => ({ id, code: "too_many" as const })), jobs: {} };
  if (ids.length === 0) return result;
  const rule = INVOICE_TRANSITIONS[action];
  const db = getDb(env);
  const nowDate = opts.now ?? new Date();
  const now = nowDate.getTime();
  const token = newId();

  let paid: { paymentDate: string; taxMonth: string } | null = null;
  if (action === "pay") {
    const date = opts.paymentDate ?? londonToday(nowDate);
    const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
    if (!m || !isCalendarDate(Number(m[1]), Number(m[2]), Number(m[3]))) {
      result.failed.push(...ids.map((id) => ({ id, code: "invalid_payment_date" as const })));
      return result;
    }
    paid = { paymentDate: date, taxMonth: taxMonthOfDate(date).label };
  }

  // Approval locks the amounts at the subcontractor's verification as it stands now.
  const current = new Map<string, { row: InvoiceRow; sub: typeof cisSubcontractors.$inferSelect | null }>();
  if (action === "approve") {
    const rows = await db
      .select({ invoice: cisInvoices, sub: cisSubcontractors })
      .from(cisInvoices)
      .leftJoin(cisSubcontractors, and(eq(cisSubcontractors.id, cisInvoices.subcontractorId), eq(cisSubcontractors.tenantId, cisInvoices.tenantId)))
      .where(and(visible(tenantId), inArray(cisInvoices.id, ids)));
    for (const r of rows) current.set(r.invoice.id, { row: r.invoice, sub: r.sub });
  }

  // A statement's totals are fixed when it is generated, so an invoice on one is never cancelled.
  // Four eyes sits in the same condition, so no path around this function approves or pays.
  const notRevealer = rule.notByLinkRevealer ? or(isNull(cisInvoices.portalLinkRevealedBy), ne(cisInvoices.portalLinkRevealedBy, actor.id)) : undefined;
  const target = (id: string) =>
    and(
      visible(tenantId),
      eq(cisInvoices.id, id),
      inArray(cisInvoices.status, rule.from),
      action === "cancel" ? isNull(cisInvoices.statementId) : undefined,
      notRevealer,
    );
  const common = { transitionId: token, updatedAt: now, updatedBy: actor.id };
  const statements: BatchItem<"sqlite">[] = [];
  const attempted: string[] = [];
  for (const id of ids) {
    let set: SQLiteUpdateSetSource<typeof cisInvoices>;
    let payload: Record<string, unknown> = {};
    switch (action) {
      case "approve": {
        const found = current.get(id);
        if (!found) {
          result.failed.push({ id, code: "not_found" });
          continue;
        }
        const { row, sub } = found;
        const rate = sub?.verificationRate ?? row.cisRate;
        const amounts = invoiceAmounts({
          grossP: row.grossP,
          materialsP: row.materialsP,
          cisRate: rate,
          vatRate: row.vatRate,
          reverseCharge: row.reverseCharge,
        });
        set = {
          ...amounts,
          cisRate: rate,
          status: "approved",
          approvedAt: now,
          approvedBy: actor.id,
          lockedAt: now,
          verificationStatus: sub?.verificationStatus ?? null,
          verificationRate: rate,
          verificationReference: sub?.verificationReference ?? null,
          // The law asks for a statement whenever a deduction is made: the approval itself says so.
          ...(amounts.cisDeductionP > 0 ? { statementRequired: true, statementRequestedAt: now, statementRequestedBy: actor.id } : {}),
        };
        payload = { cisDeductionP: amounts.cisDeductionP, rate, verificationStatus: sub?.verificationStatus ?? null };
        break;
      }
      case "reject":
        set = { status: "cancelled", cancelledAt: now, cancelledBy: actor.id };
        payload = { rejected: true };
        break;
      case "cancel":
        set = { status: "cancelled", cancelledAt: now, cancelledBy: actor.id };
        break;
      case "pay":
        set = { status: "paid", paidAt: now, paidBy: actor.id, paymentDate: paid!.paymentDate, taxMonth: paid!.taxMonth };
        payload = { ...paid };
        break;
      case "delete":
        set = { deletedAt: now, deletedBy: actor.id };
        break;
      case "statement":
        set = {
          statementRequired: true,
          statementRequestedAt: sql`coalesce(${cisInvoices.statementRequestedAt}, ${now})`,
          statementRequestedBy: sql`coalesce(${cisInvoices.statementRequestedBy}, ${actor.id})`,
        };
        break;
    }
    attempted.push(id);
    statements.push(
      db
        .update(cisInvoices)
        .set({ ...set, ...common })
        .where(target(id))
        .returning({ id: cisInvoices.id, cisDeductionP: cisInvoices.cisDeductionP }),
      auditIfChanged(db, tenantId, id, token, rule.audit, actor, payload, now),
    );
  }
  if (statements.length === 0) return result;
  if (opts.bulk) statements.push(bulkAuditIfAny(db, tenantId, token, action, actor, now));
  // Last, so the results above keep their places; a repeated key fails the whole batch.
  if (opts.claim) statements.push(claimSubmission(db, opts.claim));

  const results = (await db.batch(statements as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]])) as unknown[];
  const deductions = new Map<string, number>();
  attempted.forEach((id, i) => {
    const changed = results[i * 2] as { id: string; cisDeductionP: number }[];
    if (changed.length > 0) {
      result.succeeded.push(id);
      deductions.set(id, changed[0].cisDeductionP);
    }
  });

  const missed = attempted.filter((id) => !deductions.has(id));
  if (missed.length > 0) {
    const states = await db
      .select({ id: cisInvoices.id, status: cisInvoices.status, statementId: cisInvoices.statementId, revealedBy: cisInvoices.portalLinkRevealedBy })
      .from(cisInvoices)
      .where(and(visible(tenantId), inArray(cisInvoices.id, missed)));
    const present = new Map(states.map((s) => [s.id, s]));
    const reason = (found: (typeof states)[number] | undefined): InvoiceErrorCode => {
      if (!found) return "not_found";
      if (action === "statement" && found.status === "approved") return "statement_unpaid";
      // Only the status refuses an invoice that could not have started this action anyway.
      if (!rule.from.includes(found.status)) return rule.refused;
      if (action === "cancel" && found.statementId != null) return "on_statement";
      if (rule.notByLinkRevealer && found.revealedBy === actor.id) return rule.notByLinkRevealer;
      return rule.refused;
    };
    for (const id of missed) result.failed.push({ id, code: reason(present.get(id)) });
  }

  if (action === "approve") {
    for (const id of result.succeeded) {
      if ((deductions.get(id) ?? 0) <= 0) continue;
      // Keyed by invoice: a retried approval or a second delivery never makes a second job. The
      // approval's own batch already marked the invoice as needing a statement, so a job the
      // queue refuses costs nothing the law depends on and does not fail the approval.
      try {
        const job = await enqueue(env, {
          tenantId,
          type: "statements.generate",
          input: { invoiceId: id },
          performedBy: actor.id,
          idempotencyKey: statementJobKey(id),
        });
        result.jobs[id] = job.jobId;
      } catch (err) {
        console.error(`invoice ${id}: the statements.generate job could not be queued; the approval stands`, err);
      }
    }
  }
  return result;
}

async function single(
  env: Env,
  tenantId: string,
  id: string,
  action: InvoiceAction,
  actor: Actor,
  opts: TransitionOptions = {},
): Promise<SingleTransitionResult> {
  const res = await transition(env, tenantId, [id], action, actor, opts);
  if (res.succeeded.length === 1) return { ok: true, id, ...(res.jobs[id] ? { jobId: res.jobs[id] } : {}) };
  return { ok: false, code: res.failed[0]?.code ?? "not_found" };
}

/** draft or portal_draft to approved; amounts locked at the subcontractor's current verification, which is kept on the invoice. */
export function approveInvoice(env: Env, tenantId: string, id: string, actor: Actor) {
  return single(env, tenantId, id, "approve", actor);
}

/** portal_draft to cancelled. */
export function rejectInvoice(env: Env, tenantId: string, id: string, actor: Actor) {
  return single(env, tenantId, id, "reject", actor);
}

/** approved to paid; the payment date ('YYYY-MM-DD', today in London by default) sets the tax month. */
export function markInvoicePaid(env: Env, tenantId: string, id: string, actor: Actor, opts: { paymentDate?: string; now?: Date } = {}) {
  return single(env, tenantId, id, "pay", actor, opts);
}

export function cancelInvoice(env: Env, tenantId: string, id: string, actor: Actor) {
  return single(env, tenantId, id, "cancel", actor);
}

/** Soft delete: sets deletedAt; nothing is removed, and the invoice number is free again. */
export function deleteInvoice(env: Env, tenantId: string, id: string, actor: Actor) {
  return single(env, tenantId, id, "delete", actor);
}

/**
 * Flags a paid invoice as needing a statement (the first request's time and author are kept). An
 * approved invoice not yet paid is refused with statement_unpaid: a statement reports payments.
 */
export function requestInvoiceStatement(env: Env, tenantId: string, id: string, actor: Actor) {
  return single(env, tenantId, id, "statement", actor);
}

/**
 * The bulk actions: each invoice through the same conditional transition as on its own, with
 * its own audit entry, plus one cis.invoice.bulk.{action} entry listing the succeeded ids.
 */
export function bulkInvoiceAction(
  env: Env,
  tenantId: string,
  action: BulkInvoiceAction,
  ids: string[],
  actor: Actor,
  opts: { paymentDate?: string; now?: Date; claim?: SubmissionClaim } = {},
) {
  return transition(env, tenantId, ids, action, actor, { ...opts, bulk: true });
}

/**
 * Invoice numbers of this tenant's visible invoices among `ids` (for confirmation steps and
 * results), and the ids among them whose portal link was shown to `actorId` (four eyes).
 */
export async function invoiceNumbers(
  env: Env,
  tenantId: string,
  ids: string[],
  actorId?: string,
): Promise<{ numbers: Record<string, string>; shownToActor: Set<string> }> {
  const unique = [...new Set(ids)].slice(0, INVOICE_BULK_LIMIT);
  if (unique.length === 0) return { numbers: {}, shownToActor: new Set() };
  const rows = await getDb(env)
    .select({ id: cisInvoices.id, invoiceNumber: cisInvoices.invoiceNumber, revealedBy: cisInvoices.portalLinkRevealedBy })
    .from(cisInvoices)
    .where(and(visible(tenantId), inArray(cisInvoices.id, unique)))
    .orderBy(asc(cisInvoices.invoiceNumber));
  return {
    numbers: Object.fromEntries(rows.map((r) => [r.id, r.invoiceNumber])),
    shownToActor: new Set(rows.filter((r) => actorId !== undefined && r.revealedBy === actorId).map((r) => r.id)),
  };
}

// ---------------------------------------------------------------------------
// Detail page and e-mailed copy

export type InvoiceDetailSub = { id: string; name: string; email: string | null; active: boolean };

/**
 * The detail page's data in one D1 round trip: the invoice, its subcontractor (for the link and
 * whether it has an e-mail address) and the display names of the people who acted on it. Each
 * statement filters by tenant; null when the invoice is not this tenant's or is deleted.
 */
export async function getInvoiceDetail(env: Env, tenantId: string, id: string) {
  const db = getDb(env);
  const thisInvoice = and(visible(tenantId), eq(cisInvoices.id, id));
  const [rows, subs, people] = await db.batch([
    db.select().from(cisInvoices).where(thisInvoice).limit(1),
    db
      .select({ id: cisSubcontractors.id, name: cisSubcontractors.name, email: cisSubcontractors.email, active: cisSubcontractors.active })
      .from(cisSubcontractors)
      .where(
        and(
          eq(cisSubcontractors.tenantId, tenantId),
          isNull(cisSubcontractors.deletedAt),
          inArray(cisSubcontractors.id, db.select({ id: cisInvoices.subcontractorId }).from(cisInvoices).where(thisInvoice)),
        ),
      )
      .limit(1),
    db
      .select({ id: users.id, name: users.displayName })
      .from(users)
      .where(
        and(
          eq(users.tenantId, tenantId),
          sql`${users.id} IN (SELECT value FROM ${cisInvoices}, json_each(json_array(${cisInvoices.createdBy}, ${cisInvoices.approvedBy}, ${cisInvoices.paidBy}, ${cisInvoices.cancelledBy}, ${cisInvoices.statementRequestedBy}, ${cisInvoices.portalLinkRevealedBy})) WHERE ${thisInvoice})`,
        ),
      ),
  ]);
  const invoice = rows[0];
  if (!invoice) return null;
  const sub: InvoiceDetailSub | null = subs[0] ?? null;
  return { invoice, sub, names: Object.fromEntries(people.map((p) => [p.id, p.name])) as Record<string, string> };
}

export type EmailInvoiceResult = { ok: true; to: string; outboxId: string } | { ok: false; code: InvoiceEmailErrorCode };

/** A stored calendar date 'YYYY-MM-DD' as en-GB, 'N/A' when missing. */
function gbDate(iso: string | null): string {
  const m = iso ? /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso) : null;
  return m ? `${m[3]}/${m[2]}/${m[1]}` : "N/A";
}

/** What the e-mailed copy says: formatted here, where the CIS rules live. No tax identifier goes in. */
export function invoiceCopyData(row: InvoiceRow, contractorName: string) {
  let taxMonth = row.taxMonth;
  try {
    taxMonth = `${row.taxMonth} (${taxMonthFromLabel(row.taxMonth).displayLabel})`;
  } catch {
    // A malformed stored label is shown as it is.
  }
  return {
    contractorName,
    subcontractorName: row.subcontractorName,
    invoiceNumber: row.invoiceNumber,
    status: INVOICE_STATUS_LABELS[row.status],
    invoiceDate: gbDate(row.invoiceDate),
    paymentDate: gbDate(row.paymentDate),
    taxMonth,
    gross: formatPence(row.grossP),
    materials: formatPence(row.materialsP),
    labour: formatPence(row.labourP),
    cisDeduction: `${formatPence(row.cisDeductionP)} at ${row.cisRate}%`,
    vat: row.reverseCharge ? "Reverse charge" : `${formatPence(row.vatAmountP)} at ${row.vatRate}%`,
    grossTotal: formatPence(row.grossTotalP),
    netPayment: formatPence(row.netPaymentP),
  };
}

/**
 * Sends the subcontractor a copy of the invoice through the e-mail queue, to the address on the
 * subcontractor now. The outbox row and the cis.invoice.emailed audit entry (address masked)
 * land in one batch.
 */
export async function emailInvoiceCopy(
  env: Env,
  tenant: { id: string; name: string },
  id: string,
  actor: Actor,
  opts: { ip?: string | null; claim?: SubmissionClaim } = {},
): Promise<EmailInvoiceResult> {
  const found = await getInvoiceDetail(env, tenant.id, id);
  if (!found) return { ok: false, code: "not_found" };
  const to = found.sub?.email?.trim();
  if (!to) return { ok: false, code: "no_email" };
  const { contractorName } = await contractorDetails(env, tenant);
  const row = found.invoice;
  const { outboxId } = await queueEmail(env, {
    tenantId: tenant.id,
    to,
    template: "cis.invoice-copy",
    data: invoiceCopyData(row, contractorName),
    alongside: (db, outboxId) => [
      auditInsert(db, {
        tenantId: tenant.id,
        action: "cis.invoice.emailed",
        actorId: actor.id,
        actorEmail: actor.email,
        targetType: "invoice",
        targetId: row.id,
        payload: { invoiceId: row.id, to: maskEmail(to), outboxId },
        ip: opts.ip ?? null,
      }),
      ...(opts.claim ? [claimSubmission(db, opts.claim)] : []),
    ],
  });
  return { ok: true, to, outboxId };
}
