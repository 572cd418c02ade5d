import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { approveInvoice, bulkInvoiceAction, markInvoicePaid } from "~/features/cis/invoices/transitions.server";
import { compileMonthlyReturn } from "~/features/cis/returns/returns.server";
import { uid, type TestTenant } from "../factories";
import { audits } from "../factories/audits";
import { cisStaff, seedSub, subForm } from "../factories/cis";
import { all, attr, page, textOf } from "../factories/html";
import { Browser, location } from "./http";

const seeder = { id: "seed", email: "seed@example.test", name: "Seeder" };

function invoiceForm(subcontractorId: string, invoiceDate: string, intent = "save"): Record<string, string> {
  return {
    subcontractorId,
    invoiceNumber: `PB-${uid("n")}`,
    invoiceDate,
    receivedDate: "",
    description: "",
    gross: "1000.00",
    materials: "0.00",
    vatRate: "0",
    reverseCharge: "on",
    materialsJustification: "",
    intent,
  };
}

async function invoiceOf(tenantId: string, invoiceNumber: string) {
  return env.DB.prepare(
    "SELECT id, cis_rate, cis_deduction_p, outside_cis, net_payment_p, statement_required, tax_month FROM cis_invoices WHERE tenant_id = ? AND invoice_number = ?",
  )
    .bind(tenantId, invoiceNumber)
    .first<{
      id: string;
      cis_rate: number;
      cis_deduction_p: number;
      outside_cis: number;
      net_payment_p: number;
      statement_required: number;
      tax_month: string;
    }>();
}

async function markPaid(tenantId: string, id: string, paymentDate: string, taxMonth: string) {
  await env.DB.prepare("UPDATE cis_invoices SET status = 'paid', payment_date = ?, tax_month = ? WHERE tenant_id = ? AND id = ?")
    .bind(paymentDate, taxMonth, tenantId, id)
    .run();
}

async function create(b: Browser, t: TestTenant, subId: string, date: string) {
  const form = invoiceForm(subId, date);
  const res = await b.post(`${t.origin}/cis/invoices/new`, form);
  expect(res.status).toBe(302);
  return { ...(await invoiceOf(t.id, form.invoiceNumber!))!, invoiceNumber: form.invoiceNumber! };
}

async function approved(b: Browser, t: TestTenant, subId: string, date: string) {
  const inv = await create(b, t, subId, date);
  expect(await approveInvoice(env, t.id, inv.id, seeder)).toMatchObject({ ok: true });
  return inv;
}

describe("public bodies", () => {
  it("the subcontractor form sets the flag (audited); the page and the list show it", async () => {
    const { t, b } = await cisStaff("admin", { settings: {} });
    const res = await b.post(`${t.origin}/cis/subcontractors/new`, subForm({ name: "Northshire County Council", type: "company", publicBody: "on" }));
    expect(res.status).toBe(302);
    const id = location(res)!.split("/").pop()!;
    const [created] = await audits(t.id, "cis.subcontractor.created", id);
    expect(created?.payload).toMatchObject({ publicBody: true });
    const detail = await page(await b.get(`${t.origin}/cis/subcontractors/${id}`));
    expect(textOf(detail, "dl")).toContain("Public bodyYes: payments from 6 April 2026 are not CIS payments");
    const list = await page(await b.get(`${t.origin}/cis/subcontractors`));
    expect(all(list, `[data-row="${id}"] [data-public-body]`)).toHaveLength(1);

    // Unticked on the edit form: the flag goes, and the audit names the field.
    const edit = await b.post(`${t.origin}/cis/subcontractors/${id}/edit`, subForm({ name: "Northshire County Council", type: "company", utr: "" }));
    expect(edit.status).toBe(302);
    const updated = await audits(t.id, "cis.subcontractor.updated", id);
    expect(updated.at(-1)?.payload).toMatchObject({ fields: expect.arrayContaining(["publicBody"]) });
    const after = await page(await b.get(`${t.origin}/cis/subcontractors`));
    expect(all(after, `[data-row="${id}"] [data-public-body]`)).toHaveLength(0);
  });

  it("an invoice to a public body dated 5 April 2026 carries the deduction; dated 6 April it carries none and the form says why", async () => {
    const { t, b } = await cisStaff("admin", { settings: {} });
    const council = await seedSub(t, { name: "Northshire County Council", type: "company", publicBody: true });
    const before = await create(b, t, council.id, "2026-04-05");
    expect(before).toMatchObject({ cis_rate: 20, cis_deduction_p: 20_000, outside_cis: 0 });
    const after = await create(b, t, council.id, "2026-04-06");
    expect(after).toMatchObject({ cis_rate: 0, cis_deduction_p: 0, outside_cis: 1, net_payment_p: 100_000 });

    // The form's server 'Calculate' step (no JavaScript) says so and shows no deduction; earlier dates do not.
    const calc = await page(await b.post(`${t.origin}/cis/invoices/new`, invoiceForm(council.id, "2026-04-06", "calculate")));
    expect(textOf(calc, "[data-outside-cis]")).toBe("Not a CIS payment: public body");
    expect(textOf(calc, '[data-figure="cis"] dd')).toBe("£0.00");
    const earlier = await page(await b.post(`${t.origin}/cis/invoices/new`, invoiceForm(council.id, "2026-04-05", "calculate")));
    expect(earlier.querySelector("[data-outside-cis]")).toBeNull();
    expect(textOf(earlier, '[data-figure="cis"] dd')).toBe("£200.00");
    // Either way the form says that the payment date decides.
    expect(textOf(earlier, "[data-public-body-hint]")).toContain("the payment date decides");
    expect(textOf(calc, "[data-public-body-hint]")).toContain("Paid on or after 6 April 2026 it is not a CIS payment");
    // The edit form of the exempt invoice says it too.
    const edit = await page(await b.get(`${t.origin}/cis/invoices/${after.id}/edit`));
    expect(textOf(edit, "[data-outside-cis]")).toBe("Not a CIS payment: public body");
  });

  it("paid from 6 April 2026 it is on no CIS300, needs no statement, and a month with only such payments owes a nil return", async () => {
    const { t, b } = await cisStaff("admin", { settings: {} });
    const council = await seedSub(t, { name: "Northshire County Council", type: "company", publicBody: true });
    const ann = await seedSub(t, { name: "Ann Roofing" });
    const exempt = await create(b, t, council.id, "2026-04-10");
    const ordinary = await create(b, t, ann.id, "2026-04-12");
    await markPaid(t.id, exempt.id, "2026-04-10", "2026-04");
    await markPaid(t.id, ordinary.id, "2026-04-12", "2026-04");
    const compiled = await compileMonthlyReturn(env, t.id, "2026-04", seeder);
    expect(compiled).toMatchObject({ ok: true, lines: 1 });
    const lines = await env.DB.prepare("SELECT subcontractor_id FROM cis_return_lines WHERE tenant_id = ?").bind(t.id).all<{ subcontractor_id: string }>();
    expect(lines.results.map((l) => l.subcontractor_id)).toEqual([ann.id]);
    // The statements page has nothing pending for the public body.
    const statements = await page(await b.get(`${t.origin}/cis/statements?month=2026-04`));
    expect(statements.querySelector(`#statement-${council.id}`)).toBeNull();

    // May: only the public body was paid. The page offers Nil Return and says a nil return is due.
    const may = await create(b, t, council.id, "2026-05-10");
    await markPaid(t.id, may.id, "2026-05-10", "2026-05");
    const mayPage = await page(await b.get(`${t.origin}/cis/returns?month=2026-05`));
    expect(attr(mayPage.querySelector("[data-need]")!, "data-need")).toBe("nil_return");
    expect(all(mayPage, '[data-testid="return-actions"] button').map((x) => x.textContent)).toContain("Nil Return");
    expect(await compileMonthlyReturn(env, t.id, "2026-05", seeder, { mode: "nil" })).toMatchObject({ ok: true, status: "nil" });
  });

  it("the payment date decides, in the payment's own batch: paid 5 April 2026 the deduction stands, paid 6 April there is none", async () => {
    const { t, b } = await cisStaff("admin", { settings: {} });
    const council = await seedSub(t, { name: "Northshire County Council", type: "company", publicBody: true });
    // Approving an exempt draft keeps it exempt (the invoice date still stands in for the payment date).
    const exemptDraft = await approved(b, t, council.id, "2026-04-06");
    expect(await invoiceOf(t.id, exemptDraft.invoiceNumber)).toMatchObject({ cis_rate: 0, cis_deduction_p: 0, outside_cis: 1, statement_required: 0 });

    // Dated before 6 April and paid on 5 April: an ordinary contract payment.
    const paidBefore = await approved(b, t, council.id, "2026-03-20");
    expect((await markInvoicePaid(env, t.id, paidBefore.id, seeder, { paymentDate: "2026-04-05" })).ok).toBe(true);
    expect(await invoiceOf(t.id, paidBefore.invoiceNumber)).toMatchObject({
      cis_rate: 20,
      cis_deduction_p: 20_000,
      outside_cis: 0,
      statement_required: 1,
      tax_month: "2026-03",
    });

    // Dated before 6 April, paid on 6 April: no deduction, no statement, and the payment's audit entry says why.
    const paidAfter = await approved(b, t, council.id, "2026-03-20");
    expect((await markInvoicePaid(env, t.id, paidAfter.id, seeder, { paymentDate: "2026-04-06" })).ok).toBe(true);
    expect(await invoiceOf(t.id, paidAfter.invoiceNumber)).toMatchObject({
      cis_rate: 0,
      cis_deduction_p: 0,
      outside_cis: 1,
      net_payment_p: 100_000,
      statement_required: 0,
      tax_month: "2026-04",
    });
    const [paidAudit] = await audits(t.id, "cis.invoice.paid", paidAfter.id);
    expect(paidAudit?.payload).toMatchObject({ paymentDate: "2026-04-06", outsideCis: true, cisDeductionP: 0 });
    const detail = await page(await b.get(`${t.origin}/cis/invoices/${paidAfter.id}`));
    expect(textOf(detail, "[data-outside-cis]")).toBe("Not a CIS payment: public body");

    // Dated on 6 April but paid (in advance) on 5 April: the deduction applies after all.
    const paidEarly = await approved(b, t, council.id, "2026-04-06");
    expect((await markInvoicePaid(env, t.id, paidEarly.id, seeder, { paymentDate: "2026-04-05" })).ok).toBe(true);
    expect(await invoiceOf(t.id, paidEarly.invoiceNumber)).toMatchObject({ cis_rate: 20, cis_deduction_p: 20_000, outside_cis: 0, statement_required: 1 });
  });

  it("bulk Mark Paid decides each public body's invoice by the payment date; ordinary invoices keep their amounts", async () => {
    const { t, b } = await cisStaff("admin", { settings: {} });
    const council = await seedSub(t, { name: "Northshire County Council", type: "company", publicBody: true });
    const ann = await seedSub(t, { name: "Ann Roofing" });
    const a = await approved(b, t, council.id, "2026-03-01");
    const c = await approved(b, t, ann.id, "2026-03-01");
    const first = await bulkInvoiceAction(env, t.id, "pay", [a.id, c.id], seeder, { paymentDate: "2026-04-06" });
    expect(first.succeeded.sort()).toEqual([a.id, c.id].sort());
    expect(await invoiceOf(t.id, a.invoiceNumber)).toMatchObject({ cis_deduction_p: 0, outside_cis: 1 });
    expect(await invoiceOf(t.id, c.invoiceNumber)).toMatchObject({ cis_deduction_p: 20_000, outside_cis: 0, statement_required: 1 });

    const d = await approved(b, t, council.id, "2026-04-10");
    const e = await approved(b, t, council.id, "2026-04-10");
    await bulkInvoiceAction(env, t.id, "pay", [d.id], seeder, { paymentDate: "2026-04-05" });
    await bulkInvoiceAction(env, t.id, "pay", [e.id], seeder, { paymentDate: "2026-04-06" });
    expect(await invoiceOf(t.id, d.invoiceNumber)).toMatchObject({ cis_deduction_p: 20_000, outside_cis: 0 });
    expect(await invoiceOf(t.id, e.invoiceNumber)).toMatchObject({ cis_deduction_p: 0, outside_cis: 1 });
  });
});
