import { env } from "cloudflare:workers";
// The job types are registered by the worker entry; these tests call the data layer directly.
import "~/jobs.server";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "~/db/client.server";
import { cisInvoices, jobs } from "~/db/schema";
import { currentTaxMonth, invoiceSchema, previousTaxMonth, subcontractorCreateSchema, type InvoiceStatus } from "~/features/cis/domain";
import { statementJobKey, statementsGenerateJob } from "~/features/cis/invoices/jobs.server";
import {
  approveInvoice,
  bulkInvoiceAction,
  cancelInvoice,
  deleteInvoice,
  INVOICE_TRANSITIONS,
  londonToday,
  markInvoicePaid,
  rejectInvoice,
  requestInvoiceStatement,
  type InvoiceAction,
} from "~/features/cis/invoices/transitions.server";
import { getInvoice, listInvoices, parseInvoiceListQuery } from "~/features/cis/invoices/queries.server";
import { createInvoice, updateInvoice } from "~/features/cis/invoices/form.server";
import { INVOICE_BULK_LIMIT, INVOICE_ERROR_MESSAGES, INVOICE_PAGE_SIZE } from "~/features/cis/invoices/invoice-codes";
import { createSubcontractor } from "~/features/cis/subcontractors/subcontractors.server";
import { createTenant, type TestTenant } from "../factories";
import { audits } from "../factories/audits";
import { newUtr } from "../factories/cis";
import { recordingJobs } from "../factories/queues";
import { deliverMessages } from "./queue-helpers";

const JOBS_QUEUE = "cis-workspace-jobs";
const actor = { id: "user-approver", email: "approver@example.test", name: "Approver" };

let seq = 0;

async function tenant() {
  return createTenant({ modules: ["cis"] });
}

async function seedSub(t: TestTenant, opts: { name?: string; status?: "gross" | "standard" | "higher"; active?: boolean } = {}) {
  const status = opts.status ?? "standard";
  const value = subcontractorCreateSchema.parse({
    type: "individual",
    name: opts.name ?? `Builder ${++seq}`,
    utr: newUtr(),
    verificationStatus: status,
    verificationRate: { gross: 0, standard: 20, higher: 30 }[status],
    verificationReference: status === "standard" ? undefined : "V1234567890",
    active: true,
  });
  const res = await createSubcontractor(env, t.id, value, actor, { canVerify: true, active: opts.active ?? true });
  if (!res.ok) throw new Error(res.code);
  return { id: res.id, name: value.name };
}

let numberSeq = 0;
function input(subcontractorId: string, extra: Record<string, unknown> = {}) {
  numberSeq += 1;
  return invoiceSchema.parse({
    subcontractorId,
    invoiceNumber: `INV-${numberSeq}`,
    invoiceDate: londonToday(),
    grossP: 100_000,
    materialsP: 30_000,
    vatRate: 20,
    reverseCharge: false,
    ...extra,
  });
}

async function draft(e: Env, t: TestTenant, subId: string, extra: Record<string, unknown> = {}, source: "staff" | "portal" = "staff") {
  const res = await createInvoice(e, t.id, input(subId, extra), actor, { source });
  if (!res.ok) throw new Error(res.code);
  return res.id;
}

/** An invoice brought to `status` through the data layer's own transitions. */
async function inState(e: Env, t: TestTenant, subId: string, status: InvoiceStatus) {
  const id = await draft(e, t, subId, {}, status === "portal_draft" ? "portal" : "staff");
  if (status === "approved" || status === "paid") expect((await approveInvoice(e, t.id, id, actor)).ok).toBe(true);
  if (status === "paid") expect((await markInvoicePaid(e, t.id, id, actor)).ok).toBe(true);
  if (status === "cancelled") expect((await cancelInvoice(e, t.id, id, actor)).ok).toBe(true);
  return id;
}

async function raw(id: string) {
  const [row] = await getDb(env).select().from(cisInvoices).where(eq(cisInvoices.id, id));
  return row;
}

async function jobRows(tenantId: string) {
  return getDb(env)
    .select()
    .from(jobs)
    .where(and(eq(jobs.tenantId, tenantId), eq(jobs.type, "statements.generate")));
}

// ---------------------------------------------------------------------------

describe("invoice amounts are computed on the server", () => {
  it("standard rate: labour, deduction, VAT, gross total and net from gross and materials", async () => {
    const t = await tenant();
    const { env: e } = recordingJobs();
    const sub = await seedSub(t, { status: "standard" });
    const id = await draft(e, t, sub.id);
    expect(await raw(id)).toMatchObject({
      status: "draft",
      source: "staff",
      grossP: 100_000,
      materialsP: 30_000,
      labourP: 70_000,
      cisRate: 20,
      cisDeductionP: 14_000,
      vatBaseP: 100_000,
      vatAmountP: 20_000,
      grossTotalP: 120_000,
      netPaymentP: 106_000,
      materialsPercentage: 30,
      taxMonth: currentTaxMonth().label,
      subcontractorName: sub.name,
    });
  });

  it("reverse charge: no VAT, net is gross minus the deduction", async () => {
    const t = await tenant();
    const { env: e } = recordingJobs();
    const sub = await seedSub(t);
    const id = await draft(e, t, sub.id, { reverseCharge: true });
    expect(await raw(id)).toMatchObject({ vatAmountP: 0, grossTotalP: 100_000, cisDeductionP: 14_000, netPaymentP: 86_000, reverseCharge: true });
  });

  it("rounds half up to the penny and uses the subcontractor's rate (higher 30%, gross 0%)", async () => {
    const t = await tenant();
    const { env: e } = recordingJobs();
    const standard = await seedSub(t, { status: "standard" });
    const higher = await seedSub(t, { status: "higher" });
    const gross = await seedSub(t, { status: "gross" });
    // 333 x 20% = 66.6 -> 67; VAT 333 x 5% = 16.65 -> 17.
    expect(await raw(await draft(e, t, standard.id, { grossP: 333, materialsP: 0, vatRate: 5 }))).toMatchObject({
      cisDeductionP: 67,
      vatAmountP: 17,
      netPaymentP: 333 + 17 - 67,
    });
    // 1001 x 30% = 300.3 -> 300; 1005 x 30% = 301.5 -> 302.
    expect(await raw(await draft(e, t, higher.id, { grossP: 1001, materialsP: 0, vatRate: 0 }))).toMatchObject({ cisRate: 30, cisDeductionP: 300 });
    expect(await raw(await draft(e, t, higher.id, { grossP: 1005, materialsP: 0, vatRate: 0 }))).toMatchObject({ cisDeductionP: 302 });
    expect(await raw(await draft(e, t, gross.id))).toMatchObject({ cisRate: 0, cisDeductionP: 0, netPaymentP: 120_000 });
  });

  it("editing a draft recomputes at the subcontractor's current rate", async () => {
    const t = await tenant();
    const { env: e } = recordingJobs();
    const sub = await seedSub(t);
    const id = await draft(e, t, sub.id);
    await env.DB.prepare("UPDATE cis_subcontractors SET verification_status = 'higher', verification_rate = 30 WHERE id = ?").bind(sub.id).run();
    const res = await updateInvoice(e, t.id, id, input(sub.id, { grossP: 50_000, materialsP: 0 }), actor);
    expect(res).toEqual({ ok: true, id });
    expect(await raw(id)).toMatchObject({ grossP: 50_000, cisRate: 30, cisDeductionP: 15_000, netPaymentP: 50_000 + 10_000 - 15_000 });
    expect(await audits(t.id, "cis.invoice.updated", id)).toHaveLength(1);
  });
});

describe("invoice creation rules", () => {
  it("refuses an archived subcontractor and another tenant's subcontractor", async () => {
    const t = await tenant();
    const other = await tenant();
    const { env: e } = recordingJobs();
    const archived = await seedSub(t, { active: false });
    const foreign = await seedSub(other);
    const res = await createInvoice(e, t.id, input(archived.id), actor);
    expect(res).toEqual({ ok: false, code: "subcontractor_archived", field: "subcontractorId" });
    expect(INVOICE_ERROR_MESSAGES.subcontractor_archived).toBe("Archived subcontractors cannot be used for new invoices");
    expect(await createInvoice(e, t.id, input(foreign.id), actor)).toEqual({ ok: false, code: "subcontractor_not_found", field: "subcontractorId" });
    const count = await env.DB.prepare("SELECT count(*) AS n FROM cis_invoices WHERE tenant_id = ?").bind(t.id).first<{ n: number }>();
    expect(count?.n).toBe(0);
  });

  it("refuses a duplicate number for the same subcontractor, allows it for another and again after soft delete", async () => {
    const t = await tenant();
    const { env: e } = recordingJobs();
    const a = await seedSub(t);
    const b = await seedSub(t);
    const first = await createInvoice(e, t.id, input(a.id, { invoiceNumber: "DUP-1" }), actor);
    expect(first.ok).toBe(true);
    expect(await createInvoice(e, t.id, input(a.id, { invoiceNumber: "DUP-1" }), actor)).toEqual({
      ok: false,
      code: "duplicate_number",
      field: "invoiceNumber",
    });
    expect((await createInvoice(e, t.id, input(b.id, { invoiceNumber: "DUP-1" }), actor)).ok).toBe(true);
    if (!first.ok) throw new Error("unreachable");
    expect(await deleteInvoice(e, t.id, first.id, actor)).toEqual({ ok: true, id: first.id });
    expect((await createInvoice(e, t.id, input(a.id, { invoiceNumber: "DUP-1" }), actor)).ok).toBe(true);
  });

  it("two simultaneous creates of one number: the unique index lets exactly one through", async () => {
    const t = await tenant();
    const { env: e } = recordingJobs();
    const a = await seedSub(t);
    const results = await Promise.all([
      createInvoice(e, t.id, input(a.id, { invoiceNumber: "RACE-1" }), actor),
      createInvoice(e, t.id, input(a.id, { invoiceNumber: "RACE-1" }), actor),
    ]);
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect(results.filter((r) => !r.ok)).toEqual([{ ok: false, code: "duplicate_number", field: "invoiceNumber" }]);
    expect(await audits(t.id, "cis.invoice.created")).toHaveLength(1);
  });

  it("records cis.invoice.created with the row, and portal submissions arrive as portal_draft", async () => {
    const t = await tenant();
    const { env: e } = recordingJobs();
    const sub = await seedSub(t);
    const id = await draft(e, t, sub.id, {}, "portal");
    expect(await raw(id)).toMatchObject({ status: "portal_draft", source: "portal" });
    const [entry] = await audits(t.id, "cis.invoice.created", id);
    expect(entry).toMatchObject({ actorId: actor.id, targetType: "invoice", payload: { source: "portal", cisDeductionP: 14_000 } });
  });

  it("only drafts can be edited", async () => {
    const t = await tenant();
    const { env: e } = recordingJobs();
    const sub = await seedSub(t);
    for (const status of ["portal_draft", "approved", "paid", "cancelled"] as const) {
      const id = await inState(e, t, sub.id, status);
      expect(await updateInvoice(e, t.id, id, input(sub.id), actor), status).toEqual({ ok: false, code: "not_editable" });
    }
  });
});

describe("tenant isolation", () => {
  it("another tenant's invoice is invisible to get, update, list and every transition", async () => {
    const t = await tenant();
    const other = await tenant();
    const { env: e } = recordingJobs();
    const sub = await seedSub(t);
    const id = await draft(e, t, sub.id);
    const theirSub = await seedSub(other);

    expect(await getInvoice(e, other.id, id)).toBeNull();
    expect(await updateInvoice(e, other.id, id, input(theirSub.id), actor)).toEqual({ ok: false, code: "not_found" });
    for (const run of [approveInvoice, rejectInvoice, cancelInvoice, deleteInvoice, requestInvoiceStatement, markInvoicePaid]) {
      expect(await run(e, other.id, id, actor)).toEqual({ ok: false, code: "not_found" });
    }
    expect((await bulkInvoiceAction(e, other.id, "approve", [id], actor)).failed).toEqual([{ id, code: "not_found" }]);
    expect((await listInvoices(e, other.id, parseInvoiceListQuery(new URLSearchParams()))).total).toBe(0);
    expect(await raw(id)).toMatchObject({ status: "draft", deletedAt: null, transitionId: null });
    expect(await audits(other.id, "cis.invoice.approved")).toHaveLength(0);
  });
});

describe("invoice transitions", () => {
  const STATES: InvoiceStatus[] = ["draft", "portal_draft", "approved", "paid", "cancelled"];
  const EXPECTED: Record<InvoiceAction, Partial<Record<InvoiceStatus, InvoiceStatus | "deleted" | "flagged">>> = {
    approve: { draft: "approved", portal_draft: "approved" },
    reject: { portal_draft: "cancelled" },
    pay: { approved: "paid" },
    cancel: { draft: "cancelled", portal_draft: "cancelled", approved: "cancelled" },
    delete: { draft: "deleted", portal_draft: "deleted", cancelled: "deleted" },
    // A statement reports payments: an approved invoice is refused until paid (statement_unpaid).
    statement: { paid: "flagged" },
  };
  const RUN: Record<InvoiceAction, typeof approveInvoice> = {
    approve: approveInvoice,
    reject: rejectInvoice,
    pay: markInvoicePaid,
    cancel: cancelInvoice,
    delete: deleteInvoice,
    statement: requestInvoiceStatement,
  };

  for (const action of Object.keys(EXPECTED) as InvoiceAction[]) {
    it(`${action}: allowed exactly from ${Object.keys(EXPECTED[action]).join(", ")}, refused with its code otherwise`, async () => {
      const t = await tenant();
      const { env: e } = recordingJobs();
      const sub = await seedSub(t);
      for (const from of STATES) {
        const id = await inState(e, t, sub.id, from);
        const before = await raw(id);
        const res = await RUN[action](e, t.id, id, actor);
        const to = EXPECTED[action][from];
        const after = await raw(id);
        if (!to) {
          const code = action === "statement" && from === "approved" ? "statement_unpaid" : INVOICE_TRANSITIONS[action].refused;
          expect(res, `${action} from ${from}`).toEqual({ ok: false, code });
          expect(after, `${action} from ${from} leaves the row alone`).toEqual(before);
          continue;
        }
        expect(res.ok, `${action} from ${from}`).toBe(true);
        if (to === "deleted") expect(after.deletedAt).toBeTypeOf("number");
        else if (to === "flagged") expect(after).toMatchObject({ status: from, statementRequired: true, statementRequestedBy: actor.id });
        else expect(after.status).toBe(to);
        // The audit entry landed with the change.
        expect(await audits(t.id, INVOICE_TRANSITIONS[action].audit, id), `${action} audit`).toHaveLength(1);
      }
    });
  }

  it("approval records who and when, locks, and snapshots the verification at the current rate", async () => {
    const t = await tenant();
    const { env: e } = recordingJobs();
    const sub = await seedSub(t);
    const id = await draft(e, t, sub.id);
    await env.DB.prepare(
      "UPDATE cis_subcontractors SET verification_status = 'higher', verification_rate = 30, verification_reference = 'V9999999999H' WHERE id = ?",
    )
      .bind(sub.id)
      .run();
    const before = Date.now();
    expect((await approveInvoice(e, t.id, id, actor)).ok).toBe(true);
    const row = await raw(id);
    expect(row).toMatchObject({
      status: "approved",
      approvedBy: actor.id,
      verificationStatus: "higher",
      verificationRate: 30,
      verificationReference: "V9999999999H",
      cisRate: 30,
      cisDeductionP: 21_000,
      netPaymentP: 120_000 - 21_000,
    });
    expect(row.approvedAt).toBeGreaterThanOrEqual(before);
    expect(row.lockedAt).toBe(row.approvedAt);
    // A later change of the subcontractor's verification leaves the approved invoice as it was.
    await env.DB.prepare("UPDATE cis_subcontractors SET verification_status = 'gross', verification_rate = 0 WHERE id = ?").bind(sub.id).run();
    expect(await raw(id)).toEqual(row);
    const [entry] = await audits(t.id, "cis.invoice.approved", id);
    expect(entry.payload).toMatchObject({ cisDeductionP: 21_000, rate: 30, verificationStatus: "higher" });
  });

  it("mark paid: payment date defaults to today in London and sets the tax month; the 6th starts a new tax month", async () => {
    const t = await tenant();
    const { env: e } = recordingJobs();
    const sub = await seedSub(t);
    const a = await inState(e, t, sub.id, "approved");
    expect(await markInvoicePaid(e, t.id, a, actor)).toEqual({ ok: true, id: a });
    expect(await raw(a)).toMatchObject({ status: "paid", paidBy: actor.id, paymentDate: londonToday(), taxMonth: currentTaxMonth().label });

    const b = await inState(e, t, sub.id, "approved");
    expect((await markInvoicePaid(e, t.id, b, actor, { paymentDate: "2026-01-05" })).ok).toBe(true);
    expect(await raw(b)).toMatchObject({ paymentDate: "2026-01-05", taxMonth: "2025-12" });
    const c = await inState(e, t, sub.id, "approved");
    expect((await markInvoicePaid(e, t.id, c, actor, { paymentDate: "2026-01-06" })).ok).toBe(true);
    expect(await raw(c)).toMatchObject({ taxMonth: "2026-01" });

    // Just after midnight in London on the 6th (still the 5th in UTC... and 23:30 UTC on the 5th in summer).
    const d = await inState(e, t, sub.id, "approved");
    expect((await markInvoicePaid(e, t.id, d, actor, { now: new Date("2026-07-05T23:30:00Z") })).ok).toBe(true);
    expect(await raw(d)).toMatchObject({ paymentDate: "2026-07-06", taxMonth: "2026-07" });

    const bad = await inState(e, t, sub.id, "approved");
    expect(await markInvoicePaid(e, t.id, bad, actor, { paymentDate: "2026-02-30" })).toEqual({ ok: false, code: "invalid_payment_date" });
    expect((await raw(bad)).status).toBe("approved");
    const [entry] = await audits(t.id, "cis.invoice.paid", b);
    expect(entry.payload).toEqual({ paymentDate: "2026-01-05", taxMonth: "2025-12" });
  });

  it("two simultaneous approvals: exactly one succeeds, the other is refused and records nothing", async () => {
    const t = await tenant();
    const { env: e, sent } = recordingJobs();
    const sub = await seedSub(t);
    const id = await draft(e, t, sub.id);
    const results = await Promise.all([approveInvoice(e, t.id, id, actor), approveInvoice(e, t.id, id, { ...actor, id: "user-second" })]);
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    const refused = results.find((r) => !r.ok);
    expect(refused).toEqual({ ok: false, code: "not_approvable" });
    if (refused && !refused.ok) expect(INVOICE_ERROR_MESSAGES[refused.code]).toBe("Only draft or portal-submitted invoices can be approved");
    expect(await audits(t.id, "cis.invoice.approved", id)).toHaveLength(1);
    expect(await jobRows(t.id)).toHaveLength(0);
    expect(sent).toHaveLength(0);
  });

  it("a concurrent approve and delete: one wins, the invoice ends in that state with one audit entry", async () => {
    const t = await tenant();
    const { env: e } = recordingJobs();
    const sub = await seedSub(t);
    const id = await draft(e, t, sub.id);
    const [ap, ca] = await Promise.all([approveInvoice(e, t.id, id, actor), deleteInvoice(e, t.id, id, actor)]);
    expect([ap.ok, ca.ok].filter(Boolean)).toHaveLength(1);
    const row = await raw(id);
    if (ap.ok) expect(row).toMatchObject({ status: "approved", deletedAt: null });
    else expect(row.deletedAt).toBeTypeOf("number");
    const total = (await audits(t.id, "cis.invoice.approved", id)).length + (await audits(t.id, "cis.invoice.deleted", id)).length;
    expect(total).toBe(1);
  });
});

describe("statements.generate job", () => {
  it("is not queued by an approval (which flags the need itself); one queued by an earlier approval still completes, idempotently", async () => {
    const t = await tenant();
    const { env: e, sent } = recordingJobs();
    const sub = await seedSub(t);
    const id = await draft(e, t, sub.id);
    const res = await approveInvoice(e, t.id, id, actor);
    expect(res).toEqual({ ok: true, id });
    expect(sent).toEqual([]);
    expect(await jobRows(t.id)).toEqual([]);
    // The approval's own batch already says the invoice needs a statement; nothing waits for a job.
    const approved = await raw(id);
    expect(approved).toMatchObject({ statementRequired: true, statementRequestedBy: actor.id, statementRequestedAt: approved.approvedAt });

    // A message an approval queued before this change: the same key never makes a second job.
    const { enqueue } = await import("~/features/platform/jobs/enqueue.server");
    const queue = () =>
      enqueue(e, { tenantId: t.id, type: "statements.generate", input: { invoiceId: id }, performedBy: actor.id, idempotencyKey: statementJobKey(id) });
    const first = await queue();
    expect(first.created).toBe(true);
    expect(await queue()).toEqual({ jobId: first.jobId, created: false });
    expect(sent).toHaveLength(1);

    await deliverMessages(JOBS_QUEUE, [{ body: sent[0] }]);
    const flagged = await raw(id);
    expect(flagged).toMatchObject({ statementRequired: true, statementRequestedBy: actor.id });
    expect(flagged.statementRequestedAt).toBeTypeOf("number");
    expect((await jobRows(t.id))[0]).toMatchObject({ status: "done", result: { invoiceId: id, flagged: true } });

    // Redelivered after the job is done: acknowledged, nothing changes.
    const { result } = await deliverMessages(JOBS_QUEUE, [{ id: "redelivered", body: sent[0] }]);
    expect(result.explicitAcks).toEqual(["redelivered"]);
    expect(await raw(id)).toEqual(flagged);

    // The effect itself, run again (a crash between the work and 'done'), keeps the first request time.
    await statementsGenerateJob.run(
      { invoiceId: id },
      { env: e, jobId: first.jobId, tenantId: t.id, performedBy: "someone-else", progress: async () => {}, checkpoint: null },
    );
    expect(await raw(id)).toEqual(flagged);
    expect(await jobRows(t.id)).toHaveLength(1);
  });

  it("is not queued when the deduction is zero, and leaves another tenant's invoice alone", async () => {
    const t = await tenant();
    const other = await tenant();
    const { env: e, sent } = recordingJobs();
    const gross = await seedSub(t, { status: "gross" });
    const id = await draft(e, t, gross.id);
    const res = await approveInvoice(e, t.id, id, actor);
    expect(res).toEqual({ ok: true, id });
    expect(sent).toHaveLength(0);
    expect(await jobRows(t.id)).toHaveLength(0);

    const out = await statementsGenerateJob.run(
      { invoiceId: id },
      { env: e, jobId: "x", tenantId: other.id, performedBy: null, progress: async () => {}, checkpoint: null },
    );
    expect(out).toEqual({ invoiceId: id, flagged: false });
    expect((await raw(id)).statementRequired).toBe(false);
  });
});

describe("bulk actions", () => {
  it("bulk approve with mixed outcomes: per-item reasons and one bulk audit entry with the succeeded ids", async () => {
    const t = await tenant();
    const other = await tenant();
    const { env: e, sent } = recordingJobs();
    const sub = await seedSub(t);
    const d1 = await draft(e, t, sub.id);
    const d2 = await inState(e, t, sub.id, "portal_draft");
    const paid = await inState(e, t, sub.id, "paid");
    const deleted = await draft(e, t, sub.id);
    await deleteInvoice(e, t.id, deleted, actor);
    const foreign = await draft(e, other, (await seedSub(other)).id);
    const sentBefore = sent.length;

    const res = await bulkInvoiceAction(e, t.id, "approve", [d1, d2, paid, deleted, foreign, "no-such-id", d1], actor);
    expect(res.succeeded.sort()).toEqual([d1, d2].sort());
    expect(res.failed).toEqual(
      expect.arrayContaining([
        { id: paid, code: "not_approvable" },
        { id: deleted, code: "not_found" },
        { id: foreign, code: "not_found" },
        { id: "no-such-id", code: "not_found" },
      ]),
    );
    expect(res.failed).toHaveLength(4);
    // The approvals flag their statements themselves: no job is sent.
    expect(sent.length - sentBefore).toBe(0);
    expect(await raw(d1)).toMatchObject({ statementRequired: true });

    const [bulk] = await audits(t.id, "cis.invoice.bulk.approve");
    expect(bulk.actorId).toBe(actor.id);
    expect((bulk.payload as { succeeded: string[] }).succeeded.sort()).toEqual([d1, d2].sort());
    expect(bulk.payload).toMatchObject({ count: 2 });
    expect(await audits(t.id, "cis.invoice.approved", d1)).toHaveLength(1);
    expect(await raw(foreign)).toMatchObject({ status: "draft" });
  });

  it("bulk mark paid, soft delete and statement request each report per item; nothing succeeded means no bulk entry", async () => {
    const t = await tenant();
    const { env: e } = recordingJobs();
    const sub = await seedSub(t);
    const approved = await inState(e, t, sub.id, "approved");
    const d = await draft(e, t, sub.id);
    const pay = await bulkInvoiceAction(e, t.id, "pay", [approved, d], actor, { paymentDate: "2026-03-10" });
    expect(pay).toMatchObject({ succeeded: [approved], failed: [{ id: d, code: "not_payable" }] });
    expect(await raw(approved)).toMatchObject({ status: "paid", paymentDate: "2026-03-10", taxMonth: "2026-03" });
    expect((await audits(t.id, "cis.invoice.bulk.pay"))[0].payload).toEqual({ succeeded: [approved], count: 1 });

    const stmt = await bulkInvoiceAction(e, t.id, "statement", [approved, d], actor);
    expect(stmt).toMatchObject({ succeeded: [approved], failed: [{ id: d, code: "not_statement_eligible" }] });
    expect((await raw(approved)).statementRequired).toBe(true);

    const del = await bulkInvoiceAction(e, t.id, "delete", [approved, d], actor);
    expect(del).toMatchObject({ succeeded: [d], failed: [{ id: approved, code: "not_deletable" }] });
    expect((await raw(d)).deletedAt).toBeTypeOf("number");

    const none = await bulkInvoiceAction(e, t.id, "approve", [approved], actor);
    expect(none).toMatchObject({ succeeded: [], failed: [{ id: approved, code: "not_approvable" }] });
    expect(await audits(t.id, "cis.invoice.bulk.approve")).toHaveLength(0);
  });

  it("more than the limit: the extra ids fail as too_many", async () => {
    const t = await tenant();
    const { env: e } = recordingJobs();
    const ids = Array.from({ length: INVOICE_BULK_LIMIT + 1 }, (_, i) => `missing-${i}`);
    const res = await bulkInvoiceAction(e, t.id, "delete", ids, actor);
    expect(res.failed.filter((f) => f.code === "too_many")).toEqual([{ id: `missing-${INVOICE_BULK_LIMIT}`, code: "too_many" }]);
    expect(res.failed.filter((f) => f.code === "not_found")).toHaveLength(INVOICE_BULK_LIMIT);
  });
});

describe("invoice list", () => {
  it("search, status and period filters, pagination and the five stat cards", async () => {
    const t = await tenant();
    const { env: e } = recordingJobs();
    const alpha = await seedSub(t, { name: "Alpha Roofing" });
    const beta = await seedSub(t, { name: "Beta Plumbing" });
    const current = currentTaxMonth();
    const prev = previousTaxMonth(current.label);
    const prevDate = londonToday(new Date(prev.start.getTime() + 3_600_000));
    const old = "2020-05-10";

    for (let i = 0; i < 27; i++) await draft(e, t, alpha.id, { invoiceNumber: `A-${String(i).padStart(3, "0")}` });
    const betaPrev = await draft(e, t, beta.id, { invoiceNumber: "ZED-PREV", invoiceDate: prevDate });
    const betaOld = await draft(e, t, beta.id, { invoiceNumber: "ZED-OLD", invoiceDate: old });
    const approved = await inState(e, t, beta.id, "approved");
    const paid = await inState(e, t, beta.id, "paid");
    const gone = await draft(e, t, beta.id, { invoiceNumber: "GONE" });
    await deleteInvoice(e, t.id, gone, actor);

    const q = (params: Record<string, string>) => listInvoices(e, t.id, parseInvoiceListQuery(new URLSearchParams(params)));

    const all = await q({});
    expect(all.total).toBe(31);
    expect(all.rows).toHaveLength(INVOICE_PAGE_SIZE);
    expect(all.pageCount).toBe(2);
    const page2 = await q({ page: "2" });
    expect(page2.rows).toHaveLength(6);
    // Newest invoice date first: the 2020 invoice is last.
    expect(page2.rows.at(-1)?.id).toBe(betaOld);
    expect(new Set([...all.rows, ...page2.rows].map((r) => r.id)).size).toBe(31);

    expect((await q({ q: "zed-" })).rows.map((r) => r.id).sort()).toEqual([betaPrev, betaOld].sort());
    expect((await q({ q: "beta plumb" })).total).toBe(4);
    expect((await q({ q: "%" })).total).toBe(0);
    expect((await q({ status: "approved" })).rows.map((r) => r.id)).toEqual([approved]);
    expect((await q({ status: "paid" })).rows.map((r) => r.id)).toEqual([paid]);
    expect((await q({ status: "nonsense" })).total).toBe(31);

    expect((await q({ period: "previous" })).rows.map((r) => r.id)).toEqual([betaPrev]);
    expect((await q({ period: "current" })).total).toBe(29);
    expect((await q({ period: "quarter" })).total).toBe(30);
    expect((await q({ period: "year" })).total).toBeGreaterThanOrEqual(29);
    expect((await q({ period: "year" })).rows.map((r) => r.id)).not.toContain(betaOld);
    expect((await q({ period: "all", q: "ZED-OLD" })).total).toBe(1);

    // Paid and approved each carry 14,000p deduction in the current tax month; the paid one, which
    // deducted, is pending its statement (the approved one waits for its payment).
    expect(all.stats).toMatchObject({ total: 31, draft: 29, approved: 1, thisMonthCisP: 28_000, pendingStatements: 1 });
    await env.DB.prepare("UPDATE cis_invoices SET statement_issued_at = ? WHERE id = ?").bind(Date.now(), paid).run();
    expect((await q({})).stats.pendingStatements).toBe(0);
  });

  it("flags the 60% materials warning on list rows", async () => {
    const t = await tenant();
    const { env: e } = recordingJobs();
    const sub = await seedSub(t);
    await draft(e, t, sub.id, { invoiceNumber: "M-59", grossP: 10_000, materialsP: 5_900 });
    await draft(e, t, sub.id, { invoiceNumber: "M-60", grossP: 10_000, materialsP: 6_000 });
    const { rows } = await listInvoices(e, t.id, parseInvoiceListQuery(new URLSearchParams()));
    const byNumber = Object.fromEntries(rows.map((r) => [r.invoiceNumber, r.materialsWarning]));
    expect(byNumber).toEqual({ "M-59": false, "M-60": true });
  });
});
