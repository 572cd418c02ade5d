/**
 * An invoice's life after it is saved: approve, reject, pay, cancel, delete and ask for a
 * statement, one invoice or many, each a conditional UPDATE with its audit entry in one batch.
 * Beside it: queries.server.ts (reading), form.server.ts (saving) and email.server.ts (the copy).
 */
import { and, eq, inArray, isNull, ne, or, sql } from "drizzle-orm";
import { forTenant, sameTenant } from "~/db/tenancy";
import type { BatchItem } from "drizzle-orm/batch";
import type { SQLiteUpdateSetSource } from "drizzle-orm/sqlite-core";
import { dbFor, type Db } from "~/db/client.server";
import { cisInvoices, cisSubcontractors } from "~/db/schema";
import { auditInsertWhere } from "~/features/platform/index.server";
import type { AuditAction } from "~/features/platform";
import { claimSubmission, type SubmissionClaim } from "~/features/platform/index.server";
import { newId } from "~/utils/ids";
import { cisTreatment, invoiceAmounts, isCalendarDate, londonDateParts, taxMonthOfDate, type InvoiceStatus } from "../domain";
import type { Actor } from "~/features/auth";
import { INVOICE_BULK_LIMIT, type BulkInvoiceAction, type InvoiceErrorCode } from "./invoice-codes";
import { visible, type InvoiceRow } from "./queries.server";
import { INVOICE_STARTS_FROM, startsFrom, type InvoiceAction } from "./rules";

/** Today's date on the London calendar, 'YYYY-MM-DD'. */
export function londonToday(now: Date = new Date()): string {
  const { year, month, day } = londonDateParts(now);
  return `${String(year).padStart(4, "0")}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`;
}

export type { InvoiceAction } from "./rules";

type TransitionRule = {
  from: readonly InvoiceStatus[];
  refused: InvoiceErrorCode;
  audit: AuditAction;
  /** The one entry a bulk run of this action writes (only the actions the list offers in bulk). */
  bulkAudit?: AuditAction;
  /**
   * Four eyes: refused with this code to the staff member who was shown the portal link the
   * invoice was submitted through (they could have submitted it themselves).
   */
  notByLinkRevealer?: InvoiceErrorCode;
};

/** The states each action starts from (rules.ts); anything else is refused with its code. */
export const INVOICE_TRANSITIONS: Readonly<Record<InvoiceAction, TransitionRule>> = {
  approve: {
    from: INVOICE_STARTS_FROM.approve,
    refused: "not_approvable",
    audit: "cis.invoice.approved",
    bulkAudit: "cis.invoice.bulk.approve",
    notByLinkRevealer: "revealer_cannot_approve",
  },
  // A rejected portal submission is cancelled, and recorded as such.
  reject: { from: INVOICE_STARTS_FROM.reject, refused: "not_rejectable", audit: "cis.invoice.cancelled" },
  pay: {
    from: INVOICE_STARTS_FROM.pay,
    refused: "not_payable",
    audit: "cis.invoice.paid",
    bulkAudit: "cis.invoice.bulk.pay",
    notByLinkRevealer: "revealer_cannot_pay",
  },
  // Paid invoices are part of the tax record (returns read them): they are not cancelled.
  cancel: { from: INVOICE_STARTS_FROM.cancel, refused: "not_cancellable", audit: "cis.invoice.cancelled" },
  // Soft delete hides an invoice from lists; approved and paid ones carry a deduction and stay.
  delete: { from: INVOICE_STARTS_FROM.delete, refused: "not_deletable", audit: "cis.invoice.deleted", bulkAudit: "cis.invoice.bulk.delete" },
  // A statement reports payments made: only a paid invoice can be asked to go on one.
  statement: {
    from: INVOICE_STARTS_FROM.statement,
    refused: "not_statement_eligible",
    audit: "cis.invoice.statement_requested",
    bulkAudit: "cis.invoice.bulk.statement",
  },
};

/**
 * The audit entry of a transition, written only if the row carries this transition's id: the
 * UPDATE before it in the same batch matched. A transition that lost a race records nothing.
 */
export function auditIfChanged(
  db: Db,
  tenantId: string,
  invoiceId: string,
  token: string,
  action: AuditAction,
  actor: Actor,
  payload: Record<string, unknown>,
  now: number,
) {
  return auditInsertWhere(
    db,
    { tenantId, action, actorId: actor.id, actorEmail: actor.email, targetType: "invoice", targetId: invoiceId, payload, ip: null },
    sql`${forTenant(cisInvoices, tenantId)} AND ${cisInvoices.id} = ${invoiceId} AND ${cisInvoices.transitionId} = ${token}`,
    { from: cisInvoices, now },
  );
}

/** One entry for a bulk action, listing exactly the invoices this batch changed; none when nothing changed. */
function bulkAuditIfAny(db: Db, tenantId: string, token: string, action: AuditAction, actor: Actor, now: number) {
  return auditInsertWhere(
    db,
    {
      tenantId,
      action,
      actorId: actor.id,
      actorEmail: actor.email,
      targetType: "invoice",
      targetId: null,
      payload: sql`json_object('succeeded', json_group_array(${cisInvoices.id}), 'count', count(*))`,
      ip: null,
    },
    // Grouped over the batch's rows: no entry when nothing changed.
    sql`${forTenant(cisInvoices, tenantId)} AND ${cisInvoices.transitionId} = ${token} HAVING count(*) > 0`,
    { from: cisInvoices, now },
  );
}

export type TransitionFailure = { id: string; code: InvoiceErrorCode };
export type TransitionResult = { succeeded: string[]; failed: TransitionFailure[] };
export type SingleTransitionResult = { ok: true; id: string } | { ok: false; code: InvoiceErrorCode };

type TransitionOptions = { paymentDate?: string; bulk?: boolean; now?: Date; claim?: SubmissionClaim };

type Payment = { paymentDate: string; taxMonth: string };
type ApprovalInput = { row: InvoiceRow; sub: typeof cisSubcontractors.$inferSelect | null };
type Change = { set: SQLiteUpdateSetSource<typeof cisInvoices>; payload: Record<string, unknown> };
type PlannedTransition = { statements: BatchItem<"sqlite">[]; attempted: string[]; failed: TransitionFailure[] };

/**
 * Each invoice's conditional UPDATE and its audit entry, not yet run, in id order. An invalid
 * payment date fails every id, and an invoice an approval cannot find fails on its own, before
 * anything is written.
 */
async function planTransition(
  db: Db,
  tenantId: string,
  ids: string[],
  action: InvoiceAction,
  actor: Actor,
  opts: { token: string; nowDate: Date; paymentDate?: string },
): Promise<PlannedTransition> {
  const planned: PlannedTransition = { statements: [], attempted: [], failed: [] };
  const rule = INVOICE_TRANSITIONS[action];
  const now = opts.nowDate.getTime();
  let paid: Payment | null = null;
  if (action === "pay") {
    paid = paymentOn(opts.paymentDate ?? londonToday(opts.nowDate));
    if (!paid) {
      planned.failed.push(...ids.map((id) => ({ id, code: "invalid_payment_date" as const })));
      return planned;
    }
  }
  // Approval locks the amounts at the subcontractor's verification as it stands now; a payment
  // decides again, by its date, whether a public body's invoice is a contract payment.
  const current = action === "approve" || action === "pay" ? await currentInputs(db, tenantId, ids) : new Map<string, ApprovalInput>();
  const target = transitionTarget(tenantId, action, actor);
  const common = { transitionId: opts.token, updatedAt: now, updatedBy: actor.id };
  for (const id of ids) {
    let change: Change;
    if (action === "approve" || action === "pay") {
      const found = current.get(id);
      if (!found) {
        planned.failed.push({ id, code: "not_found" });
        continue;
      }
      change = action === "approve" ? approvalChange(found, actor, now) : paymentChange(found, actor, now, paid!);
    } else change = plainChange(action, actor, now);
    planned.attempted.push(id);
    planned.statements.push(
      db
        .update(cisInvoices)
        .set({ ...change.set, ...common })
        .where(target(id))
        .returning({ id: cisInvoices.id }),
      auditIfChanged(db, tenantId, id, opts.token, rule.audit, actor, change.payload, now),
    );
  }
  return planned;
}

/** A payment date 'YYYY-MM-DD' that is a real calendar date, with the tax month it falls in; null otherwise. */
function paymentOn(date: string): Payment | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (!m || !isCalendarDate(Number(m[1]), Number(m[2]), Number(m[3]))) return null;
  return { paymentDate: date, taxMonth: taxMonthOfDate(date).label };
}

/** The invoices to approve or pay with their subcontractors as they stand now, by invoice id. */
async function currentInputs(db: Db, tenantId: string, ids: string[]): Promise<Map<string, ApprovalInput>> {
  const rows = await db
    .select({ invoice: cisInvoices, sub: cisSubcontractors })
    .from(cisInvoices)
    .leftJoin(cisSubcontractors, and(eq(cisSubcontractors.id, cisInvoices.subcontractorId), sameTenant(cisSubcontractors, cisInvoices)))
    .where(and(visible(tenantId), inArray(cisInvoices.id, ids)));
  return new Map(rows.map((r) => [r.invoice.id, { row: r.invoice, sub: r.sub }]));
}

/** The condition one invoice's UPDATE carries: this tenant's, not deleted, in a starting state of the action. */
function transitionTarget(tenantId: string, action: InvoiceAction, actor: Actor) {
  const rule = INVOICE_TRANSITIONS[action];
  // A statement's totals are fixed when it is generated, so an invoice on one is never cancelled.
  // Four eyes sits in the same condition, so no path around this function approves or pays.
  const notRevealer = rule.notByLinkRevealer ? or(isNull(cisInvoices.portalLinkRevealedBy), ne(cisInvoices.portalLinkRevealedBy, actor.id)) : undefined;
  return (id: string) =>
    and(
      visible(tenantId),
      eq(cisInvoices.id, id),
      inArray(cisInvoices.status, rule.from),
      action === "cancel" ? isNull(cisInvoices.statementId) : undefined,
      notRevealer,
    );
}

/** The stored amounts of an invoice at another rate. */
function amountsAtRate(row: InvoiceRow, cisRate: number) {
  return invoiceAmounts({ grossP: row.grossP, materialsP: row.materialsP, cisRate, vatRate: row.vatRate, reverseCharge: row.reverseCharge });
}

/**
 * An approval: the amounts again at the subcontractor's current rate, locked, with the verification
 * they rest on. A public body's invoice dated from 6 April 2026 stays outside CIS (the invoice date
 * stands in for the payment date until the payment decides).
 */
function approvalChange({ row, sub }: ApprovalInput, actor: Actor, now: number): Change {
  const verified = sub?.verificationRate ?? row.verificationRate ?? row.cisRate;
  const { cisRate: rate, outsideCis } = cisTreatment(verified, sub ? sub.publicBody : row.outsideCis, row.invoiceDate);
  const amounts = amountsAtRate(row, rate);
  return {
    set: {
      ...amounts,
      cisRate: rate,
      outsideCis,
      status: "approved",
      approvedAt: now,
      approvedBy: actor.id,
      lockedAt: now,
      verificationStatus: sub?.verificationStatus ?? null,
      verificationRate: verified,
      verificationReference: sub?.verificationReference ?? null,
      // The law asks for a statement whenever a deduction is made: the approval itself says so.
      ...(amounts.cisDeductionP > 0 ? { statementRequired: true, statementRequestedAt: now, statementRequestedBy: actor.id } : {}),
    },
    payload: { cisDeductionP: amounts.cisDeductionP, rate, verificationStatus: sub?.verificationStatus ?? null, ...(outsideCis ? { outsideCis } : {}) },
  };
}

/**
 * A payment. Its date decides whether a public body's invoice is a contract payment (not on or
 * after 6 April 2026; before, the deduction at the rate verified at approval applies), so the
 * amounts, the outside-CIS flag and the statement flag are set in the payment's own UPDATE. An
 * ordinary invoice keeps the amounts its approval locked.
 */
function paymentChange({ row, sub }: ApprovalInput, actor: Actor, now: number, paid: Payment): Change {
  const set: Change["set"] = { status: "paid", paidAt: now, paidBy: actor.id, paymentDate: paid.paymentDate, taxMonth: paid.taxMonth };
  const treatment = cisTreatment(row.verificationRate ?? row.cisRate, sub ? sub.publicBody : row.outsideCis, paid.paymentDate);
  if (!treatment.outsideCis && !row.outsideCis) return { set, payload: { ...paid } };
  const amounts = amountsAtRate(row, treatment.cisRate);
  const statement = treatment.outsideCis
    ? { statementRequired: false, statementRequestedAt: null, statementRequestedBy: null }
    : amounts.cisDeductionP > 0
      ? {
          statementRequired: true,
          statementRequestedAt: sql`coalesce(${cisInvoices.statementRequestedAt}, ${now})`,
          statementRequestedBy: sql`coalesce(${cisInvoices.statementRequestedBy}, ${actor.id})`,
        }
      : {};
  return {
    set: { ...set, ...amounts, cisRate: treatment.cisRate, outsideCis: treatment.outsideCis, ...statement },
    payload: { ...paid, outsideCis: treatment.outsideCis, cisDeductionP: amounts.cisDeductionP },
  };
}

/** What every other action writes; the same for each invoice it is applied to. */
function plainChange(action: Exclude<InvoiceAction, "approve" | "pay">, actor: Actor, now: number): Change {
  switch (action) {
    case "reject":
      return { set: { status: "cancelled", cancelledAt: now, cancelledBy: actor.id }, payload: { rejected: true } };
    case "cancel":
      return { set: { status: "cancelled", cancelledAt: now, cancelledBy: actor.id }, payload: {} };
    case "delete":
      return { set: { deletedAt: now, deletedBy: actor.id }, payload: {} };
    case "statement":
      return {
        set: {
          statementRequired: true,
          statementRequestedAt: sql`coalesce(${cisInvoices.statementRequestedAt}, ${now})`,
          statementRequestedBy: sql`coalesce(${cisInvoices.statementRequestedBy}, ${actor.id})`,
        },
        payload: {},
      };
  }
}

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
  const result: TransitionResult = { succeeded: [], failed: all.slice(INVOICE_BULK_LIMIT).map((id) => ({ id, code: "too_many" as const })) };
  if (ids.length === 0) return result;
  const rule = INVOICE_TRANSITIONS[action];
  const db = dbFor(env, tenantId);
  const nowDate = opts.now ?? new Date();
  const now = nowDate.getTime();
  const token = newId();

  const { statements, attempted, failed } = await planTransition(db, tenantId, ids, action, actor, { token, nowDate, paymentDate: opts.paymentDate });
  result.failed.push(...failed);
  if (statements.length === 0) return result;
  if (opts.bulk && rule.bulkAudit) statements.push(bulkAuditIfAny(db, tenantId, token, rule.bulkAudit, actor, now));
  // Last, so the results above keep their places; a repeated key fails the whole batch.
  if (opts.claim) statements.push(claimSubmission(db, opts.claim));

  const results = (await db.batch(statements as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]])) as unknown[];
  const changed = new Set(attempted.filter((_, i) => (results[i * 2] as unknown[]).length > 0));
  result.succeeded.push(...changed);

  const missed = attempted.filter((id) => !changed.has(id));
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
      if (!startsFrom(action, found.status)) return rule.refused;
      if (action === "cancel" && found.statementId != null) return "on_statement";
      if (rule.notByLinkRevealer && found.revealedBy === actor.id) return rule.notByLinkRevealer;
      return rule.refused;
    };
    for (const id of missed) result.failed.push({ id, code: reason(present.get(id)) });
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
  if (res.succeeded.length === 1) return { ok: true, id };
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
