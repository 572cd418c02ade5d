import { env } from "cloudflare:workers";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "~/db/client.server";
import { cisReturnLines, cisReturns } from "~/db/schema";
import { compileMonthlyReturn, amendReturn, unlockReturn } from "~/features/cis/returns/returns.server";
import { returnLockStub } from "../../workers/durable-objects/return-lock";
import { cisTenant, seedSub } from "../factories/cis";
import { seedInvoice } from "../factories/returns";
import { audits } from "../factories/audits";

const actor = { id: "user-ret", email: "ret@example.test", name: "Returns" };
const MONTH = "2026-01"; // 6 January to 5 February 2026

async function returnRow(tenantId: string, id: string) {
  const [row] = await getDb(env)
    .select()
    .from(cisReturns)
    .where(and(eq(cisReturns.tenantId, tenantId), eq(cisReturns.id, id)));
  return row ?? null;
}

async function linesOf(tenantId: string, id: string) {
  return getDb(env)
    .select()
    .from(cisReturnLines)
    .where(and(eq(cisReturnLines.tenantId, tenantId), eq(cisReturnLines.returnId, id)))
    .orderBy(cisReturnLines.position);
}

/** Submission is the HMRC gateway's: the tests stand in for it by locking the row. */
async function markSubmitted(tenantId: string, id: string) {
  await env.DB.prepare(
    "UPDATE cis_returns SET status = 'submitted', locked = 1, locked_at = ?, submitted_at = ?, submitted_by = 'hmrc-test', submission_ref = 'CORR-1' WHERE tenant_id = ? AND id = ?",
  )
    .bind(Date.now(), Date.now(), tenantId, id)
    .run();
}

describe("compiling a monthly return", () => {
  it("takes the month's paid, live invoices with a subcontractor, one line per subcontractor, totals in pence, audit in pounds", async () => {
    const t = await cisTenant();
    const other = await cisTenant();
    const ann = await seedSub(t, { name: "Ann Roofing" });
    const zed = await seedSub(t, { name: "Zed Builders" });
    const foreign = await seedSub(other, { name: "Foreign Ltd" });

    const a1 = await seedInvoice(t, { subcontractorId: ann.id, subcontractorName: ann.name, grossP: 100_000, materialsP: 20_000, paymentDate: "2026-01-06" });
    const a2 = await seedInvoice(t, { subcontractorId: ann.id, subcontractorName: ann.name, grossP: 50_050, materialsP: 50, paymentDate: "2026-02-05" });
    // Labelled with the month though paid on a date outside it (an edited payment date): still in.
    const a3 = await seedInvoice(t, {
      subcontractorId: ann.id,
      subcontractorName: ann.name,
      grossP: 1_000,
      materialsP: 0,
      paymentDate: "2026-03-01",
      taxMonth: MONTH,
    });
    const z1 = await seedInvoice(t, {
      subcontractorId: zed.id,
      subcontractorName: zed.name,
      grossP: 30_000,
      materialsP: 0,
      rate: 30,
      paymentDate: "2026-01-20",
    });
    // Excluded: other months, not paid, deleted, no subcontractor, another tenant.
    await seedInvoice(t, { subcontractorId: ann.id, paymentDate: "2026-01-05" });
    await seedInvoice(t, { subcontractorId: ann.id, paymentDate: "2026-02-06" });
    await seedInvoice(t, { subcontractorId: ann.id, status: "approved", paymentDate: "2026-01-10" });
    await seedInvoice(t, { subcontractorId: ann.id, status: "cancelled", paymentDate: "2026-01-10" });
    await seedInvoice(t, { subcontractorId: ann.id, paymentDate: "2026-01-10", deleted: true });
    await seedInvoice(t, { subcontractorId: "", paymentDate: "2026-01-10" });
    await seedInvoice(other, { subcontractorId: foreign.id, paymentDate: "2026-01-10" });

    const res = await compileMonthlyReturn(env, t.id, MONTH, actor);
    expect(res).toEqual({ ok: true, id: MONTH, status: "ready", issues: [], lines: 2 });

    const row = await returnRow(t.id, MONTH);
    const annInvoices = [a1, a2, a3];
    const sum = (xs: { grossP: number }[]) => xs.reduce((s, x) => s + x.grossP, 0);
    expect(row).toMatchObject({
      taxMonth: MONTH,
      status: "ready",
      locked: false,
      amendmentOf: null,
      subcontractorCount: 2,
      invoiceCount: 4,
      grossP: sum(annInvoices) + z1.grossP,
      materialsP: 20_050,
      cisDeductedP: annInvoices.reduce((s, i) => s + i.cisDeductionP, 0) + z1.cisDeductionP,
      compiledBy: actor.id,
      issues: [],
      filingDeadline: Date.parse("2026-02-19T23:59:59Z"),
      paymentDeadline: Date.parse("2026-02-22T23:59:59Z"),
    });
    const lines = await linesOf(t.id, MONTH);
    expect(lines.map((l) => [l.position, l.name, l.grossP, l.invoiceCount, l.cisRate, l.statementsIssued])).toEqual([
      [0, "Ann Roofing", sum(annInvoices), 3, 20, true],
      [1, "Zed Builders", 30_000, 1, 30, true],
    ]);
    expect(lines[0]!.verificationRef).toBe("V1234567890");

    const [audit] = await audits(t.id, "cis.return.compiled");
    expect(audit).toMatchObject({ actorId: actor.id, targetType: "return", targetId: MONTH });
    expect(audit!.payload).toMatchObject({
      taxMonth: MONTH,
      status: "ready",
      gross: row!.grossP / 100,
      cis: row!.cisDeductedP / 100,
      subcontractors: 2,
      invoices: 4,
    });
    // Nothing of the other tenant.
    expect(await returnRow(other.id, MONTH)).toBeNull();
  });

  it("a line's statementsIssued is false while any of its invoices needs a statement not yet issued, even with an issued statement for the month; the return stays draft with the issue", async () => {
    const t = await cisTenant();
    const sub = await seedSub(t, { name: "Stan Statements" });
    await seedInvoice(t, {
      subcontractorId: sub.id,
      subcontractorName: sub.name,
      statementRequired: true,
      statementIssuedAt: Date.parse("2026-01-25T10:00:00Z"),
    });
    const pending = await seedInvoice(t, { subcontractorId: sub.id, subcontractorName: sub.name, statementRequired: true, statementIssuedAt: null });
    // An issued statement record for the sub and month does not cover the pending invoice.
    const now = Date.now();
    await env.DB.prepare(
      "INSERT INTO cis_statements (tenant_id, id, subcontractor_id, subcontractor_name, tax_month, invoice_ids, invoice_count, gross_p, materials_p, labour_p, cis_deduction_p, status, generated_at, issued_at, issued_method, created_at, updated_at) VALUES (?, ?, ?, ?, ?, '[]', 0, 0, 0, 0, 0, 'issued', ?, ?, 'print', ?, ?)",
    )
      .bind(t.id, `st-${now}`, sub.id, sub.name, MONTH, now, Date.parse("2026-01-30T10:00:00Z"), now, now)
      .run();

    const res = await compileMonthlyReturn(env, t.id, MONTH, actor);
    expect(res).toMatchObject({ ok: true, status: "draft", issues: ["Line 1: Statement not issued for Stan Statements"] });
    const [line] = await linesOf(t.id, MONTH);
    expect(line!.statementsIssued).toBe(false);
    expect(line!.lastStatementDate).toBe(Date.parse("2026-01-30T10:00:00Z"));
    expect((await returnRow(t.id, MONTH))!.issues).toEqual(["Line 1: Statement not issued for Stan Statements"]);

    // Issue the pending invoice's statement: the recompiled line counts as issued and the return is ready.
    await env.DB.prepare("UPDATE cis_invoices SET statement_issued_at = ? WHERE id = ?").bind(Date.now(), pending.id).run();
    expect(await compileMonthlyReturn(env, t.id, MONTH, actor)).toMatchObject({ ok: true, status: "ready", issues: [] });
    expect((await linesOf(t.id, MONTH))[0]!.statementsIssued).toBe(true);
  });

  it("recompiling replaces the previous draft's lines", async () => {
    const t = await cisTenant();
    const a = await seedSub(t, { name: "Alpha" });
    const b = await seedSub(t, { name: "Bravo" });
    const inv = await seedInvoice(t, { subcontractorId: a.id, subcontractorName: a.name });
    await seedInvoice(t, { subcontractorId: b.id, subcontractorName: b.name });
    await compileMonthlyReturn(env, t.id, MONTH, actor);
    expect((await linesOf(t.id, MONTH)).map((l) => l.name)).toEqual(["Alpha", "Bravo"]);

    await env.DB.prepare("UPDATE cis_invoices SET deleted_at = ? WHERE id = ?").bind(Date.now(), inv.id).run();
    const again = await compileMonthlyReturn(env, t.id, MONTH, actor);
    expect(again).toMatchObject({ ok: true, lines: 1 });
    expect((await linesOf(t.id, MONTH)).map((l) => [l.position, l.name])).toEqual([[0, "Bravo"]]);
    expect((await returnRow(t.id, MONTH))!.subcontractorCount).toBe(1);
    expect(await audits(t.id, "cis.return.compiled")).toHaveLength(2);
  });

  it("a month without payments compiles as a nil return; the nil action is refused when there are payments", async () => {
    const t = await cisTenant();
    expect(await compileMonthlyReturn(env, t.id, MONTH, actor, { mode: "nil" })).toEqual({ ok: true, id: MONTH, status: "nil", issues: [], lines: 0 });
    expect(await returnRow(t.id, MONTH)).toMatchObject({ status: "nil", grossP: 0, subcontractorCount: 0 });

    const sub = await seedSub(t);
    await seedInvoice(t, { subcontractorId: sub.id, paymentDate: "2026-02-10" });
    expect(await compileMonthlyReturn(env, t.id, "2026-02", actor, { mode: "nil" })).toEqual({ ok: false, code: "has_payments" });
    expect(await returnRow(t.id, "2026-02")).toBeNull();
  });

  it("refuses an invalid month", async () => {
    const t = await cisTenant();
    for (const m of ["2026-13", "26-01", "", "2026-01-AMD-1"])
      expect(await compileMonthlyReturn(env, t.id, m, actor)).toEqual({ ok: false, code: "invalid_month" });
  });

  it("a submitted (locked) return cannot be recompiled: typed refusal, nothing changed", async () => {
    const t = await cisTenant();
    const sub = await seedSub(t);
    await seedInvoice(t, { subcontractorId: sub.id });
    await compileMonthlyReturn(env, t.id, MONTH, actor);
    await markSubmitted(t.id, MONTH);
    const before = await returnRow(t.id, MONTH);
    await seedInvoice(t, { subcontractorId: sub.id });
    expect(await compileMonthlyReturn(env, t.id, MONTH, actor)).toEqual({ ok: false, code: "locked" });
    expect(await returnRow(t.id, MONTH)).toEqual(before);
    expect((await linesOf(t.id, MONTH))[0]!.invoiceCount).toBe(1);
    expect(await audits(t.id, "cis.return.compiled")).toHaveLength(1);
  });

  it("a submission landing between the compile's read and its write: the guarded batch changes nothing (row, lines, audit)", async () => {
    const t = await cisTenant();
    const sub = await seedSub(t);
    await seedInvoice(t, { subcontractorId: sub.id });
    await compileMonthlyReturn(env, t.id, MONTH, actor);
    const before = await returnRow(t.id, MONTH);
    const linesBefore = await linesOf(t.id, MONTH);
    await seedInvoice(t, { subcontractorId: sub.id });
    const res = await compileMonthlyReturn(env, t.id, MONTH, actor, { beforeWrite: () => markSubmitted(t.id, MONTH) });
    expect(res).toEqual({ ok: false, code: "locked" });
    const after = await returnRow(t.id, MONTH);
    expect(after).toMatchObject({ status: "submitted", locked: true, compileId: before!.compileId, invoiceCount: 1, grossP: before!.grossP });
    expect(await linesOf(t.id, MONTH)).toEqual(linesBefore);
    expect(await audits(t.id, "cis.return.compiled")).toHaveLength(1);
  });

  it("two compiles at once: exactly one compiles, the other is told one is running and writes nothing", async () => {
    const t = await cisTenant();
    const sub = await seedSub(t);
    for (let i = 0; i < 5; i++) await seedInvoice(t, { subcontractorId: sub.id });
    const results = await Promise.all([compileMonthlyReturn(env, t.id, MONTH, actor), compileMonthlyReturn(env, t.id, MONTH, { ...actor, id: "user-2" })]);
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect(results.filter((r) => !r.ok)).toEqual([{ ok: false, code: "compile_running" }]);
    expect(await audits(t.id, "cis.return.compiled")).toHaveLength(1);
    expect((await linesOf(t.id, MONTH)).map((l) => l.invoiceCount)).toEqual([5]);
    // The lock was released: the next compile runs.
    expect((await compileMonthlyReturn(env, t.id, MONTH, actor)).ok).toBe(true);
  });

  it("while another holder has the month's lock, compile is refused and nothing is written", async () => {
    const t = await cisTenant();
    const sub = await seedSub(t);
    await seedInvoice(t, { subcontractorId: sub.id });
    const lock = returnLockStub(env, t.id, MONTH);
    await lock.acquire("someone-else", 60_000);
    expect(await compileMonthlyReturn(env, t.id, MONTH, actor)).toEqual({ ok: false, code: "compile_running" });
    expect(await returnRow(t.id, MONTH)).toBeNull();
    expect(await linesOf(t.id, MONTH)).toEqual([]);
    expect(await audits(t.id, "cis.return.compiled")).toEqual([]);
    // Another month is another lock.
    expect((await compileMonthlyReturn(env, t.id, "2026-02", actor)).ok).toBe(true);
    await lock.release("someone-else");
  });

  it("writes 1,000 lines in one atomic batch", async () => {
    const t = await cisTenant();
    const db = getDb(env);
    const { invoiceRow } = await import("../factories/returns");
    const rows = Array.from({ length: 1_000 }, (_, i) =>
      invoiceRow(t, { subcontractorId: `sub-${String(i).padStart(4, "0")}`, subcontractorName: `Sub ${String(i).padStart(4, "0")}` }),
    );
    const { cisInvoices } = await import("~/db/schema");
    for (let i = 0; i < rows.length; i += 2) await db.insert(cisInvoices).values(rows.slice(i, i + 2));
    const res = await compileMonthlyReturn(env, t.id, MONTH, actor);
    expect(res).toMatchObject({ ok: true, lines: 1_000 });
    const lines = await linesOf(t.id, MONTH);
    expect(lines).toHaveLength(1_000);
    expect(lines.at(-1)).toMatchObject({ position: 999, name: "Sub 0999" });
  });
});

describe("amending and unlocking", () => {
  it("amend: only a submitted return; a new row '{month}-AMD-{ms}' with status amended, its figures and lines; one open amendment at a time; recompile goes to it", async () => {
    const t = await cisTenant();
    const sub = await seedSub(t, { name: "Amy Amend" });
    await seedInvoice(t, { subcontractorId: sub.id, subcontractorName: sub.name, grossP: 10_000, materialsP: 0 });
    await compileMonthlyReturn(env, t.id, MONTH, actor);
    expect(await amendReturn(env, t.id, MONTH, actor)).toEqual({ ok: false, code: "not_submitted" });
    expect(await amendReturn(env, t.id, "2025-11", actor)).toEqual({ ok: false, code: "not_found" });
    await markSubmitted(t.id, MONTH);

    const at = new Date("2026-02-25T12:00:00Z");
    const res = await amendReturn(env, t.id, MONTH, actor, { now: at });
    expect(res).toEqual({ ok: true, id: `${MONTH}-AMD-${at.getTime()}` });
    if (!res.ok) return;
    expect(res.id).toMatch(/^2026-01-AMD-\d{13}$/);
    const amended = await returnRow(t.id, res.id);
    expect(amended).toMatchObject({ status: "amended", amendmentOf: MONTH, locked: false, grossP: 10_000, taxMonth: MONTH });
    expect((await linesOf(t.id, res.id)).map((l) => [l.name, l.grossP])).toEqual([["Amy Amend", 10_000]]);
    expect(await amendReturn(env, t.id, MONTH, actor)).toEqual({ ok: false, code: "amendment_open" });
    const [audit] = await audits(t.id, "cis.return.amended");
    expect(audit).toMatchObject({ targetId: res.id, payload: { amendmentOf: MONTH, gross: 100 } });

    // A correction in the month: the recompile writes the amendment; the submitted original is untouched.
    const original = await returnRow(t.id, MONTH);
    await seedInvoice(t, { subcontractorId: sub.id, subcontractorName: sub.name, grossP: 5_000, materialsP: 0 });
    expect(await compileMonthlyReturn(env, t.id, MONTH, actor)).toMatchObject({ ok: true, id: res.id, status: "amended" });
    expect((await returnRow(t.id, res.id))!.grossP).toBe(15_000);
    expect(await returnRow(t.id, MONTH)).toEqual(original);
  });

  it("unlock: a locked return goes back to draft with its submission fields cleared, audited; an unlocked one is refused", async () => {
    const t = await cisTenant();
    const sub = await seedSub(t);
    await seedInvoice(t, { subcontractorId: sub.id });
    await compileMonthlyReturn(env, t.id, MONTH, actor);
    expect(await unlockReturn(env, t.id, MONTH, actor)).toEqual({ ok: false, code: "not_locked" });
    expect(await unlockReturn(env, t.id, "2020-01", actor)).toEqual({ ok: false, code: "not_found" });
    await markSubmitted(t.id, MONTH);
    expect(await unlockReturn(env, t.id, MONTH, actor)).toEqual({ ok: true });
    expect(await returnRow(t.id, MONTH)).toMatchObject({
      status: "draft",
      locked: false,
      lockedAt: null,
      submittedAt: null,
      submittedBy: null,
      submissionRef: null,
      irmark: null,
    });
    expect(await audits(t.id, "cis.return.unlocked")).toHaveLength(1);
  });
});
