import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { getDb } from "~/db/client.server";
import { cisInvoices } from "~/db/schema";
import { deductionsByMonth, invoiceSchema, paymentsByMonth, returnsDue, taxMonthFromLabel, type PaidInvoiceGroup } from "~/features/cis/domain";
import { createInvoice } from "~/features/cis/invoices/form.server";
import { approveInvoice, markInvoicePaid } from "~/features/cis/invoices/transitions.server";
import { returnsPageData } from "~/features/cis/returns/returns.server";
import type { TestTenant } from "../factories";
import { cisTenant, seedSub } from "../factories/cis";
import { invoiceRow, seedInvoice, type InvoiceSeed } from "../factories/returns";

/**
 * The returns page and the overdue list read each tax month's contract payments (how many, CIS
 * deducted) from a count table that triggers keep as invoices are written. Here its figures are held
 * against a direct computation over the invoices themselves: every live, paid invoice with a
 * subcontractor and not outside CIS, counted in the month it is labelled with and in the month its
 * payment date falls in (the 6th to the 5th), by the domain's own rules.
 */

const ACTOR = { id: "usr_paid_months", email: "months@example.test", name: "Months" };
const LONG_AGO = Date.UTC(2024, 0, 1);

type InvoiceFacts = {
  status: string;
  deleted_at: number | null;
  subcontractor_id: string;
  outside_cis: number;
  tax_month: string;
  payment_date: string | null;
  cis_deduction_p: number;
};

/** Every invoice of the tenant, filtered and counted here rather than in SQL: the truth the table must match. */
async function truthGroups(tenantId: string): Promise<PaidInvoiceGroup[]> {
  const { results } = await env.DB.prepare(
    "SELECT status, deleted_at, subcontractor_id, outside_cis, tax_month, payment_date, cis_deduction_p FROM cis_invoices WHERE tenant_id = ?",
  )
    .bind(tenantId)
    .all<InvoiceFacts>();
  return results
    .filter((r) => r.status === "paid" && r.deleted_at === null && r.subcontractor_id !== "" && r.outside_cis === 0)
    .map((r) => ({ taxMonth: r.tax_month, paymentDate: r.payment_date, count: 1, deductionsP: r.cis_deduction_p }));
}

type MonthFigures = Record<string, { n: number; deducted: number }>;

async function keptAgainstTruth(tenantId: string): Promise<{ kept: MonthFigures; truth: MonthFigures }> {
  const { results } = await env.DB.prepare(
    "SELECT tax_month, n, cis_deduction_p FROM cis_paid_month_counts WHERE tenant_id = ? AND (n <> 0 OR cis_deduction_p <> 0)",
  )
    .bind(tenantId)
    .all<{ tax_month: string; n: number; cis_deduction_p: number }>();
  const kept = Object.fromEntries(results.map((r) => [r.tax_month, { n: r.n, deducted: r.cis_deduction_p }]));
  const groups = await truthGroups(tenantId);
  const deductions = deductionsByMonth(groups);
  const truth = Object.fromEntries([...paymentsByMonth(groups)].map(([m, n]) => [m, { n, deducted: deductions.get(m) ?? 0 }]));
  return { kept, truth };
}

async function expectKeptIsTruth(tenantId: string): Promise<MonthFigures> {
  const { kept, truth } = await keptAgainstTruth(tenantId);
  expect(kept).toEqual(truth);
  return kept;
}

async function insertInvoice(t: TestTenant, seed: InvoiceSeed, extra: Partial<typeof cisInvoices.$inferInsert> = {}) {
  const row = { ...invoiceRow(t, seed), ...extra };
  await getDb(env).insert(cisInvoices).values(row);
  return row.id;
}

async function update(id: string, set: string, ...values: unknown[]) {
  await env.DB.prepare(`UPDATE cis_invoices SET ${set} WHERE id = ?`)
    .bind(...values, id)
    .run();
}

/** A tenant whose invoices sit on month boundaries, some counted and some not, another tenant's beside them. */
async function boundaryTenant() {
  const t = await cisTenant({ settings: {} });
  const sub = await seedSub(t, { name: "Boundary Builder" });
  const other = await cisTenant({ settings: {} });
  const otherSub = await seedSub(other, { name: "Other Builder" });
  const s = { subcontractorId: sub.id };
  const ids = {
    // The 5th belongs to the month that began on the 6th before it; the 6th starts the next.
    fifth: (await seedInvoice(t, { ...s, paymentDate: "2026-05-05" })).id,
    sixth: (await seedInvoice(t, { ...s, paymentDate: "2026-05-06", grossP: 50_000, materialsP: 0 })).id,
    // Labelled with another month than its payment: counted in both.
    relabelled: (await seedInvoice(t, { ...s, paymentDate: "2026-05-20", taxMonth: "2026-02" })).id,
    // Labelled with the calendar month of a payment on the 3rd: the label's month and the month before.
    calendarLabel: (await seedInvoice(t, { ...s, paymentDate: "2026-06-03", taxMonth: "2026-06" })).id,
    // Not counted: outside CIS, deleted, not paid, no subcontractor.
    outside: await insertInvoice(t, { ...s, paymentDate: "2026-05-10" }, { outsideCis: true }),
    deleted: (await seedInvoice(t, { ...s, paymentDate: "2026-05-10", deleted: true })).id,
    approved: (await seedInvoice(t, { ...s, status: "approved", paymentDate: "2026-05-10" })).id,
    noSub: await insertInvoice(t, { subcontractorId: "", paymentDate: "2026-05-10" }),
    // A payment date that is no calendar date: its label alone counts it.
    badDate: await insertInvoice(t, { ...s, paymentDate: "2026-04-10", taxMonth: "2026-04" }, { paymentDate: "2026-02-30" }),
  };
  await seedInvoice(other, { subcontractorId: otherSub.id, paymentDate: "2026-05-10", grossP: 900_000 });
  return { t, sub, other, ids };
}

describe("payments per tax month kept by triggers", () => {
  it("match the invoices on month boundaries, relabelled, out of scope, deleted and not paid", async () => {
    const { t, other } = await boundaryTenant();
    const kept = await expectKeptIsTruth(t.id);
    expect(Object.keys(kept).sort()).toEqual(["2026-02", "2026-04", "2026-05", "2026-06"]);
    expect(kept["2026-05"]!.n).toBe(3); // the 6th, the relabelled one, the 3 June payment
    expect(kept["2026-04"]!.n).toBe(2); // the 5th, the impossible date's label
    expect(Object.keys(await expectKeptIsTruth(other.id))).toEqual(["2026-05"]);
  });

  it("follow every change that moves an invoice in or out of a month, and a delete", async () => {
    const { t, other, ids } = await boundaryTenant();
    // Reverted to unpaid, then paid again a day later across the boundary.
    await update(ids.fifth, "status = 'approved', payment_date = NULL");
    await expectKeptIsTruth(t.id);
    await update(ids.fifth, "status = 'paid', payment_date = '2026-07-06', tax_month = '2026-07'");
    await expectKeptIsTruth(t.id);
    // The payment date moved back over the 5th/6th boundary; the label moved on its own.
    await update(ids.sixth, "payment_date = '2026-05-05'");
    await update(ids.relabelled, "tax_month = '2026-03'");
    await expectKeptIsTruth(t.id);
    // The deduction changed; brought into CIS; taken out of it.
    await update(ids.calendarLabel, "cis_deduction_p = cis_deduction_p + 1234");
    await update(ids.outside, "outside_cis = 0");
    await update(ids.sixth, "outside_cis = 1");
    await expectKeptIsTruth(t.id);
    // Soft-deleted, restored, deleted outright; the deleted one restored; a subcontractor given.
    await update(ids.relabelled, "deleted_at = ?", Date.now());
    await update(ids.deleted, "deleted_at = NULL");
    await update(ids.noSub, "subcontractor_id = 'sub_given'");
    await expectKeptIsTruth(t.id);
    await env.DB.prepare("DELETE FROM cis_invoices WHERE id IN (?, ?)").bind(ids.calendarLabel, ids.badDate).run();
    await expectKeptIsTruth(t.id);
    // Nothing of it reached the other tenant.
    expect(Object.keys(await expectKeptIsTruth(other.id))).toEqual(["2026-05"]);
  });

  it("count a payment made through the product on the London date it was made", async () => {
    const t = await cisTenant({ settings: {} });
    const sub = await seedSub(t, { name: "Late Night Builder" });
    const ids: string[] = [];
    for (const n of ["LN-1", "LN-2"]) {
      const created = await createInvoice(
        env,
        t.id,
        invoiceSchema.parse({ subcontractorId: sub.id, invoiceNumber: n, invoiceDate: "2026-05-20", grossP: 100_000, materialsP: 0, vatRate: 0 }),
        ACTOR,
      );
      if (!created.ok) throw new Error(created.code);
      expect((await approveInvoice(env, t.id, created.id, ACTOR)).ok).toBe(true);
      ids.push(created.id);
    }
    // 23:30 UTC on 5 June is 00:30 on 6 June in London (BST): June's tax month, not May's.
    expect((await markInvoicePaid(env, t.id, ids[0]!, ACTOR, { now: new Date("2026-06-05T23:30:00Z") })).ok).toBe(true);
    // 22:30 UTC on 5 June is still the 5th in London: May's.
    expect((await markInvoicePaid(env, t.id, ids[1]!, ACTOR, { now: new Date("2026-06-05T22:30:00Z") })).ok).toBe(true);
    const kept = await expectKeptIsTruth(t.id);
    expect(kept).toEqual({ "2026-05": { n: 1, deducted: 20_000 }, "2026-06": { n: 1, deducted: 20_000 } });
  });

  it("start from the invoices already there when the migration fills the table", async () => {
    const { t, other } = await boundaryTenant();
    const before = [await keptAgainstTruth(t.id), await keptAgainstTruth(other.id)];
    const migration = (env.TEST_MIGRATIONS ?? []).find((m) => m.name.startsWith("0045_"));
    const fill = migration?.queries.find((q) => q.includes("INSERT INTO `cis_paid_month_counts`") && q.includes("GROUP BY"));
    expect(fill).toBeDefined();
    await env.DB.prepare("DELETE FROM cis_paid_month_counts").run();
    await env.DB.prepare(fill!).run();
    expect([await keptAgainstTruth(t.id), await keptAgainstTruth(other.id)]).toEqual(before);
    await expectKeptIsTruth(t.id);
  });
});

describe("the returns page's figures per month", () => {
  it("equal the rules applied to the invoices themselves: payments in the month and the overdue list", async () => {
    const { t, ids } = await boundaryTenant();
    await update(ids.fifth, "status = 'approved', payment_date = NULL");
    // The tenant started long ago, so every month of the look-back is judged.
    await env.DB.prepare("UPDATE cis_invoices SET created_at = ? WHERE tenant_id = ?").bind(LONG_AGO, t.id).run();
    const now = new Date("2026-09-25T12:00:00Z");
    const groups = await truthGroups(t.id);
    const payments = paymentsByMonth(groups);
    for (const label of ["2026-02", "2026-03", "2026-04", "2026-05", "2026-06", "2026-07"]) {
      const data = await returnsPageData(env, t.id, taxMonthFromLabel(label), now);
      expect(data.paymentsInMonth, label).toBe(payments.get(label) ?? 0);
      expect(data.overdue).toEqual(returnsDue({ now, firstActivityAt: new Date(LONG_AGO), paidInvoices: groups, filedMonths: [], notices: [] }));
    }
    const data = await returnsPageData(env, t.id, taxMonthFromLabel("2026-05"), now);
    expect(data.paymentsInMonth).toBe(3);
    const may = data.overdue.find((d) => d.taxMonth === "2026-05");
    expect(may).toMatchObject({ nil: false, deductionsP: deductionsByMonth(groups).get("2026-05") });
    expect(data.overdue.find((d) => d.taxMonth === "2026-07")).toMatchObject({ nil: true, deductionsP: 0 });
  });
});
