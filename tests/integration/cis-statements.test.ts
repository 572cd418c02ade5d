import { env } from "cloudflare:workers";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "~/db/client.server";
import { auditEvents, cisInvoices, cisStatements } from "~/db/schema";
import { invoiceSchema } from "~/features/cis/domain";
import { approveInvoice, cancelInvoice, deleteInvoice, markInvoicePaid, requestInvoiceStatement } from "~/features/cis/invoices/transitions.server";
import { createInvoice } from "~/features/cis/invoices/form.server";
import { generateStatement, getStatement, listStatements, pendingStatementGroups, STATEMENT_ERROR_MESSAGES } from "~/features/cis/statements/statements.server";
import type { TestTenant } from "../factories";
import { cisTenant, seedSub } from "../factories/cis";
import { quietEnv } from "../factories/queues";

const actor = { id: "user-stmt", email: "stmt@example.test", name: "Statements" };
const MONTH = "2026-01"; // 6 January to 5 February 2026
const IN_MONTH = "2026-01-10";
const OTHER_MONTH_DATE = "2026-02-10";

let numberSeq = 0;
type Made = { id: string; grossP: number; materialsP: number };

/**
 * A real invoice through the data layer: draft, then approved/paid (the default; paid on its
 * invoice date unless told)/cancelled/deleted. Approval marks it as needing a statement (it
 * deducts); `statement: false` clears the flag, as for an invoice that needs none.
 */
async function invoice(
  e: Env,
  t: TestTenant,
  subId: string,
  opts: {
    state?: "draft" | "approved" | "paid" | "cancelled" | "deleted";
    date?: string;
    paymentDate?: string;
    grossP?: number;
    materialsP?: number;
    statement?: boolean;
  } = {},
): Promise<Made> {
  const grossP = opts.grossP ?? 100_000;
  const materialsP = opts.materialsP ?? 30_000;
  numberSeq += 1;
  const value = invoiceSchema.parse({
    subcontractorId: subId,
    invoiceNumber: `ST-${numberSeq}`,
    invoiceDate: opts.date ?? IN_MONTH,
    grossP,
    materialsP,
    vatRate: 20,
    reverseCharge: false,
  });
  const res = await createInvoice(e, t.id, value, actor);
  if (!res.ok) throw new Error(res.code);
  const state = opts.state ?? "paid";
  if (state !== "draft") {
    if (state === "cancelled" || state === "deleted") {
      expect((await cancelInvoice(e, t.id, res.id, actor)).ok).toBe(true);
      if (state === "deleted") expect((await deleteInvoice(e, t.id, res.id, actor)).ok).toBe(true);
    } else {
      expect((await approveInvoice(e, t.id, res.id, actor)).ok).toBe(true);
      if (state === "paid") {
        expect((await markInvoicePaid(e, t.id, res.id, actor, { paymentDate: opts.paymentDate ?? opts.date ?? IN_MONTH })).ok).toBe(true);
        expect((await requestInvoiceStatement(e, t.id, res.id, actor)).ok).toBe(true);
      }
      if (opts.statement === false) await env.DB.prepare("UPDATE cis_invoices SET statement_required = 0 WHERE id = ?").bind(res.id).run();
    }
  }
  return { id: res.id, grossP, materialsP };
}

async function invoiceRow(id: string) {
  const [row] = await getDb(env).select().from(cisInvoices).where(eq(cisInvoices.id, id));
  return row;
}

async function generatedAudits(tenantId: string) {
  return getDb(env)
    .select()
    .from(auditEvents)
    .where(and(eq(auditEvents.tenantId, tenantId), eq(auditEvents.action, "cis.statement.generated")));
}

describe("statement generation", () => {
  it("takes exactly the sub's paid, statement-required, unissued invoices of the month of their payment, with totals summed from their stored pence", async () => {
    const e = quietEnv();
    const t = await cisTenant();
    const other = await cisTenant();
    const sub = await seedSub(t);
    const otherSub = await seedSub(t);
    const foreignSub = await seedSub(other);

    const approved = await invoice(e, t, sub.id, { grossP: 123_456, materialsP: 23_456 });
    const paid = await invoice(e, t, sub.id, { state: "paid", grossP: 50_001, materialsP: 1 });
    // Approved but not paid: no payment has been made, so it is on no statement yet.
    const unpaid = await invoice(e, t, sub.id, { state: "approved" });
    // Invoiced in December (before the 6th of January) but paid in January: its tax month is January.
    const paidIntoMonth = await invoice(e, t, sub.id, { state: "paid", date: "2026-01-05", paymentDate: "2026-01-20", grossP: 10_000, materialsP: 0 });
    const excluded = [
      unpaid,
      await invoice(e, t, sub.id, { date: OTHER_MONTH_DATE }),
      await invoice(e, t, otherSub.id),
      await invoice(e, t, sub.id, { state: "draft" }),
      await invoice(e, t, sub.id, { state: "cancelled" }),
      await invoice(e, t, sub.id, { state: "deleted" }),
      await invoice(e, t, sub.id, { statement: false }),
      // Paid in February: its tax month moved out of January.
      await invoice(e, t, sub.id, { state: "paid", paymentDate: OTHER_MONTH_DATE }),
    ];
    const issued = await invoice(e, t, sub.id);
    await env.DB.prepare("UPDATE cis_invoices SET statement_issued_at = ?, statement_issued_method = 'print' WHERE id = ?").bind(Date.now(), issued.id).run();
    excluded.push(issued);
    const foreign = await invoice(e, other, foreignSub.id);

    const included = [approved, paid, paidIntoMonth];
    const rows = await Promise.all(included.map((i) => invoiceRow(i.id)));
    const sum = (f: (r: (typeof rows)[number]) => number) => rows.reduce((acc, r) => acc + f(r), 0);

    const groups = await pendingStatementGroups(e, t.id, MONTH);
    const mine = groups.find((g) => g.subcontractorId === sub.id);
    expect(mine?.invoiceIds.sort()).toEqual(included.map((i) => i.id).sort());
    expect(groups.map((g) => g.subcontractorId).sort()).toEqual([sub.id, otherSub.id].sort());

    const res = await generateStatement(e, t.id, sub.id, MONTH, actor);
    expect(res.ok).toBe(true);
    if (!res.ok) return;
    const st = await getStatement(e, t.id, res.id);
    expect(st).not.toBeNull();
    expect(st!.invoiceIds.sort()).toEqual(included.map((i) => i.id).sort());
    expect(st!.invoiceCount).toBe(3);
    expect(st!.grossP).toBe(123_456 + 50_001 + 10_000);
    expect(st!.grossP).toBe(sum((r) => r.grossP));
    expect(st!.materialsP).toBe(sum((r) => r.materialsP));
    expect(st!.labourP).toBe(sum((r) => r.labourP));
    expect(st!.cisDeductionP).toBe(sum((r) => r.cisDeductionP));
    expect(st!.cisDeductionP).toBeGreaterThan(0);
    expect(st).toMatchObject({
      subcontractorId: sub.id,
      subcontractorName: sub.name,
      taxMonth: MONTH,
      status: "generated",
      generatedBy: actor.id,
      issuedAt: null,
      pdfKey: null,
    });
    expect(st!.utrMasked).toMatch(/\d{3}$/);
    expect(st!.utrMasked).not.toContain(sub.utr);

    for (const i of included) expect((await invoiceRow(i.id)).statementId).toBe(res.id);
    for (const i of [...excluded, foreign]) expect((await invoiceRow(i.id)).statementId).toBeNull();

    const audits = await generatedAudits(t.id);
    expect(audits).toHaveLength(1);
    expect(audits[0]).toMatchObject({ actorId: actor.id, targetType: "statement", targetId: res.id });
    expect(audits[0].payload).toMatchObject({
      subcontractorId: sub.id,
      taxMonth: MONTH,
      invoiceCount: 3,
      grossP: st!.grossP,
      cisDeductionP: st!.cisDeductionP,
    });

    // The sub is no longer pending; the other sub still is.
    expect((await pendingStatementGroups(e, t.id, MONTH)).map((g) => g.subcontractorId)).toEqual([otherSub.id]);
    expect((await listStatements(e, t.id, MONTH)).map((s) => s.id)).toEqual([res.id]);
    expect(await listStatements(e, t.id, "2026-02")).toEqual([]);
  });

  it("refuses a second statement for the same sub and month with already_exists, even when new invoices are pending, and writes no audit", async () => {
    const e = quietEnv();
    const t = await cisTenant();
    const sub = await seedSub(t);
    await invoice(e, t, sub.id);
    const first = await generateStatement(e, t.id, sub.id, MONTH, actor);
    expect(first.ok).toBe(true);

    // Nothing pending any more: still the duplicate, not no_pending.
    expect(await generateStatement(e, t.id, sub.id, MONTH, actor)).toEqual({ ok: false, code: "already_exists" });

    // A later invoice of the same month is pending, so the insert runs and the unique index refuses it whole.
    const late = await invoice(e, t, sub.id);
    expect(await generateStatement(e, t.id, sub.id, MONTH, actor)).toEqual({ ok: false, code: "already_exists" });
    expect((await invoiceRow(late.id)).statementId).toBeNull();
    expect(await generatedAudits(t.id)).toHaveLength(1);
    expect(await listStatements(e, t.id, MONTH)).toHaveLength(1);
    expect(STATEMENT_ERROR_MESSAGES.already_exists.title).toBe("Statement Already Exists");
  });

  it("two simultaneous generations for the same sub and month: exactly one wins, the other is already_exists, one audit entry", async () => {
    const e = quietEnv();
    const t = await cisTenant();
    const sub = await seedSub(t);
    const a = await invoice(e, t, sub.id);
    const b = await invoice(e, t, sub.id, { state: "paid" });

    const results = await Promise.all([generateStatement(e, t.id, sub.id, MONTH, actor), generateStatement(e, t.id, sub.id, MONTH, actor)]);
    const winners = results.filter((r) => r.ok);
    expect(winners).toHaveLength(1);
    expect(results.filter((r) => !r.ok)).toEqual([{ ok: false, code: "already_exists" }]);

    const winner = winners[0] as { ok: true; id: string };
    const rows = await getDb(env).select().from(cisStatements).where(eq(cisStatements.tenantId, t.id));
    expect(rows.map((r) => r.id)).toEqual([winner.id]);
    expect((await invoiceRow(a.id)).statementId).toBe(winner.id);
    expect((await invoiceRow(b.id)).statementId).toBe(winner.id);
    const audits = await generatedAudits(t.id);
    expect(audits).toHaveLength(1);
    expect(audits[0].targetId).toBe(winner.id);
  });

  it("answers no_pending when the sub has nothing left to put on a statement, and writes nothing", async () => {
    const e = quietEnv();
    const t = await cisTenant();
    const sub = await seedSub(t);
    expect(await generateStatement(e, t.id, sub.id, MONTH, actor)).toEqual({ ok: false, code: "no_pending" });
    await invoice(e, t, sub.id, { state: "draft" });
    await invoice(e, t, sub.id, { statement: false });
    expect(await generateStatement(e, t.id, sub.id, MONTH, actor)).toEqual({ ok: false, code: "no_pending" });
    expect(await generateStatement(e, t.id, sub.id, "not-a-month", actor)).toEqual({ ok: false, code: "no_pending" });
    expect(await listStatements(e, t.id, MONTH)).toEqual([]);
    expect(await generatedAudits(t.id)).toHaveLength(0);
    expect(await pendingStatementGroups(e, t.id, MONTH)).toEqual([]);
    expect(STATEMENT_ERROR_MESSAGES.no_pending).toEqual({
      title: "No Pending Statements",
      message: "All subcontractors already have statements for this tax month.",
    });
  });
});

describe("invoices on a statement", () => {
  it("an approved invoice on a statement cannot be cancelled (on_statement, nothing written); one not on it still can", async () => {
    const e = quietEnv();
    const t = await cisTenant();
    const sub = await seedSub(t);
    await invoice(e, t, sub.id);
    const res = await generateStatement(e, t.id, sub.id, MONTH, actor);
    expect(res.ok).toBe(true);
    if (!res.ok) return;
    // Statements generated before only paid invoices went on one may hold an approved invoice.
    const onIt = await invoice(e, t, sub.id, { state: "approved" });
    await env.DB.prepare("UPDATE cis_invoices SET statement_id = ? WHERE id = ?").bind(res.id, onIt.id).run();
    const later = await invoice(e, t, sub.id, { state: "approved" });

    expect(await cancelInvoice(e, t.id, onIt.id, actor)).toEqual({ ok: false, code: "on_statement" });
    const row = await invoiceRow(onIt.id);
    expect(row.status).toBe("approved");
    expect(row.cancelledAt).toBeNull();
    const cancelAudits = await getDb(env)
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.tenantId, t.id), eq(auditEvents.action, "cis.invoice.cancelled")));
    expect(cancelAudits).toHaveLength(0);

    expect((await cancelInvoice(e, t.id, later.id, actor)).ok).toBe(true);
  });
});

describe("statement tenant isolation", () => {
  it("another tenant's statement is null, is never listed, and its subcontractor cannot be used to generate", async () => {
    const e = quietEnv();
    const owner = await cisTenant();
    const attacker = await cisTenant();
    const sub = await seedSub(owner);
    const inv = await invoice(e, owner, sub.id);

    // The attacker names the owner's subcontractor: not_found, and the owner's invoice stays unlinked.
    expect(await generateStatement(e, attacker.id, sub.id, MONTH, actor)).toEqual({ ok: false, code: "not_found" });
    expect((await invoiceRow(inv.id)).statementId).toBeNull();
    expect(await generatedAudits(attacker.id)).toHaveLength(0);
    expect(await pendingStatementGroups(e, attacker.id, MONTH)).toEqual([]);

    const res = await generateStatement(e, owner.id, sub.id, MONTH, actor);
    expect(res.ok).toBe(true);
    if (!res.ok) return;
    expect(await getStatement(e, owner.id, res.id)).not.toBeNull();
    expect(await getStatement(e, attacker.id, res.id)).toBeNull();
    expect(await listStatements(e, attacker.id, MONTH)).toEqual([]);

    // The attacker's own statement for the same month is independent of the owner's unique slot.
    const ownSub = await seedSub(attacker);
    await invoice(e, attacker, ownSub.id);
    expect((await generateStatement(e, attacker.id, ownSub.id, MONTH, actor)).ok).toBe(true);
  });

  it("an unknown or deleted subcontractor is not_found", async () => {
    const e = quietEnv();
    const t = await cisTenant();
    expect(await generateStatement(e, t.id, "no-such-sub", MONTH, actor)).toEqual({ ok: false, code: "not_found" });
    expect(await getStatement(e, t.id, "no-such-statement")).toBeNull();
  });
});
