import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
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
  return env.DB.prepare("SELECT id, cis_rate, cis_deduction_p, outside_cis, net_payment_p FROM cis_invoices WHERE tenant_id = ? AND invoice_number = ?")
    .bind(tenantId, invoiceNumber)
    .first<{ id: string; cis_rate: number; cis_deduction_p: number; outside_cis: number; net_payment_p: number }>();
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
  return (await invoiceOf(t.id, form.invoiceNumber!))!;
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
});
