import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { Role } from "~/db/schema";
import { invoiceAmounts, invoiceSchema, taxMonthOfDate } from "~/features/cis/domain";
import { IMPORT_ROW_MESSAGES, INVOICE_ROWS_PER_INSERT } from "~/features/cis/invoices/import.server";
import { deleteInvoice } from "~/features/cis/invoices/transitions.server";
import { createInvoice } from "~/features/cis/invoices/form.server";
import { INVOICE_ERROR_MESSAGES } from "~/features/cis/invoices/invoice-codes";
import { archiveSubcontractors } from "~/features/cis/subcontractors/subcontractors.server";
import { createTenant, type TestTenant } from "../factories";
import { cisStaff, seedSub } from "../factories/cis";
import { all, pageText, parseHtml, shownText, valueOf } from "../factories/html";
import { count } from "./auth-helpers";
import type { Browser } from "./http";
import { location } from "./http";

const BOM = "\uFEFF";
const HEADER = "Invoice Number,Subcontractor,Invoice Date,Received Date,Description,Gross,Materials,VAT Rate,Reverse Charge,Materials Justification";
const SEEDER = { id: "seed", email: "seed@example.test", name: "Seeder" };

const url = (t: TestTenant) => `${t.origin}/cis/invoices/import`;

function csvForm(text: string, opts: { name?: string } = {}) {
  const form = new FormData();
  form.set("intent", "preview");
  form.set("file", new File([text], opts.name ?? "invoices.csv", { type: "text/csv" }));
  return form;
}

/** Whether the page offers the Import step (only a file whose every row is valid is kept). */
const offersImport = (html: string) => all(parseHtml(html), 'input[name="importId"]').length > 0;

function importIdFrom(html: string): string {
  const id = valueOf(parseHtml(html), "importId");
  if (!id) throw new Error("No import id in the preview");
  return id;
}

type ShownRow = { status: string; messages: string[]; warnings: string[]; cells: Record<string, string> };

/** Each previewed row by its data-row number: its result, messages and the computed amount cells. */
function previewRows(html: string): Record<number, ShownRow> {
  return Object.fromEntries(
    all(parseHtml(html), "[data-row][data-status]").map((el) => [
      Number(el.getAttribute("data-row")),
      {
        status: el.getAttribute("data-status") ?? "",
        messages: all(el, '[data-message="error"]').map((m) => (m.textContent ?? "").trim()),
        warnings: all(el, '[data-message="warning"]').map((m) => (m.textContent ?? "").trim()),
        cells: Object.fromEntries(all(el, "[data-cell]").map((c) => [c.getAttribute("data-cell") ?? "", (c.textContent ?? "").trim()])),
      },
    ]),
  );
}

const statuses = (html: string) => Object.fromEntries(Object.entries(previewRows(html)).map(([k, v]) => [Number(k), v.status]));

async function preview(b: Browser, t: TestTenant, text: string) {
  const res = await b.post(url(t), csvForm(text));
  return { res, html: await res.text() };
}

async function commit(b: Browser, t: TestTenant, importId: string, expected: number) {
  return b.post(url(t), { intent: "commit", importId, expected: String(expected) });
}

/** A draft created through the data layer, as the form would. */
async function existingInvoice(t: TestTenant, subcontractorId: string, invoiceNumber: string) {
  const input = invoiceSchema.parse({ subcontractorId, invoiceNumber, invoiceDate: "2026-05-01", grossP: 10_000, materialsP: 0, vatRate: 0 });
  const res = await createInvoice(env, t.id, input, SEEDER);
  if (!res.ok) throw new Error(res.code);
  return res.id;
}

const invoicesOf = (t: TestTenant) => count("cis_invoices", "tenant_id = ?", t.id);

describe("invoice CSV import: preview", () => {
  it("lists valid and invalid rows with row numbers, lines and the form's own messages, writes nothing and offers no import", async () => {
    const { t, b } = await cisStaff("admin");
    await seedSub(t, { name: "Bob Builder", verificationStatus: "standard" });
    const file = [
      `${HEADER},Notes`,
      "INV-1,Bob Builder,2026-05-10,,Groundworks,1000.00,200.00,20,no,,ignored",
      "INV-2,bob builder,10/05/2026,,,-5,,0,,,",
      "INV-3,Bob Builder,2026-13-45,,,100,150,0,,,",
      ",Bob Builder,2026-05-10,,,100,,7,maybe,,",
      "",
      "INV-5,Bob Builder,2026-05-10,,,1000,850,0,,too short,",
      `${"N".repeat(51)},Bob Builder,2026-05-10,,,,,0,,,`,
    ].join("\r\n");
    const before = await invoicesOf(t);
    const { res, html } = await preview(b, t, file);
    expect(res.status).toBe(200);
    const rows = previewRows(html);
    // Row = data row (the blank line 6 is skipped but still counted).
    expect(statuses(html)).toEqual({ 1: "valid", 2: "invalid", 3: "invalid", 4: "invalid", 6: "invalid", 7: "invalid" });
    expect(rows[1].messages).toEqual([]);
    expect(rows[2].messages).toEqual(["Gross: Enter an amount of £0.00 or more"]);
    expect(rows[3].messages).toEqual([
      "Invoice Date: Invoice date must be a real date",
      "Materials: Materials must be the same as or less than the gross amount",
    ]);
    expect(rows[4].messages).toEqual([
      "Invoice Number: Enter the invoice number",
      "VAT Rate: Select a VAT rate: 0%, 5% or 20%",
      "Reverse Charge: Reverse Charge must be yes or no",
    ]);
    expect(rows[6].messages).toEqual([
      "Materials Justification: Materials are 80% or more of the gross amount: enter a note of at least 10 characters saying why",
    ]);
    expect(rows[7].messages).toEqual(["Invoice Number: Invoice number must be 50 characters or less", "Gross: Enter an amount"]);
    // The 60% warning does not block a row by itself; the 80% rule does.
    expect(rows[6].warnings).toEqual(["High materials percentage (85%) - please verify this is correct"]);
    const text = pageText(parseHtml(html));
    expect(text).toContain("Ignored columns: Notes");
    expect(text).toContain("1 valid");
    expect(text).toContain("Nothing can be imported until every row is valid");
    // All or nothing: a file with any invalid row is not kept and offers no Import button.
    expect(offersImport(html)).toBe(false);
    expect(text).not.toMatch(/Import \d+ invoice/);
    expect(await invoicesOf(t)).toBe(before);
    expect(await count("audit_events", "tenant_id = ? AND action LIKE 'cis.import.%'", t.id)).toBe(0);
  });

  it("shows the amounts the server calculates at each subcontractor's rate (standard, gross, higher; VAT and reverse charge)", async () => {
    const { t, b } = await cisStaff("admin");
    await seedSub(t, { name: "Standard Sam", verificationStatus: "standard" });
    await seedSub(t, { name: "Gross Gina", verificationStatus: "gross" });
    await seedSub(t, { name: "Higher Hal", verificationStatus: "higher" });
    const file = [
      HEADER,
      "S-1,Standard Sam,2026-05-10,,,1000.00,200.00,20,no,",
      'G-1,Gross Gina,2026-05-10,,,"£1,000.00",0,20,no,',
      "H-1,Higher Hal,2026-05-10,,,1000.01,0.01,5,yes,",
    ].join("\n");
    const { html } = await preview(b, t, file);
    const rows = previewRows(html);
    // 1000 - 200 = 800 labour; 20% = 160 CIS; VAT 200; net 1000 + 200 - 160.
    expect(rows[1].cells).toEqual({ gross: "£1,000.00", materials: "£200.00", cis: "£160.00at 20%", net: "£1,040.00" });
    expect(rows[2].cells).toEqual({ gross: "£1,000.00", materials: "£0.00", cis: "£0.00at 0%", net: "£1,200.00" });
    // Reverse charge: no VAT; 30% of 1000.00 labour = 300.00; net = gross - deduction.
    expect(rows[3].cells).toEqual({ gross: "£1,000.01", materials: "£0.01", cis: "£300.00at 30%", net: "£700.01" });
    expect(pageText(parseHtml(html))).toContain("Import 3 invoices as drafts");
  });

  it("matches subcontractors by name or UTR among this tenant's active ones: unknown, archived, ambiguous and another tenant's names are row errors", async () => {
    const { t, b } = await cisStaff("admin");
    const bob = await seedSub(t, { name: "Bob Builder" });
    await seedSub(t, { name: "Twin Name" });
    await seedSub(t, { name: "twin name" });
    const old = await seedSub(t, { name: "Old Timer" }, { archived: true });
    const other = await createTenant({ modules: ["cis"] });
    const foreign = await seedSub(other, { name: "Foreign Builder" });
    const file = [
      HEADER,
      `A-1,${bob.utr.slice(0, 5)} ${bob.utr.slice(5)},2026-05-10,,,100,,0,,`,
      "A-2,Nobody Here,2026-05-10,,,100,,0,,",
      "A-3,Old Timer,2026-05-10,,,100,,0,,",
      `A-4,${old.utr},2026-05-10,,,100,,0,,`,
      "A-5,TWIN NAME,2026-05-10,,,100,,0,,",
      "A-6,Foreign Builder,2026-05-10,,,100,,0,,",
      `A-7,${foreign.utr},2026-05-10,,,100,,0,,`,
      "A-8,,2026-05-10,,,100,,0,,",
    ].join("\n");
    const { html } = await preview(b, t, file);
    const rows = previewRows(html);
    expect(statuses(html)).toEqual({ 1: "valid", 2: "invalid", 3: "invalid", 4: "invalid", 5: "invalid", 6: "invalid", 7: "invalid", 8: "invalid" });
    expect(rows[2].messages).toEqual(["Subcontractor: Subcontractor not found: 'Nobody Here'"]);
    expect(rows[3].messages).toEqual([`Subcontractor: ${INVOICE_ERROR_MESSAGES.subcontractor_archived}`]);
    expect(rows[3].messages[0]).toContain("Archived subcontractors cannot be used for new invoices");
    expect(rows[4].messages).toEqual([`Subcontractor: ${INVOICE_ERROR_MESSAGES.subcontractor_archived}`]);
    expect(rows[5].messages).toEqual([`Subcontractor: ${IMPORT_ROW_MESSAGES.ambiguous("TWIN NAME")}`]);
    expect(rows[6].messages).toEqual(["Subcontractor: Subcontractor not found: 'Foreign Builder'"]);
    expect(rows[7].messages).toEqual(["Subcontractor: Subcontractor not found: no subcontractor has this UTR"]);
    expect(rows[8].messages).toEqual(["Subcontractor: Enter the subcontractor's name or 10-digit UTR"]);
    // The row matched by UTR shows the subcontractor's name, and the UTR never goes back to the page.
    expect(pageText(parseHtml(html))).toContain("Bob Builder");
    for (const utr of [old.utr, foreign.utr, bob.utr]) expect(html).not.toContain(utr);
    expect(pageText(parseHtml(html))).toContain(`******${old.utr.slice(6)}`);
  });

  it("refuses a number repeated for one subcontractor within the file or already on file (a deleted invoice frees its number)", async () => {
    const { t, b } = await cisStaff("admin");
    const bob = await seedSub(t, { name: "Bob Builder" });
    await seedSub(t, { name: "Wendy Works" });
    await existingInvoice(t, bob.id, "TAKEN-1");
    const freed = await existingInvoice(t, bob.id, "FREED-1");
    expect((await deleteInvoice(env, t.id, freed, SEEDER)).ok).toBe(true);
    const file = [
      HEADER,
      "N-1,Bob Builder,2026-05-10,,,100,,0,,",
      "N-1,Wendy Works,2026-05-10,,,100,,0,,",
      "N-1,bob builder,2026-05-11,,,200,,0,,",
      "TAKEN-1,Bob Builder,2026-05-10,,,100,,0,,",
      "TAKEN-1,Wendy Works,2026-05-10,,,100,,0,,",
      "FREED-1,Bob Builder,2026-05-10,,,100,,0,,",
    ].join("\n");
    const { html } = await preview(b, t, file);
    const rows = previewRows(html);
    expect(statuses(html)).toEqual({ 1: "valid", 2: "valid", 3: "duplicate", 4: "duplicate", 5: "valid", 6: "valid" });
    expect(rows[3].messages).toEqual([IMPORT_ROW_MESSAGES.duplicateInFile(1)]);
    expect(rows[4].messages).toEqual([INVOICE_ERROR_MESSAGES.duplicate_number]);
    expect(offersImport(html)).toBe(false);
  });

  it("refuses files over 1 MB or 1,000 rows, a missing column and non-CSV input, with clear messages", async () => {
    const { t, b } = await cisStaff("admin");
    await seedSub(t, { name: "Bob Builder" });
    const tooBig = await b.post(url(t), csvForm(`${HEADER}\n${"x".repeat(1024 * 1024)}\n`));
    expect(tooBig.status).toBe(413);
    expect(await shownText(tooBig)).toContain("larger than 1 MB");
    const many = [HEADER, ...Array.from({ length: 1001 }, (_, i) => `M-${i},Bob Builder,2026-05-10,,,100,,0,,`)].join("\n");
    const tooMany = await b.post(url(t), csvForm(many));
    expect(tooMany.status).toBe(400);
    expect(await shownText(tooMany)).toContain("1,001 data rows; the limit is 1,000 rows");
    const missing = await b.post(url(t), csvForm("Invoice Number,Description\nX,Y\n"));
    expect(missing.status).toBe(400);
    expect(await shownText(missing)).toContain("Missing required columns: Subcontractor, Invoice Date, Gross");
    const broken = await b.post(url(t), csvForm(`${HEADER}\n"never closed,Bob Builder\n`));
    expect(broken.status).toBe(400);
    expect(await shownText(broken)).toContain("not valid CSV");
    expect((await b.post(url(t), csvForm("%PDF-1.4", { name: "x.pdf" }))).status).toBe(400);
    expect(await invoicesOf(t)).toBe(0);
  });

  it("reads the invoice export's own columns (Date; CIS and Net ignored; Status must be blank or draft)", async () => {
    const { t, b } = await cisStaff("admin");
    await seedSub(t, { name: "Bob Builder" });
    const file = [
      "Invoice Number,Subcontractor,Date,Gross,Materials,CIS,Net,Status",
      "E-1,Bob Builder,2026-05-10,100.00,0.00,999.00,1.00,Draft",
      "E-2,Bob Builder,2026-05-10,100.00,0.00,20.00,80.00,",
      "E-3,Bob Builder,2026-05-10,100.00,0.00,20.00,80.00,Paid",
    ].join("\n");
    const { html } = await preview(b, t, file);
    const rows = previewRows(html);
    expect(statuses(html)).toEqual({ 1: "valid", 2: "valid", 3: "invalid" });
    expect(rows[3].messages).toEqual([`Status: ${IMPORT_ROW_MESSAGES.notDraft}`]);
    // The file's CIS figure is not taken: the server's is shown.
    expect(rows[1].cells.cis).toBe("£20.00at 20%");
    expect(pageText(parseHtml(html))).toContain("Ignored columns: CIS, Net");
  });
});

describe("invoice CSV import: commit", () => {
  it("creates every row as a draft with server-computed amounts, one audit entry per invoice and one for the import, in one go", async () => {
    const { t, u, b } = await cisStaff("admin");
    const sam = await seedSub(t, { name: "Standard Sam", verificationStatus: "standard" });
    const hal = await seedSub(t, { name: "Higher Hal", verificationStatus: "higher" });
    const file = [
      HEADER,
      "S-1,Standard Sam,06/05/2026,07/05/2026,Groundworks phase 1,1000.00,200.00,20,no,",
      `H-1,${hal.utr},2026-05-05,,,"£2,500.50",2100.00,5,yes,Steel supplied by us for the frame`,
    ].join("\r\n");
    const { html } = await preview(b, t, file);
    const importId = importIdFrom(html);
    const res = await commit(b, t, importId, 2);
    expect(res.status).toBe(302);
    expect(location(res)).toBe("/cis/invoices");
    const rows = await env.DB.prepare("SELECT * FROM cis_invoices WHERE tenant_id = ? ORDER BY invoice_number").bind(t.id).all<Record<string, unknown>>();
    expect(rows.results).toHaveLength(2);
    const [h1, s1] = rows.results;
    expect(s1).toMatchObject({
      invoice_number: "S-1",
      subcontractor_id: sam.id,
      subcontractor_name: "Standard Sam",
      status: "draft",
      source: "staff",
      invoice_date: "2026-05-06",
      received_date: "2026-05-07",
      description: "Groundworks phase 1",
      tax_month: "2026-05",
      cis_rate: 20,
      reverse_charge: 0,
      created_by: u.id,
      deleted_at: null,
      ...snake(invoiceAmounts({ grossP: 100_000, materialsP: 20_000, cisRate: 20, vatRate: 20, reverseCharge: false })),
    });
    expect(s1).toMatchObject({ labour_p: 80_000, cis_deduction_p: 16_000, vat_amount_p: 20_000, net_payment_p: 104_000 });
    // 5 May is before the 6th: the April tax month.
    expect(taxMonthOfDate("2026-05-05").label).toBe("2026-04");
    expect(h1).toMatchObject({
      invoice_number: "H-1",
      subcontractor_id: hal.id,
      status: "draft",
      tax_month: "2026-04",
      cis_rate: 30,
      reverse_charge: 1,
      materials_justification: "Steel supplied by us for the frame",
      gross_p: 250_050,
      materials_p: 210_000,
      labour_p: 40_050,
      // 30% of 400.50 = 120.15; reverse charge: no VAT, net = gross - deduction.
      cis_deduction_p: 12_015,
      vat_amount_p: 0,
      net_payment_p: 238_035,
    });
    const created = await env.DB.prepare("SELECT target_id, actor_id, payload FROM audit_events WHERE tenant_id = ? AND action = 'cis.invoice.created'")
      .bind(t.id)
      .all<{ target_id: string; actor_id: string; payload: string }>();
    expect(created.results.map((r) => r.target_id).sort()).toEqual(rows.results.map((r) => r.id).sort());
    expect(created.results.every((r) => r.actor_id === u.id)).toBe(true);
    expect(JSON.parse(created.results.find((r) => r.target_id === s1.id)!.payload)).toEqual({
      source: "import",
      subcontractorId: sam.id,
      grossP: 100_000,
      cisDeductionP: 16_000,
    });
    const summary = await env.DB.prepare("SELECT actor_id, payload FROM audit_events WHERE tenant_id = ? AND action = 'cis.import.invoices'")
      .bind(t.id)
      .all<{ actor_id: string; payload: string }>();
    expect(summary.results.map((r) => [r.actor_id, JSON.parse(r.payload)])).toEqual([[u.id, { entity: "invoices", format: "csv", count: 2 }]]);
    expect(await count("activity_log", "tenant_id = ? AND action = 'invoices.imported'", t.id)).toBe(1);
    // The upload is gone: the same id cannot import twice.
    expect(await env.FILES.head(`tenants/${t.id}/imports/${importId}.csv`)).toBeNull();
    expect((await commit(b, t, importId, 2)).status).toBe(404);
    expect(await invoicesOf(t)).toBe(2);
  });

  it("is all or nothing at commit time: a subcontractor archived since the preview stops the whole import", async () => {
    const { t, b } = await cisStaff("admin");
    await seedSub(t, { name: "Stays Active" });
    const leaving = await seedSub(t, { name: "Leaves Soon" });
    const file = [HEADER, "C-1,Stays Active,2026-05-10,,,100,,0,,", "C-2,Leaves Soon,2026-05-10,,,100,,0,,"].join("\n");
    const { html } = await preview(b, t, file);
    const importId = importIdFrom(html);
    await archiveSubcontractors(env, t.id, [leaving.id], SEEDER);
    const res = await commit(b, t, importId, 2);
    expect(res.status).toBe(409);
    const again = await res.text();
    expect(pageText(parseHtml(again))).toContain("The data changed since your preview");
    expect(statuses(again)).toEqual({ 1: "valid", 2: "invalid" });
    expect(previewRows(again)[2].messages).toEqual([`Subcontractor: ${INVOICE_ERROR_MESSAGES.subcontractor_archived}`]);
    expect(await invoicesOf(t)).toBe(0);
    expect(await count("audit_events", "tenant_id = ? AND action IN ('cis.invoice.created', 'cis.import.invoices')", t.id)).toBe(0);
    // Not a single row went in, and the changed file cannot be committed as it stands.
    expect(offersImport(again)).toBe(false);
    expect((await commit(b, t, importId, 1)).status).toBe(404);
  });

  it("is all or nothing at commit time: a number taken since the preview stops the whole import", async () => {
    const { t, b } = await cisStaff("admin");
    const bob = await seedSub(t, { name: "Bob Builder" });
    const file = [HEADER, ...Array.from({ length: 5 }, (_, i) => `R-${i},Bob Builder,2026-05-10,,,100,,0,,`)].join("\n");
    const { html } = await preview(b, t, file);
    await existingInvoice(t, bob.id, "R-3");
    const res = await commit(b, t, importIdFrom(html), 5);
    expect(res.status).toBe(409);
    expect(statuses(await res.text())).toEqual({ 1: "valid", 2: "valid", 3: "valid", 4: "duplicate", 5: "valid" });
    expect(await invoicesOf(t)).toBe(1);
  });

  it("importInvoices writes nothing when the batch fails part-way (the unique index refuses a number taken in the race)", async () => {
    const { importInvoices } = await import("~/features/cis/invoices/import.server");
    const t = await createTenant({ modules: ["cis"] });
    const bob = await seedSub(t, { name: "Bob Builder" });
    const sub = { id: bob.id, name: "Bob Builder", utrMasked: null, ninoMasked: null, verificationRate: 20 };
    const item = (n: string) => ({
      input: invoiceSchema.parse({ subcontractorId: bob.id, invoiceNumber: n, invoiceDate: "2026-05-10", grossP: 100, vatRate: 0, materialsP: 0 }),
      sub,
    });
    // Within the call: a repeated number is refused before anything is written.
    expect(await importInvoices(env, t.id, [item("X-1"), item("X-2"), item("X-1")], SEEDER)).toEqual({ ok: false, code: "conflict" });
    expect(await invoicesOf(t)).toBe(0);
    // No such tenant: the invoice inserts break the foreign key after the audit rows of the same
    // batch were written; the batch must roll those back.
    const ghost = "no-such-tenant-for-invoice-atomicity";
    await expect(importInvoices(env, ghost, [item("G-1"), item("G-2"), item("G-3"), item("G-4")], SEEDER)).rejects.toThrow();
    expect(await count("audit_events", "tenant_id = ?", ghost)).toBe(0);
    expect(await count("activity_log", "tenant_id = ?", ghost)).toBe(0);
    expect(await count("cis_invoices", "tenant_id = ?", ghost)).toBe(0);
  });

  it("commits a maximum-size file (1,000 rows) in one batch, every row within D1's bound-parameter limit", async () => {
    const { t, b } = await cisStaff("admin");
    // Every optional column filled, so each row binds as many parameters as a row can.
    const subs = [];
    for (let i = 0; i < 4; i++) subs.push(await seedSub(t, { name: `Max Builder ${i}` }));
    const rows = Array.from(
      { length: 1000 },
      (_, i) =>
        `MAX-${String(i).padStart(4, "0")},Max Builder ${i % 4},2026-05-10,2026-05-11,Work item ${i},${1000 + i}.99,${900 + (i % 50)}.00,20,${i % 2 ? "yes" : "no"},Materials bought by the subcontractor for job ${i}`,
    );
    const { html } = await preview(b, t, [HEADER, ...rows].join("\n"));
    expect(pageText(parseHtml(html))).toContain("Import 1000 invoices as drafts");
    const res = await commit(b, t, importIdFrom(html), 1000);
    expect(res.status).toBe(302);
    expect(await invoicesOf(t)).toBe(1000);
    expect(
      await count("cis_invoices", "tenant_id = ? AND status = 'draft' AND received_date = '2026-05-11' AND materials_justification IS NOT NULL", t.id),
    ).toBe(1000);
    expect(await count("audit_events", "tenant_id = ? AND action = 'cis.invoice.created'", t.id)).toBe(1000);
    expect(await count("audit_events", "tenant_id = ? AND action = 'cis.import.invoices'", t.id)).toBe(1);
    // 3 rows per INSERT: a full row binds 32 parameters, so 3 rows bind 96 (D1 allows 100).
    expect(INVOICE_ROWS_PER_INSERT * 32).toBeLessThanOrEqual(100);
  });

  it("stores formula-looking cells as plain text and shows them escaped", async () => {
    const { t, b } = await cisStaff("admin");
    await seedSub(t, { name: "Bob Builder" });
    const file = [
      HEADER,
      `"=HYPERLINK(""http://evil.test"",""x"")",Bob Builder,2026-05-10,,"=cmd|' /C calc'!A0",100,,0,,`,
      `'+1 234,Bob Builder,2026-05-10,,@SUM(A1),100,,0,,`,
      `<b>bold</b>,Bob Builder,2026-05-10,,<script>alert(1)</script>,100,,0,,`,
    ].join("\n");
    const { html } = await preview(b, t, file);
    expect(statuses(html)).toEqual({ 1: "valid", 2: "valid", 3: "valid" });
    expect(html).not.toContain("<b>bold</b>");
    expect(html).not.toContain("<script>alert(1)</script>");
    expect((await commit(b, t, importIdFrom(html), 3)).status).toBe(302);
    const stored = await env.DB.prepare("SELECT invoice_number, description FROM cis_invoices WHERE tenant_id = ? ORDER BY invoice_number")
      .bind(t.id)
      .all<{ invoice_number: string; description: string }>();
    // Kept exactly as typed (the export's own quote prefix undone); exports neutralise them again.
    expect(stored.results).toEqual([
      { invoice_number: "+1 234", description: "@SUM(A1)" },
      { invoice_number: "<b>bold</b>", description: "<script>alert(1)</script>" },
      { invoice_number: '=HYPERLINK("http://evil.test","x")', description: "=cmd|' /C calc'!A0" },
    ]);
  });

  it("refuses another tenant's or another user's upload id", async () => {
    const { t: a, b: ba } = await cisStaff("admin");
    await seedSub(a, { name: "Bob Builder" });
    const { html } = await preview(ba, a, `${HEADER}\nX-1,Bob Builder,2026-05-10,,,100,,0,,\n`);
    const importId = importIdFrom(html);
    const { t: other, b: bb } = await cisStaff("admin");
    const res = await commit(bb, other, importId, 1);
    expect(res.status).toBe(404);
    expect(await shownText(res)).toContain("This upload has expired or was not found");
    const { b: colleague } = await cisStaff("admin", { tenant: a });
    expect((await commit(colleague, a, importId, 1)).status).toBe(404);
    expect(await count("cis_invoices", "tenant_id IN (?, ?)", a.id, other.id)).toBe(0);
    expect((await commit(ba, a, importId, 1)).status).toBe(302);
    expect(await invoicesOf(a)).toBe(1);
  });

  it("serves the header-only template, and cancel deletes the stored upload", async () => {
    const { t, b } = await cisStaff("admin");
    const tpl = await b.get(`${url(t)}?template=csv`);
    expect(tpl.status).toBe(200);
    expect(tpl.headers.get("Content-Disposition")).toContain("cis-invoices-import-template.csv");
    expect(new TextDecoder("utf-8", { ignoreBOM: true }).decode(await tpl.arrayBuffer())).toBe(`${BOM}${HEADER},Status\r\n`);
    await seedSub(t, { name: "Bob Builder" });
    const { html } = await preview(b, t, `${HEADER}\nX-1,Bob Builder,2026-05-10,,,100,,0,,\n`);
    const importId = importIdFrom(html);
    const res = await b.post(url(t), { intent: "cancel", importId });
    expect(res.status).toBe(302);
    expect(await env.FILES.head(`tenants/${t.id}/imports/${importId}.csv`)).toBeNull();
    expect(await invoicesOf(t)).toBe(0);
  });
});

describe("invoice CSV import: permissions", () => {
  const FILE = `${HEADER}\nP-1,Perm Builder,2026-05-10,,,100,,0,,\n`;

  async function tryAll(t: TestTenant, b: Browser) {
    const get = (await b.get(url(t))).status;
    const template = (await b.get(`${url(t)}?template=csv`)).status;
    const post = await b.post(url(t), csvForm(FILE));
    return { get, template, post: post.status, html: await post.text() };
  }

  // Default bundles: only admin (cis.manage) holds both cis.import and cis.write.
  const matrix: { role: Role; ok: boolean }[] = [
    { role: "standard", ok: false },
    { role: "lead", ok: false },
    { role: "manager", ok: false },
    { role: "admin", ok: true },
  ];
  for (const { role, ok } of matrix) {
    it(`${role}: ${ok ? "allowed" : "403"} with the default role bundles`, async () => {
      const { t, b } = await cisStaff(role);
      await seedSub(t, { name: "Perm Builder" });
      const r = await tryAll(t, b);
      expect([r.get, r.template, r.post]).toEqual(ok ? [200, 200, 200] : [403, 403, 403]);
      if (!ok) expect(await count("audit_events", "tenant_id = ? AND action = 'cis.permission.denied'", t.id)).toBeGreaterThan(0);
    });
  }

  it("needs cis.io.import and cis.inv.write (fine or coarse), checked on the preview and again on the commit", async () => {
    const t = await createTenant({
      modules: ["cis"],
      bundles: {
        standard: ["cis.read", "cis.io.import", "cis.inv.write"],
        lead: ["cis.read", "cis.import", "cis.write"],
        manager: ["cis.read", "cis.io.import", "cis.sub.write", "cis.inv.approve"],
        admin: ["cis.read", "cis.write", "cis.export"],
      },
    });
    await seedSub(t, { name: "Perm Builder" });
    const { b: fine } = await cisStaff("standard", { tenant: t });
    const { b: coarse } = await cisStaff("lead", { tenant: t });
    const { b: noInvoiceWrite } = await cisStaff("manager", { tenant: t });
    const { b: noImport } = await cisStaff("admin", { tenant: t });
    expect((await tryAll(t, fine)).post).toBe(200);
    expect((await tryAll(t, coarse)).post).toBe(200);
    expect(await tryAll(t, noInvoiceWrite)).toMatchObject({ get: 403, template: 403, post: 403 });
    expect(await tryAll(t, noImport)).toMatchObject({ get: 403, template: 403, post: 403 });

    const importId = importIdFrom((await tryAll(t, fine)).html);
    // cis.inv.write taken away between preview and commit: the commit is refused.
    await env.DB.prepare("UPDATE role_bundles SET scopes = ? WHERE tenant_id = ? AND name = 'standard'")
      .bind(JSON.stringify(["cis.read", "cis.io.import"]), t.id)
      .run();
    expect((await commit(fine, t, importId, 1)).status).toBe(403);
    expect(await invoicesOf(t)).toBe(0);
    // The coarse holder commits their own upload.
    const coarseId = importIdFrom((await tryAll(t, coarse)).html);
    expect((await commit(coarse, t, coarseId, 1)).status).toBe(302);
    expect(await invoicesOf(t)).toBe(1);
  });

  it("answers 404 where the CIS module is off", async () => {
    const { createUser } = await import("../factories");
    const { signIn } = await import("./auth-helpers");
    const t = await createTenant();
    const b = await signIn(t, await createUser(t, { role: "admin" }));
    expect((await b.get(url(t))).status).toBe(404);
    expect((await b.post(url(t), csvForm(FILE))).status).toBe(404);
  });
});

/** invoiceAmounts' fields as the table's column names. */
function snake(amounts: object): Record<string, unknown> {
  return Object.fromEntries(Object.entries(amounts).map(([k, v]) => [k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`), v]));
}
