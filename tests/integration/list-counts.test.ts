import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { invoiceSchema } from "~/features/cis/domain";
import { createInvoice } from "~/features/cis/invoices/form.server";
import { listInvoices } from "~/features/cis/invoices/queries.server";
import { approveInvoice, cancelInvoice, deleteInvoice, markInvoicePaid, requestInvoiceStatement } from "~/features/cis/invoices/transitions.server";
import { generateStatement } from "~/features/cis/statements/statements.server";
import { archiveSubcontractors, deleteSubcontractors, listSubcontractors } from "~/features/cis/subcontractors/subcontractors.server";
import { cisTenant, seedSub } from "../factories/cis";
import { seedInvoice } from "../factories/returns";

/**
 * The list pages' totals and cards are summed from count tables that triggers keep in the same
 * statement as each write. After every kind of write they must equal a fresh count of the rows.
 */

const ACTOR = { id: "usr_counts", email: "counts@example.test", name: "Counter" };

type Row = Record<string, number | string | null>;
const sorted = (rows: Row[]) => rows.map((r) => JSON.stringify(r)).sort();

/** The invoice counts as kept, beside the same figures counted afresh from the invoices (rows of zero left out). */
async function invoiceCountsAgainstTruth(tenantId: string) {
  const kept = await env.DB.prepare(
    `SELECT status, tax_month, n, cis_deduction_p AS deducted, pending_statements AS pending FROM cis_invoice_counts
     WHERE tenant_id = ? AND (n <> 0 OR cis_deduction_p <> 0 OR pending_statements <> 0)`,
  )
    .bind(tenantId)
    .all<Row>();
  const truth = await env.DB.prepare(
    `SELECT status, tax_month, count(*) AS n, sum(cis_deduction_p) AS deducted,
       sum(status = 'paid' AND cis_deduction_p > 0 AND statement_required = 1 AND statement_issued_at IS NULL AND statement_id IS NULL) AS pending
     FROM cis_invoices WHERE tenant_id = ? AND deleted_at IS NULL GROUP BY status, tax_month`,
  )
    .bind(tenantId)
    .all<Row>();
  return { kept: sorted(kept.results), truth: sorted(truth.results) };
}

async function subcontractorCountsAgainstTruth(tenantId: string) {
  const kept = await env.DB.prepare("SELECT active, type, verification_status AS v, n FROM cis_subcontractor_counts WHERE tenant_id = ? AND n <> 0")
    .bind(tenantId)
    .all<Row>();
  const truth = await env.DB.prepare(
    "SELECT active, type, verification_status AS v, count(*) AS n FROM cis_subcontractors WHERE tenant_id = ? AND deleted_at IS NULL GROUP BY active, type, verification_status",
  )
    .bind(tenantId)
    .all<Row>();
  return { kept: sorted(kept.results), truth: sorted(truth.results) };
}

async function newInvoice(tenantId: string, subcontractorId: string, invoiceNumber: string, invoiceDate: string) {
  const created = await createInvoice(
    env,
    tenantId,
    invoiceSchema.parse({ subcontractorId, invoiceNumber, invoiceDate, grossP: 100_000, materialsP: 10_000, vatRate: 0 }),
    ACTOR,
  );
  if (!created.ok) throw new Error(created.code);
  return created.id;
}

describe("invoice counts kept by triggers", () => {
  it("follow every write (create, approve, pay, statement, cancel, delete, hard delete) and give the list's total and cards", async () => {
    const t = await cisTenant();
    const other = await cisTenant();
    const sub = await seedSub(t, { name: "Counted Builder" });
    const otherSub = await seedSub(other, { name: "Other Builder" });
    await seedInvoice(other, { subcontractorId: otherSub.id, paymentDate: "2026-05-10" });

    const ids = [];
    for (let i = 0; i < 5; i++) ids.push(await newInvoice(t.id, sub.id, `CNT-${i}`, "2026-05-10"));
    let check = await invoiceCountsAgainstTruth(t.id);
    expect(check.kept).toEqual(check.truth);

    for (const id of ids.slice(0, 4)) expect((await approveInvoice(env, t.id, id, ACTOR)).ok).toBe(true);
    for (const id of ids.slice(0, 3)) expect((await markInvoicePaid(env, t.id, id, ACTOR, { paymentDate: "2026-06-08" })).ok).toBe(true);
    expect((await requestInvoiceStatement(env, t.id, ids[0]!, ACTOR)).ok).toBe(true);
    check = await invoiceCountsAgainstTruth(t.id);
    expect(check.kept).toEqual(check.truth);

    const paidMonth = (await env.DB.prepare("SELECT tax_month FROM cis_invoices WHERE id = ?").bind(ids[0]).first<{ tax_month: string }>())!.tax_month;
    const statement = await generateStatement(env, t.id, sub.id, paidMonth, ACTOR);
    expect(statement.ok).toBe(true);
    expect((await cancelInvoice(env, t.id, ids[3]!, ACTOR)).ok).toBe(true);
    expect((await deleteInvoice(env, t.id, ids[4]!, ACTOR)).ok).toBe(true);
    check = await invoiceCountsAgainstTruth(t.id);
    expect(check.kept).toEqual(check.truth);

    // Rows removed outright (a tenant's data erased) leave the counts too.
    await env.DB.prepare("DELETE FROM cis_invoices WHERE id = ?").bind(ids[1]).run();
    check = await invoiceCountsAgainstTruth(t.id);
    expect(check.kept).toEqual(check.truth);

    const all = await listInvoices(env, t.id, { q: "", status: "all", period: "all", page: 1 });
    expect(all.total).toBe(3);
    expect(all.stats.total).toBe(3);
    expect(all.stats.pendingStatements).toBe(0);
    const paid = await listInvoices(env, t.id, { q: "", status: "paid", period: "all", page: 1 });
    expect(paid.total).toBe(2);
    expect(paid.rows).toHaveLength(2);
    const search = await listInvoices(env, t.id, { q: "cnt-2", status: "all", period: "all", page: 1 });
    expect(search.total).toBe(1);
    // The other tenant's invoice is in neither figure.
    const theirs = await listInvoices(env, other.id, { q: "", status: "all", period: "all", page: 1 });
    expect(theirs.total).toBe(1);
  });
});

describe("subcontractor counts kept by triggers", () => {
  it("follow create, archive, verification and delete, and give the list's total and cards", async () => {
    const t = await cisTenant();
    const subs = [];
    for (let i = 0; i < 4; i++) subs.push(await seedSub(t, { name: `Counted Sub ${i}`, ...(i === 0 ? { verificationStatus: "gross" } : {}) }));
    await seedSub(t, { name: "Counted Company", type: "company" });
    let check = await subcontractorCountsAgainstTruth(t.id);
    expect(check.kept).toEqual(check.truth);

    await archiveSubcontractors(env, t.id, [subs[1]!.id], ACTOR);
    await deleteSubcontractors(env, t.id, [subs[2]!.id], ACTOR);
    await env.DB.prepare("UPDATE cis_subcontractors SET verification_status = 'gross' WHERE id = ?").bind(subs[3]!.id).run();
    check = await subcontractorCountsAgainstTruth(t.id);
    expect(check.kept).toEqual(check.truth);

    const all = await listSubcontractors(env, t.id, { q: "", status: "all", type: "all", utr: "all", page: 1 });
    expect(all.total).toBe(4);
    expect(all.summary).toEqual({ total: 4, active: 3, gross: 2, standard: 1 });
    const archived = await listSubcontractors(env, t.id, { q: "", status: "archived", type: "all", utr: "all", page: 1 });
    expect(archived.total).toBe(1);
    const companies = await listSubcontractors(env, t.id, { q: "", status: "active", type: "company", utr: "all", page: 1 });
    expect(companies.total).toBe(1);
    const search = await listSubcontractors(env, t.id, { q: "counted sub", status: "all", type: "all", utr: "all", page: 1 });
    expect(search.total).toBe(3);
    // The count table has no UTR-check dimension: the failing-UTR filter counts its own rows.
    await env.DB.prepare("UPDATE cis_subcontractors SET utr_invalid = 1 WHERE id = ?").bind(subs[0]!.id).run();
    const failing = await listSubcontractors(env, t.id, { q: "", status: "all", type: "all", utr: "invalid", page: 1 });
    expect(failing.rows.map((r) => r.id)).toEqual([subs[0]!.id]);
    expect(failing.total).toBe(1);
  });
});
