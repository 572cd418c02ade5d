import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { Role } from "~/db/schema";
import { invoiceSchema } from "~/features/cis/domain";
import { approveInvoice, deleteInvoice } from "~/features/cis/invoices/transitions.server";
import { createInvoice } from "~/features/cis/invoices/form.server";
import { deleteSubcontractors } from "~/features/cis/subcontractors/subcontractors.server";
import { createTenant, createUser, uid, type TestTenant } from "../factories";
import { cisStaff, seedSub, settingsForm } from "../factories/cis";
import { describedBy, fieldMessage, field, isInvalid, options, page, pageText, textOf, valueOf, type Doc } from "../factories/html";
import { signedIn } from "../factories/sessions";
import { count } from "./auth-helpers";
import { Browser, location } from "./http";

const MESSAGES = {
  archived: "Archived subcontractors cannot be used for new invoices",
  notFoundSub: "Subcontractor not found",
  duplicate: "This subcontractor already has an invoice with this number",
  negative: "Enter an amount of £0.00 or more",
  exceeds: "Materials must be the same as or less than the gross amount",
  justification: "Materials are 80% or more of the gross amount: enter a note of at least 10 characters saying why",
  notEditable: "Only draft invoices can be edited",
};

const SEEDER = { id: "seed", email: "seed@example.test", name: "Seeder" };

type InvoiceDbRow = {
  id: string;
  tenant_id: string;
  status: string;
  invoice_number: string;
  subcontractor_id: string;
  subcontractor_name: string;
  invoice_date: string;
  received_date: string | null;
  description: string | null;
  tax_month: string;
  gross_p: number;
  materials_p: number;
  labour_p: number;
  cis_rate: number;
  cis_deduction_p: number;
  vat_rate: number;
  vat_amount_p: number;
  gross_total_p: number;
  net_payment_p: number;
  materials_percentage: number;
  reverse_charge: number;
  materials_justification: string | null;
  created_by: string;
};

async function invoiceRows(tenantId: string) {
  const { results } = await env.DB.prepare("SELECT * FROM cis_invoices WHERE tenant_id = ? ORDER BY created_at").bind(tenantId).all<InvoiceDbRow>();
  return results;
}

async function invoiceRow(id: string) {
  return env.DB.prepare("SELECT * FROM cis_invoices WHERE id = ?").bind(id).first<InvoiceDbRow>();
}

/** The form as a browser posts it, valid unless overridden; an override of null leaves the field out. */
function invoiceForm(subcontractorId: string, overrides: Record<string, string | null> = {}): Record<string, string> {
  const base: Record<string, string | null> = {
    subcontractorId,
    invoiceNumber: `INV-${uid("n")}`,
    invoiceDate: "2026-05-10",
    receivedDate: "",
    description: "",
    gross: "1000.00",
    materials: "300.00",
    vatRate: "20",
    materialsJustification: "",
    intent: "save",
    ...overrides,
  };
  return Object.fromEntries(Object.entries(base).filter((e): e is [string, string] => e[1] !== null));
}

/** A draft made through the data layer (the form's own create is tested through HTTP). */
async function seedInvoice(t: TestTenant, subcontractorId: string, extra: Record<string, unknown> = {}) {
  const input = invoiceSchema.parse({
    subcontractorId,
    invoiceNumber: `SEED-${uid("n")}`,
    invoiceDate: "2026-05-10",
    grossP: 100_000,
    materialsP: 30_000,
    vatRate: 20,
    reverseCharge: false,
    ...extra,
  });
  const res = await createInvoice(env, t.id, input, SEEDER);
  if (!res.ok) throw new Error(res.code);
  return { id: res.id, invoiceNumber: input.invoiceNumber };
}

const newUrl = (t: TestTenant, query = "") => `${t.origin}/cis/invoices/new${query}`;
const editUrl = (t: TestTenant, id: string) => `${t.origin}/cis/invoices/${id}/edit`;

/** The figure the panel shows for `name` (gross, materials, labour, cis, vat, net). */
const figure = (doc: Doc, name: string) => textOf(doc, `[data-figure="${name}"] dd`);
const figureLabel = (doc: Doc, name: string) => textOf(doc, `[data-figure="${name}"] dt`);

/** The toast the next page shows (read once from the flash cookie). */
async function nextToast(b: Browser, t: TestTenant) {
  const doc = await page(await b.get(newUrl(t)));
  return textOf(doc, "[data-toast-type]");
}

// ---------------------------------------------------------------------------

describe("new invoice page", () => {
  it("offers this tenant's active subcontractors only, by name with their rate, and preselects ?subcontractorId=", async () => {
    const { t, b } = await cisStaff("lead");
    const other = await createTenant({ modules: ["cis"] });
    const zed = await seedSub(t, { name: "Zed Roofing", verificationStatus: "higher" });
    const abel = await seedSub(t, { name: "abel Groundworks", verificationStatus: "gross" });
    const mid = await seedSub(t, { name: "Mason Bricks" });
    const archived = await seedSub(t, { name: "Archived Plastering" }, { archived: true });
    const deleted = await seedSub(t, { name: "Deleted Drylining" });
    await deleteSubcontractors(env, t.id, [deleted.id], SEEDER);
    const foreign = await seedSub(other, { name: "Foreign Scaffolding" });

    const res = await b.get(newUrl(t));
    expect(res.status).toBe(200);
    const doc = await page(res);
    const offered = options(doc, "subcontractorId").filter((o) => o.value !== "");
    expect(offered.map((o) => o.value)).toEqual([abel.id, mid.id, zed.id]);
    expect(offered.map((o) => o.label)).toEqual(["abel Groundworks (CIS 0%)", "Mason Bricks (CIS 20%)", "Zed Roofing (CIS 30%)"]);
    expect(valueOf(doc, "subcontractorId")).toBe("");
    const text = pageText(doc);
    for (const hidden of [archived.name, deleted.name, foreign.name]) expect(text).not.toContain(hidden);
    // A fresh form: today's date, VAT 20%, the buttons of a new invoice.
    expect(valueOf(doc, "vatRate")).toBe("20");
    expect(valueOf(doc, "invoiceDate")).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(textOf(doc, "h2")).toBe("New Invoice");
    for (const name of ["Create Invoice", "Save & New", "Calculate"]) expect(text).toContain(name);
    expect(doc.querySelector('form[method="post"] a[href="/cis/invoices"]')?.textContent).toBe("Cancel");

    expect(valueOf(await page(await b.get(newUrl(t, `?subcontractorId=${mid.id}`))), "subcontractorId")).toBe(mid.id);
    // Ids that may not be used are not preselected.
    for (const id of [archived.id, deleted.id, foreign.id, "nope"]) {
      expect(valueOf(await page(await b.get(newUrl(t, `?subcontractorId=${id}`))), "subcontractorId"), id).toBe("");
    }
  });
});

describe("the invoice form's subcontractor picker", () => {
  const offeredIds = (doc: Doc) =>
    options(doc, "subcontractorId")
      .map((o) => o.value)
      .filter((v) => v !== "");

  it("offers the first 25 active subcontractors by name and finds the others by a server search, in the address or as a step of the form", async () => {
    const { t, b } = await cisStaff("lead");
    const other = await createTenant({ modules: ["cis"] });
    const subs = [];
    for (let i = 0; i < 28; i++) subs.push(await seedSub(t, { name: `Picker Builder ${String(i).padStart(2, "0")}` }));
    const tile = await seedSub(t, { name: "Zenith Tiling" });
    await seedSub(t, { name: "Zenith Archived Tiling" }, { archived: true });
    await seedSub(other, { name: "Zenith Foreign Tiling" });

    const first = await page(await b.get(newUrl(t)));
    expect(offeredIds(first)).toEqual(subs.slice(0, 25).map((s) => s.id));
    expect(describedBy(first, "subcontractorId")).toContain("the first 25 by name");

    // A search in the address (what the page asks with JavaScript as one types).
    const found = await page(await b.get(newUrl(t, "?subcontractorQ=zenith")));
    expect(offeredIds(found)).toEqual([tile.id]);
    expect(valueOf(found, "subcontractorQ")).toBe("zenith");
    // The chosen subcontractor stays among the choices whatever the search.
    const kept = await page(await b.get(newUrl(t, `?subcontractorQ=zenith&subcontractorId=${subs[3]!.id}`)));
    expect(offeredIds(kept)).toEqual([subs[3]!.id, tile.id]);
    expect(valueOf(kept, "subcontractorId")).toBe(subs[3]!.id);

    // Without JavaScript: Find posts the form, which comes back with the matches, what was typed and no errors.
    const res = await b.post(newUrl(t), { ...invoiceForm("", { invoiceNumber: "PICK-1", gross: "" }), intent: "find-subcontractor", subcontractorQ: "ZENITH" });
    expect(res.status).toBe(200);
    const step = await page(res);
    expect(offeredIds(step)).toEqual([tile.id]);
    expect(valueOf(step, "invoiceNumber")).toBe("PICK-1");
    expect(valueOf(step, "subcontractorQ")).toBe("ZENITH");
    expect(isInvalid(step, "gross")).toBe(false);
    expect(pageText(step)).not.toContain("Foreign");
    // Nothing was saved.
    expect(await invoiceRows(t.id)).toEqual([]);

    // A refused save keeps a subcontractor found by a search chosen, though it is not among the first 25.
    const refused = await b.post(newUrl(t), { ...invoiceForm(tile.id, { invoiceNumber: "PICK-2", gross: "" }), subcontractorQ: "" });
    expect(refused.status).toBe(400);
    const again = await page(refused);
    expect(isInvalid(again, "gross")).toBe(true);
    expect(offeredIds(again)).toContain(tile.id);
    expect(valueOf(again, "subcontractorId")).toBe(tile.id);

    // A search that matches nothing says so; LIKE's wildcards are searched as text.
    const none = await page(await b.get(newUrl(t, "?subcontractorQ=%25")));
    expect(offeredIds(none)).toEqual([]);
    expect(describedBy(none, "subcontractorId")).toContain('No active subcontractor\'s name contains "%"');
  });
});

describe("the VAT default of a new invoice", () => {
  const checked = (doc: Doc) => (doc.querySelector('input[name="reverseCharge"]') as HTMLInputElement | null)?.hasAttribute("checked") ?? null;
  const hint = (doc: Doc) => textOf(doc, "[data-reverse-charge-hint]");

  it("starts with the reverse charge on for a VAT-registered subcontractor when the contractor is not the end user, and says why", async () => {
    const { t, b } = await cisStaff("lead");
    const vat = await seedSub(t, { name: "Vat Registered Ltd", type: "company", vatNumber: "GB123456789" });
    const plain = await seedSub(t, { name: "Not Registered" });
    // The subcontractor's page opens the form for it.
    const detail = await page(await b.get(`${t.origin}/cis/subcontractors/${vat.id}`));
    expect(detail.querySelector(`a[href="/cis/invoices/new?subcontractorId=${vat.id}"]`)?.textContent).toBe("New Invoice");

    const onDoc = await page(await b.get(newUrl(t, `?subcontractorId=${vat.id}`)));
    expect(checked(onDoc)).toBe(true);
    expect(hint(onDoc)).toContain("VAT registered and you are not the end user");
    expect(describedBy(onDoc, "reverseCharge")).toContain("domestic reverse charge");
    const offDoc = await page(await b.get(newUrl(t, `?subcontractorId=${plain.id}`)));
    expect(checked(offDoc)).toBe(false);
    expect(hint(offDoc)).toContain("no VAT number on record");
    // No subcontractor chosen yet: off, with the plain hint.
    const blank = await page(await b.get(newUrl(t)));
    expect(checked(blank)).toBe(false);
    expect(hint(blank)).toBe("The contractor accounts for the VAT.");

    // Editable: saving with the box cleared stores no reverse charge.
    const res = await b.post(newUrl(t), invoiceForm(vat.id, { invoiceNumber: "VAT-OFF" }));
    expect(res.status).toBe(302);
    const [row] = await invoiceRows(t.id);
    expect(row!.reverse_charge).toBe(0);
    expect(row!.vat_amount_p).toBe(20_000);
  });

  it("starts without it when the CIS settings say the contractor is the end user, set through the settings page", async () => {
    const { t, b } = await cisStaff("admin", { settings: {} });
    const vat = await seedSub(t, { name: "Vat Registered Ltd", type: "company", vatNumber: "GB123456789" });
    const settings = await page(await b.get(`${t.origin}/cis/settings`));
    expect(pageText(settings)).toContain("We are an end user");
    expect((settings.querySelector('input[name="endUser"]') as HTMLInputElement | null)?.hasAttribute("checked")).toBe(false);
    const saved = await b.post(`${t.origin}/cis/settings`, settingsForm({ endUser: "on" }));
    expect(saved.status).toBe(302);
    expect(await count("cis_settings", "tenant_id = ? AND end_user = 1", t.id)).toBe(1);

    const doc = await page(await b.get(newUrl(t, `?subcontractorId=${vat.id}`)));
    expect(checked(doc)).toBe(false);
    expect(hint(doc)).toContain("you are the end user");
  });

  it("keeps an edited invoice's own choice", async () => {
    const { t, b } = await cisStaff("lead");
    const vat = await seedSub(t, { name: "Vat Registered Ltd", type: "company", vatNumber: "GB123456789" });
    const draft = await seedInvoice(t, vat.id, { reverseCharge: false });
    expect(checked(await page(await b.get(editUrl(t, draft.id))))).toBe(false);
  });
});

describe("creating an invoice through the form", () => {
  it("creates a draft with amounts computed on the server, audits it and goes to the invoice with a toast", async () => {
    const { t, u, b } = await cisStaff("lead");
    const sub = await seedSub(t, { name: "Create Joinery" });
    const res = await b.post(
      newUrl(t),
      invoiceForm(sub.id, {
        invoiceNumber: "  INV-001  ",
        gross: "£1,000.00",
        materials: " 300 ",
        receivedDate: "2026-05-12",
        description: "Second-fix joinery",
        // Figures a client might send are not read.
        labourP: "1",
        cisDeductionP: "0",
        netPaymentP: "99999999",
      }),
    );
    expect(res.status, await res.clone().text()).toBe(302);
    const [row] = await invoiceRows(t.id);
    expect(location(res)).toBe(`/cis/invoices/${row.id}`);
    expect(row).toMatchObject({
      status: "draft",
      invoice_number: "INV-001",
      subcontractor_id: sub.id,
      subcontractor_name: "Create Joinery",
      invoice_date: "2026-05-10",
      received_date: "2026-05-12",
      description: "Second-fix joinery",
      tax_month: "2026-05",
      gross_p: 100_000,
      materials_p: 30_000,
      labour_p: 70_000,
      cis_rate: 20,
      cis_deduction_p: 14_000,
      vat_rate: 20,
      vat_amount_p: 20_000,
      gross_total_p: 120_000,
      net_payment_p: 106_000,
      materials_percentage: 30,
      reverse_charge: 0,
      created_by: u.id,
    });
    expect(await count("audit_events", "tenant_id = ? AND action = 'cis.invoice.created' AND target_id = ? AND actor_id = ?", t.id, row.id, u.id)).toBe(1);
    expect(await nextToast(b, t)).toContain("Invoice INV-001 has been created.");
  });

  // Expected figures worked out by hand from the rules: labour = max(0, gross - materials);
  // CIS = round(labour x rate / 100), halves up; VAT = round(gross x VAT / 100), 0 under reverse
  // charge; net = gross + VAT - CIS.
  const CASES: { name: string; status: "gross" | "standard" | "higher"; form: Record<string, string>; expect: Partial<InvoiceDbRow> }[] = [
    {
      name: "rate 0: no deduction, VAT on the whole gross",
      status: "gross",
      form: { gross: "1234.56", materials: "234.56", vatRate: "20" },
      expect: { labour_p: 100_000, cis_rate: 0, cis_deduction_p: 0, vat_amount_p: 24_691, net_payment_p: 148_147 },
    },
    {
      name: "rate 20: 99.99 gross rounds CIS and VAT up from .8p",
      status: "standard",
      form: { gross: "99.99", materials: "", vatRate: "20" },
      expect: { labour_p: 9_999, cis_rate: 20, cis_deduction_p: 2_000, vat_amount_p: 2_000, net_payment_p: 9_999 },
    },
    {
      name: "rate 30: a deduction of exactly 1.5p rounds to 2p",
      status: "higher",
      form: { gross: "0.05", materials: "", vatRate: "5" },
      expect: { labour_p: 5, cis_rate: 30, cis_deduction_p: 2, vat_amount_p: 0, net_payment_p: 3 },
    },
    {
      name: "rate 30: 4.5p rounds to 5p and VAT of 0.75p to 1p",
      status: "higher",
      form: { gross: "0.15", materials: "", vatRate: "5" },
      expect: { labour_p: 15, cis_deduction_p: 5, vat_amount_p: 1, net_payment_p: 11 },
    },
    {
      name: "VAT of exactly 0.5p rounds to 1p",
      status: "standard",
      form: { gross: "0.10", materials: "", vatRate: "5" },
      expect: { labour_p: 10, cis_deduction_p: 2, vat_amount_p: 1, net_payment_p: 9 },
    },
    {
      name: "reverse charge: no VAT, net is gross less CIS",
      status: "standard",
      form: { gross: "1000", materials: "0", vatRate: "20", reverseCharge: "on" },
      expect: { labour_p: 100_000, cis_deduction_p: 20_000, vat_amount_p: 0, gross_total_p: 100_000, net_payment_p: 80_000, reverse_charge: 1 },
    },
    {
      name: "materials equal to gross: no labour, no deduction",
      status: "higher",
      form: { gross: "500", materials: "500", vatRate: "0", materialsJustification: "Plant hire only, no labour" },
      expect: { labour_p: 0, cis_deduction_p: 0, vat_amount_p: 0, net_payment_p: 50_000, materials_percentage: 100 },
    },
  ];

  it("computes every figure on the server: each rate, reverse charge and half-penny rounding", async () => {
    const { t, b } = await cisStaff("lead");
    const subs = {
      gross: await seedSub(t, { name: "Gross Status Ltd", verificationStatus: "gross" }),
      standard: await seedSub(t, { name: "Standard Status Ltd", verificationStatus: "standard" }),
      higher: await seedSub(t, { name: "Higher Status Ltd", verificationStatus: "higher" }),
    };
    for (const c of CASES) {
      const res = await b.post(newUrl(t), invoiceForm(subs[c.status].id, c.form));
      expect(res.status, c.name).toBe(302);
      const id = location(res)?.split("/").pop() ?? "";
      expect(await invoiceRow(id), c.name).toMatchObject(c.expect);
    }
  });

  it("Save & New creates the invoice and opens an empty form for the same subcontractor, with a toast", async () => {
    const { t, b } = await cisStaff("lead");
    const sub = await seedSub(t, { name: "Repeat Electrics" });
    const res = await b.post(newUrl(t), invoiceForm(sub.id, { invoiceNumber: "SN-1", intent: "save-new" }));
    expect(res.status).toBe(302);
    const [row] = await invoiceRows(t.id);
    const next = new URL(location(res) ?? "", t.origin);
    expect(next.pathname).toBe("/cis/invoices/new");
    expect(next.searchParams.get("subcontractorId")).toBe(sub.id);
    expect(next.searchParams.get("created")).toBe(row.id);
    const doc = await page(await b.get(next.toString()));
    expect(textOf(doc, "[data-toast-type]")).toContain("Invoice SN-1 has been created.");
    expect(valueOf(doc, "subcontractorId")).toBe(sub.id);
    expect(valueOf(doc, "invoiceNumber") ?? "").toBe("");
    expect(valueOf(doc, "gross") ?? "").toBe("");
    expect(row.invoice_number).toBe("SN-1");
  });
});

describe("Calculate, without JavaScript", () => {
  it("answers the figures from the server, keeps what was typed and saves nothing", async () => {
    const { t, b } = await cisStaff("lead");
    const sub = await seedSub(t, { name: "Calc Carpentry", verificationStatus: "higher" });
    const res = await b.post(
      newUrl(t),
      invoiceForm(sub.id, { invoiceNumber: "CALC-1", gross: "£2,000.00", materials: "500", vatRate: "5", description: "typed", intent: "calculate" }),
    );
    expect(res.status).toBe(200);
    const doc = await page(res);
    expect(figure(doc, "gross")).toBe("£2,000.00");
    expect(figure(doc, "materials")).toBe("£500.00");
    expect(figure(doc, "labour")).toBe("£1,500.00");
    expect(figureLabel(doc, "cis")).toBe("CIS Deduction at 30%");
    expect(figure(doc, "cis")).toBe("£450.00");
    expect(figureLabel(doc, "vat")).toBe("VAT at 5%");
    expect(figure(doc, "vat")).toBe("£100.00");
    expect(figure(doc, "net")).toBe("£1,650.00");
    expect(valueOf(doc, "subcontractorId")).toBe(sub.id);
    expect(valueOf(doc, "invoiceNumber")).toBe("CALC-1");
    expect(valueOf(doc, "gross")).toBe("£2,000.00");
    expect(valueOf(doc, "materials")).toBe("500");
    expect(valueOf(doc, "vatRate")).toBe("5");
    expect(valueOf(doc, "description")).toBe("typed");
    expect(await count("cis_invoices", "tenant_id = ?", t.id)).toBe(0);
    expect(await count("audit_events", "tenant_id = ? AND action LIKE 'cis.invoice.%'", t.id)).toBe(0);

    // Reverse charge shows no VAT.
    const rc = await page(await b.post(newUrl(t), invoiceForm(sub.id, { gross: "100", materials: "", reverseCharge: "on", intent: "calculate" })));
    expect(figureLabel(rc, "vat")).toBe("VAT (reverse charge)");
    expect(figure(rc, "vat")).toBe("£0.00");
    expect(figure(rc, "net")).toBe("£70.00");
    expect(field(rc, "reverseCharge").hasAttribute("checked")).toBe(true);
  });

  it("shows the figures next to the other fields' errors, and an archived subcontractor's refusal", async () => {
    const { t, b } = await cisStaff("lead");
    const sub = await seedSub(t, { name: "Half Done Ltd" });
    const res = await b.post(newUrl(t), invoiceForm(sub.id, { invoiceNumber: "", gross: "100", materials: "10", intent: "calculate" }));
    expect(res.status).toBe(400);
    const doc = await page(res);
    expect(fieldMessage(doc, "invoiceNumber")).toBe("Enter the invoice number");
    expect(figure(doc, "cis")).toBe("£18.00");

    const archived = await seedSub(t, { name: "Gone Ltd" }, { archived: true });
    const refused = await page(await b.post(newUrl(t), invoiceForm(archived.id, { intent: "calculate" })));
    expect(fieldMessage(refused, "subcontractorId")).toBe(MESSAGES.archived);
    expect(refused.querySelector('[data-figure="net"]')).toBeNull();
    expect(await count("cis_invoices", "tenant_id = ?", t.id)).toBe(0);
  });
});

describe("validation", () => {
  it("answers field errors next to their fields and keeps what was typed", async () => {
    const { t, b } = await cisStaff("lead");
    const sub = await seedSub(t, { name: "Checker Ltd" });
    const cases: [Record<string, string | null>, string, string][] = [
      [{ gross: "-5" }, "gross", MESSAGES.negative],
      [{ materials: "-1" }, "materials", MESSAGES.negative],
      [{ gross: "abc" }, "gross", "Enter an amount in pounds, like 1234.56"],
      [{ gross: "100", materials: "100.01" }, "materials", MESSAGES.exceeds],
      [{ invoiceNumber: "x".repeat(51) }, "invoiceNumber", "Invoice number must be 50 characters or less"],
      [{ invoiceNumber: "   " }, "invoiceNumber", "Enter the invoice number"],
      [{ invoiceDate: "" }, "invoiceDate", "Enter the invoice date"],
      [{ invoiceDate: "2026-02-30" }, "invoiceDate", "Invoice date must be a real date"],
      [{ vatRate: "7" }, "vatRate", "Select a VAT rate: 0%, 5% or 20%"],
      [{ subcontractorId: "" }, "subcontractorId", "Select a subcontractor"],
    ];
    for (const [overrides, name, message] of cases) {
      const form = invoiceForm(sub.id, { description: "Kept text", ...overrides });
      const res = await b.post(newUrl(t), form);
      expect(res.status, name).toBe(400);
      const doc = await page(res);
      expect(describedBy(doc, name), JSON.stringify(overrides)).toContain(message);
      expect(isInvalid(doc, name), name).toBe(true);
      expect(valueOf(doc, "description"), name).toBe("Kept text");
      if (name !== "vatRate" && name !== "subcontractorId") expect(valueOf(doc, name) ?? "", name).toBe(form[name]);
    }
    expect(await count("cis_invoices", "tenant_id = ?", t.id)).toBe(0);
  });

  it("warns at 60% materials and still saves", async () => {
    const { t, b } = await cisStaff("lead");
    const sub = await seedSub(t, { name: "Supply Heavy Ltd" });
    const warning = "High materials percentage (65%) - please verify this is correct";
    const calc = await page(await b.post(newUrl(t), invoiceForm(sub.id, { gross: "100", materials: "65", intent: "calculate" })));
    expect(textOf(calc, "[data-materials-warning]")).toBe(warning);
    expect(fieldMessage(calc, "materials")).toBe(warning);
    const below = await page(await b.post(newUrl(t), invoiceForm(sub.id, { gross: "100", materials: "59.99", intent: "calculate" })));
    expect(below.querySelector("[data-materials-warning]")).toBeNull();
    // At exactly 60% it warns.
    const at = await page(await b.post(newUrl(t), invoiceForm(sub.id, { gross: "100", materials: "60", intent: "calculate" })));
    expect(textOf(at, "[data-materials-warning]")).toBe("High materials percentage (60%) - please verify this is correct");
    const saved = await b.post(newUrl(t), invoiceForm(sub.id, { gross: "100", materials: "65" }));
    expect(saved.status).toBe(302);
    expect(await count("cis_invoices", "tenant_id = ? AND materials_percentage = 65", t.id)).toBe(1);
  });

  it("at 80% materials needs a justification note of at least 10 characters", async () => {
    const { t, b } = await cisStaff("lead");
    const sub = await seedSub(t, { name: "Materials Only Ltd" });
    for (const note of ["", "too short"]) {
      const res = await b.post(newUrl(t), invoiceForm(sub.id, { gross: "100", materials: "80", materialsJustification: note }));
      expect(res.status, note).toBe(400);
      const doc = await page(res);
      expect(fieldMessage(doc, "materialsJustification"), note).toBe(MESSAGES.justification);
      expect(valueOf(doc, "materialsJustification")).toBe(note);
    }
    expect(await count("cis_invoices", "tenant_id = ?", t.id)).toBe(0);
    // Just under 80% needs none.
    expect((await b.post(newUrl(t), invoiceForm(sub.id, { gross: "100", materials: "79.99" }))).status).toBe(302);
    const ok = await b.post(newUrl(t), invoiceForm(sub.id, { gross: "100", materials: "80", materialsJustification: "Steel beam" }));
    expect(ok.status).toBe(302);
    expect(await count("cis_invoices", "tenant_id = ? AND materials_justification = 'Steel beam'", t.id)).toBe(1);
  });

  it("refuses an archived subcontractor, another tenant's, and a number the subcontractor already used", async () => {
    const { t, b } = await cisStaff("lead");
    const other = await createTenant({ modules: ["cis"] });
    const archived = await seedSub(t, { name: "Archived Glazing" }, { archived: true });
    const foreign = await seedSub(other, { name: "Other Tenant Glazing" });
    const active = await seedSub(t, { name: "Active Glazing" });
    const second = await seedSub(t, { name: "Second Glazing" });

    const refused = await b.post(newUrl(t), invoiceForm(archived.id, { invoiceNumber: "ARCH-1", gross: "1234.50" }));
    expect(refused.status).toBe(400);
    const doc = await page(refused);
    expect(fieldMessage(doc, "subcontractorId")).toBe(MESSAGES.archived);
    expect(valueOf(doc, "invoiceNumber")).toBe("ARCH-1");
    expect(valueOf(doc, "gross")).toBe("1234.50");

    const crossTenant = await page(await b.post(newUrl(t), invoiceForm(foreign.id)));
    expect(fieldMessage(crossTenant, "subcontractorId")).toBe(MESSAGES.notFoundSub);
    expect(await count("cis_invoices", "tenant_id IN (?, ?)", t.id, other.id)).toBe(0);

    expect((await b.post(newUrl(t), invoiceForm(active.id, { invoiceNumber: "DUP-1" }))).status).toBe(302);
    const dup = await b.post(newUrl(t), invoiceForm(active.id, { invoiceNumber: "DUP-1", gross: "500" }));
    expect(dup.status).toBe(409);
    const dupDoc = await page(dup);
    expect(fieldMessage(dupDoc, "invoiceNumber")).toBe(MESSAGES.duplicate);
    expect(valueOf(dupDoc, "gross")).toBe("500");
    // Another subcontractor may use the same number.
    expect((await b.post(newUrl(t), invoiceForm(second.id, { invoiceNumber: "DUP-1" }))).status).toBe(302);
    expect(await count("cis_invoices", "tenant_id = ? AND invoice_number = 'DUP-1'", t.id)).toBe(2);
    expect(await count("audit_events", "tenant_id = ? AND action = 'cis.invoice.created' AND actor_id != 'seed'", t.id)).toBe(2);
  });
});

describe("editing an invoice", () => {
  it("shows a draft as stored and saves changes, recomputed at the subcontractor's current rate", async () => {
    const { t, u, b } = await cisStaff("lead");
    const sub = await seedSub(t, { name: "Edit Brickwork" });
    const other = await seedSub(t, { name: "Other Brickwork", verificationStatus: "higher" });
    const inv = await seedInvoice(t, sub.id, { invoiceNumber: "ED-1", description: "Original", receivedDate: "2026-05-11" });

    const res = await b.get(editUrl(t, inv.id));
    expect(res.status).toBe(200);
    const doc = await page(res);
    expect(textOf(doc, "h2")).toBe("Edit Invoice ED-1");
    expect(valueOf(doc, "subcontractorId")).toBe(sub.id);
    expect(valueOf(doc, "invoiceNumber")).toBe("ED-1");
    expect(valueOf(doc, "gross")).toBe("1000.00");
    expect(valueOf(doc, "materials")).toBe("300.00");
    expect(valueOf(doc, "receivedDate")).toBe("2026-05-11");
    expect(valueOf(doc, "description")).toBe("Original");
    expect(figure(doc, "net")).toBe("£1,060.00");
    const text = pageText(doc);
    expect(text).toContain("Save");
    expect(text).not.toContain("Create Invoice");
    expect(text).not.toContain("Save & New");
    expect(doc.querySelector(`form[method="post"] a[href="/cis/invoices/${inv.id}"]`)?.textContent).toBe("Cancel");

    const saved = await b.post(editUrl(t, inv.id), invoiceForm(other.id, { invoiceNumber: "ED-1A", gross: "2000", materials: "", vatRate: "0" }));
    expect(saved.status, await saved.clone().text()).toBe(302);
    expect(location(saved)).toBe(`/cis/invoices/${inv.id}`);
    expect(await invoiceRow(inv.id)).toMatchObject({
      status: "draft",
      invoice_number: "ED-1A",
      subcontractor_id: other.id,
      subcontractor_name: "Other Brickwork",
      gross_p: 200_000,
      materials_p: 0,
      cis_rate: 30,
      cis_deduction_p: 60_000,
      vat_amount_p: 0,
      net_payment_p: 140_000,
    });
    expect(await count("audit_events", "tenant_id = ? AND action = 'cis.invoice.updated' AND target_id = ? AND actor_id = ?", t.id, inv.id, u.id)).toBe(1);
    expect(await nextToast(b, t)).toContain("Invoice ED-1A has been updated.");
    expect(await count("cis_invoices", "tenant_id = ?", t.id)).toBe(1);
  });

  it("refuses a duplicate number on edit next to the field", async () => {
    const { t, b } = await cisStaff("lead");
    const sub = await seedSub(t, { name: "Twin Numbers Ltd" });
    await seedInvoice(t, sub.id, { invoiceNumber: "TAKEN" });
    const inv = await seedInvoice(t, sub.id, { invoiceNumber: "MINE" });
    const res = await b.post(editUrl(t, inv.id), invoiceForm(sub.id, { invoiceNumber: "TAKEN" }));
    expect(res.status).toBe(409);
    expect(fieldMessage(await page(res), "invoiceNumber")).toBe(MESSAGES.duplicate);
    expect((await invoiceRow(inv.id))?.invoice_number).toBe("MINE");
    // Its own number is fine.
    expect((await b.post(editUrl(t, inv.id), invoiceForm(sub.id, { invoiceNumber: "MINE" }))).status).toBe(302);
  });

  it("sends an invoice that is no longer a draft to its page with 'Only draft invoices can be edited', and changes nothing", async () => {
    const { t, b } = await cisStaff("lead");
    const sub = await seedSub(t, { name: "Approved Tiling" });
    const inv = await seedInvoice(t, sub.id);
    expect((await approveInvoice(env, t.id, inv.id, SEEDER)).ok).toBe(true);
    const before = await invoiceRow(inv.id);

    const get = await b.get(editUrl(t, inv.id));
    expect(get.status).toBe(302);
    expect(location(get)).toBe(`/cis/invoices/${inv.id}`);
    expect(await nextToast(b, t)).toContain(MESSAGES.notEditable);

    for (const intent of ["save", "calculate"]) {
      const post = await b.post(editUrl(t, inv.id), invoiceForm(sub.id, { gross: "1", materials: "", intent }));
      expect(post.status, intent).toBe(302);
      expect(location(post)).toBe(`/cis/invoices/${inv.id}`);
    }
    expect(await invoiceRow(inv.id)).toEqual(before);
    expect(await count("audit_events", "tenant_id = ? AND action = 'cis.invoice.updated'", t.id)).toBe(0);
  });

  it("answers 404 for another tenant's invoice, an unknown id and a deleted invoice, and changes nothing", async () => {
    const { t, b } = await cisStaff("lead");
    const other = await createTenant({ modules: ["cis"] });
    const mine = await seedSub(t, { name: "Mine Ltd" });
    const theirs = await seedSub(other, { name: "Theirs Ltd" });
    const foreign = await seedInvoice(other, theirs.id, { invoiceNumber: "THEIRS" });
    const gone = await seedInvoice(t, mine.id, { invoiceNumber: "GONE" });
    expect((await deleteInvoice(env, t.id, gone.id, SEEDER)).ok).toBe(true);
    const foreignBefore = await invoiceRow(foreign.id);

    for (const id of [foreign.id, gone.id, "no-such-invoice"]) {
      const get = await b.get(editUrl(t, id));
      expect(get.status, id).toBe(404);
      expect(await get.text()).not.toContain("THEIRS");
      expect((await b.post(editUrl(t, id), invoiceForm(mine.id))).status, id).toBe(404);
      expect((await b.post(editUrl(t, id), invoiceForm(theirs.id, { intent: "calculate" }))).status, id).toBe(404);
    }
    expect(await invoiceRow(foreign.id)).toEqual(foreignBefore);
    expect(await count("cis_invoices", "tenant_id = ? AND deleted_at IS NULL", t.id)).toBe(0);
  });

  it("lists the draft's own subcontractor when archived since, and refuses to save against it", async () => {
    const { t, b } = await cisStaff("lead");
    const sub = await seedSub(t, { name: "Later Archived Ltd" });
    const inv = await seedInvoice(t, sub.id);
    await env.DB.prepare("UPDATE cis_subcontractors SET active = 0 WHERE id = ?").bind(sub.id).run();
    const doc = await page(await b.get(editUrl(t, inv.id)));
    expect(valueOf(doc, "subcontractorId")).toBe(sub.id);
    expect(options(doc, "subcontractorId").find((o) => o.value === sub.id)?.label).toBe("Later Archived Ltd (CIS 20%) - archived");
    // The new-invoice form does not offer it.
    expect(options(await page(await b.get(newUrl(t))), "subcontractorId").some((o) => o.value === sub.id)).toBe(false);
    const res = await b.post(editUrl(t, inv.id), invoiceForm(sub.id));
    expect(res.status).toBe(400);
    expect(fieldMessage(await page(res), "subcontractorId")).toBe(MESSAGES.archived);
  });
});

describe("who may use the form", () => {
  type Outcome = { newPage: 200 | 403; create: 302 | 403; editPage: 200 | 403; edit: 302 | 403 };
  const ALLOWED: Outcome = { newPage: 200, create: 302, editPage: 200, edit: 302 };
  const REFUSED: Outcome = { newPage: 403, create: 403, editPage: 403, edit: 403 };

  /** Every door of the form with `b`, checked against `expected`; nothing is written where refused. */
  async function check(label: string, t: TestTenant, b: Browser, expected: Outcome) {
    const sub = await seedSub(t, { name: `Matrix ${uid("s")}` });
    const inv = await seedInvoice(t, sub.id);
    const before = await invoiceRow(inv.id);
    const createdBefore = await count("cis_invoices", "tenant_id = ?", t.id);

    expect((await b.get(newUrl(t))).status, `${label} GET new`).toBe(expected.newPage);
    const calc = await b.post(newUrl(t), invoiceForm(sub.id, { intent: "calculate" }));
    expect(calc.status, `${label} POST new calculate`).toBe(expected.create === 302 ? 200 : 403);
    const create = await b.post(newUrl(t), invoiceForm(sub.id));
    expect(create.status, `${label} POST new`).toBe(expected.create);
    expect(await count("cis_invoices", "tenant_id = ?", t.id), `${label} rows`).toBe(createdBefore + (expected.create === 302 ? 1 : 0));

    expect((await b.get(editUrl(t, inv.id))).status, `${label} GET edit`).toBe(expected.editPage);
    const edit = await b.post(editUrl(t, inv.id), invoiceForm(sub.id, { invoiceNumber: "EDITED" }));
    expect(edit.status, `${label} POST edit`).toBe(expected.edit);
    if (expected.edit === 403) expect(await invoiceRow(inv.id), `${label} unchanged`).toEqual(before);
    else expect((await invoiceRow(inv.id))?.invoice_number).toBe("EDITED");
    // A refusal is a 403 for every id, known or not: nothing is learned about other invoices.
    if (expected.editPage === 403) expect((await b.get(editUrl(t, "no-such-invoice"))).status, `${label} GET edit unknown`).toBe(403);
  }

  // The default role bundles, written out by hand: cis.inv.write comes with coarse cis.write (lead) or cis.manage (admin).
  const ROLES: Record<Role, Outcome> = { standard: REFUSED, lead: ALLOWED, manager: REFUSED, admin: ALLOWED };
  for (const [role, expected] of Object.entries(ROLES) as [Role, Outcome][]) {
    it(`default ${role}: ${expected === ALLOWED ? "allowed" : "refused"} on new and edit, GET and POST`, async () => {
      const { t, b } = await cisStaff(role);
      await check(role, t, b, expected);
    });
  }

  const BUNDLES: { name: string; scopes: string[]; expect: Outcome }[] = [
    { name: "cis.inv.write alone: may create, may not open an invoice to edit", scopes: ["cis.inv.write"], expect: { ...ALLOWED, editPage: 403, edit: 403 } },
    { name: "coarse cis.write without read: the same", scopes: ["cis.write"], expect: { ...ALLOWED, editPage: 403, edit: 403 } },
    { name: "cis.inv.write and cis.inv.read: everything", scopes: ["cis.inv.write", "cis.inv.read"], expect: ALLOWED },
    {
      name: "cis.inv.read, cis.sub.write and cis.inv.approve: nothing",
      scopes: ["cis.inv.read", "cis.sub.write", "cis.inv.approve", "cis.inv.pay"],
      expect: REFUSED,
    },
    { name: "cis.read and cis.approve: nothing", scopes: ["cis.read", "cis.approve"], expect: REFUSED },
  ];
  for (const bundle of BUNDLES) {
    it(`fine scopes, ${bundle.name}`, async () => {
      const t = await createTenant({ modules: ["cis"], bundles: { lead: bundle.scopes } });
      const u = await createUser(t, { role: "lead" });
      const b = await signedIn(t, u);
      await check(bundle.name, t, b, bundle.expect);
    });
  }

  it("audits a refusal, sends a signed-out visitor to sign in, and answers 404 where CIS is off", async () => {
    const { t, u, b } = await cisStaff("standard");
    expect((await b.get(newUrl(t))).status).toBe(403);
    expect(await count("audit_events", "tenant_id = ? AND action = 'cis.permission.denied' AND actor_id = ?", t.id, u.id)).toBe(1);

    const anonymous = new Browser();
    const res = await anonymous.get(newUrl(t));
    expect(res.status).toBe(302);
    expect(location(res)).toContain("/login?redirectTo=%2Fcis%2Finvoices%2Fnew");

    const off = await createTenant({ modules: [] });
    const admin = await createUser(off, { role: "admin" });
    const ob = await signedIn(off, admin);
    expect((await ob.get(newUrl(off))).status).toBe(404);
  });

  it("refuses a post from another tenant's page (cross-site form) and saves nothing", async () => {
    const { t, b } = await cisStaff("lead");
    const other = await createTenant({ modules: ["cis"] });
    const sub = await seedSub(t, { name: "Csrf Target Ltd" });
    const res = await b.post(newUrl(t), invoiceForm(sub.id), { origin: other.origin });
    expect(res.status).toBe(403);
    expect(await count("cis_invoices", "tenant_id = ?", t.id)).toBe(0);
  });
});
