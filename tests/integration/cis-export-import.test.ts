import { env } from "cloudflare:workers";
import { formatInTimeZone } from "date-fns-tz";
import { describe, expect, it } from "vitest";
import type { Role } from "~/db/schema";
import { createTenant, type TestTenant } from "../factories";
import { cisStaff, seedSub, subInput, validUtr } from "../factories/cis";
import { all, hrefs, page, pageText, parseHtml, shownText, valueOf } from "../factories/html";
import { count } from "./auth-helpers";
import { Browser, location } from "./http";

const BOM = "\uFEFF";
const HEADER = "Name,Type,UTR,NINO,Email,Phone,Status,Verification Rate,Public Body";

async function exportCsv(b: Browser, t: TestTenant, filters: Record<string, string> = {}) {
  return b.post(`${t.origin}/cis/subcontractors/export`, filters);
}

const lines = (body: string) =>
  body
    .replace(/^\uFEFF/, "")
    .split("\r\n")
    .slice(0, -1);

async function seedFour(t: TestTenant) {
  await seedSub(t, { name: "Alice Able", utr: "5334567890", nino: "AB123456C", email: "alice@example.com", phone: "07700900123" });
  await seedSub(t, { name: "Bravo Ltd", type: "company", utr: "3333333333", companyNumber: "12345678", verificationStatus: "gross" }, { archived: true });
  await seedSub(t, { name: '=HYPERLINK("x")', utr: "2222222222" });
  await seedSub(t, { name: "+44 Builders", type: "partnership", utr: "1111111111", verificationStatus: "higher" });
}

describe("subcontractor CSV export", () => {
  it("answers a download of masked values, neutralised formulas, in the list's order, and audits it", async () => {
    const { t, u, b } = await cisStaff("admin");
    await seedFour(t);
    const res = await exportCsv(b, t);
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
    const today = formatInTimeZone(new Date(), "Europe/London", "yyyy-MM-dd");
    expect(res.headers.get("Content-Disposition")).toBe(`attachment; filename="cis-subcontractors-${today}.csv"`);
    const bytes = new Uint8Array(await res.arrayBuffer());
    // The BOM must be there as bytes EF BB BF for Excel (text() would strip it).
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const body = new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes);
    expect(body.startsWith(BOM)).toBe(true);
    expect(lines(body)).toEqual([
      HEADER,
      "'+44 Builders,Partnership,******1111,,,,Active,30%,no",
      `"'=HYPERLINK(""x"")",Individual,******2222,,,,Active,20%,no`,
      "Alice Able,Individual,******7890,AB****56C,a***@e***.com,********123,Active,20%,no",
      "Bravo Ltd,Company,******3333,,,,Archived,0%,no",
    ]);
    expect(body).not.toContain("5334567890");
    expect(body).not.toContain("AB123456C");
    expect(body).not.toContain("alice@example.com");
    const audit = await env.DB.prepare("SELECT actor_id, payload FROM audit_events WHERE tenant_id = ? AND action = 'cis.export.subcontractors'")
      .bind(t.id)
      .all<{ actor_id: string; payload: string }>();
    expect(audit.results).toHaveLength(1);
    expect(audit.results[0].actor_id).toBe(u.id);
    expect(JSON.parse(audit.results[0].payload)).toEqual({ entity: "subcontractors", format: "csv", rowCount: 4 });
  });

  it("honours the list's q/status/type filters and never includes another tenant's rows", async () => {
    const { t, b } = await cisStaff("lead");
    await seedFour(t);
    const other = await createTenant({ modules: ["cis"] });
    await seedSub(other, { name: "Alice Other-Tenant", utr: "9999999999" });
    const names = async (filters: Record<string, string>) => {
      const res = await exportCsv(b, t, filters);
      expect(res.status).toBe(200);
      return lines(await res.text())
        .slice(1)
        .map((l) => l.split(",")[0]);
    };
    expect(await names({ status: "archived" })).toEqual(["Bravo Ltd"]);
    expect(await names({ status: "active", type: "individual" })).toEqual(['"\'=HYPERLINK(""x"")"', "Alice Able"]);
    expect(await names({ q: "alice" })).toEqual(["Alice Able"]);
    expect(await names({ q: "53345 67890" })).toEqual(["Alice Able"]);
    expect(await names({ q: "12345678" })).toEqual(["Bravo Ltd"]);
    expect(await names({})).toHaveLength(4);
    const audits = await env.DB.prepare("SELECT payload FROM audit_events WHERE tenant_id = ? AND action = 'cis.export.subcontractors' ORDER BY created_at")
      .bind(t.id)
      .all<{ payload: string }>();
    expect(audits.results.map((a) => JSON.parse(a.payload).rowCount)).toEqual([1, 2, 1, 1, 1, 4]);
  });

  it("pages through more rows than one chunk without skipping or repeating any", async () => {
    const { t, b } = await cisStaff("manager");
    const { exportSubcontractors } = await import("~/features/cis/subcontractors/export.server");
    for (let i = 0; i < 7; i++) await seedSub(t, { name: i % 2 ? "Same Name" : `Name ${i}`, utr: validUtr(500000000 + i) });
    const result = await exportSubcontractors(env, t.id, { q: "", status: "all", type: "all" }, { id: "x", email: "x@example.test", name: "X" }, { chunk: 2 });
    expect(result?.rowCount).toBe(7);
    const utrs = lines(result?.body ?? "")
      .slice(1)
      .map((l) => l.split(",")[2]);
    expect(new Set(utrs).size).toBe(7);
    expect((await exportCsv(b, t)).status).toBe(200);
  });

  it("with nothing to export: back to the list with 'Export Failed' / 'No data to export', no audit entry", async () => {
    const { t, b } = await cisStaff("admin");
    await seedSub(t, { name: "Only One", utr: "4444444444" });
    const res = await exportCsv(b, t, { q: "zzz", status: "archived", type: "all" });
    expect(res.status).toBe(302);
    expect(location(res)).toBe("/cis/subcontractors?q=zzz&status=archived");
    const landed = await b.follow(res, `${t.origin}/cis/subcontractors/export`);
    const html = await landed.text();
    const htmlText = pageText(parseHtml(html));
    expect(htmlText).toContain("Export Failed");
    expect(htmlText).toContain("No data to export");
    expect(await count("audit_events", "tenant_id = ? AND action = 'cis.export.subcontractors'", t.id)).toBe(0);
  });

  it("GET is 404 and writes nothing", async () => {
    const { t, b } = await cisStaff("admin");
    await seedSub(t, { name: "Only One", utr: "4444444444" });
    const res = await b.get(`${t.origin}/cis/subcontractors/export`);
    expect(res.status).toBe(404);
    expect(await count("audit_events", "tenant_id = ? AND action = 'cis.export.subcontractors'", t.id)).toBe(0);
  });

  it("is refused to a foreign origin (no cross-site export)", async () => {
    const { t, b } = await cisStaff("admin");
    await seedSub(t, { name: "Only One", utr: "4444444444" });
    const res = await b.post(`${t.origin}/cis/subcontractors/export`, {}, { origin: "http://evil.localhost" });
    expect(res.status).toBe(403);
  });
});

describe("roles", () => {
  const matrix: { role: Role; exportOk: boolean; importOk: boolean }[] = [
    { role: "standard", exportOk: false, importOk: false },
    { role: "lead", exportOk: true, importOk: false },
    // cis.import without cis.sub.write: an import creates subcontractors, so it needs both.
    { role: "manager", exportOk: true, importOk: false },
    { role: "admin", exportOk: true, importOk: true },
  ];
  for (const { role, exportOk, importOk } of matrix) {
    it(`${role}: export ${exportOk ? "allowed" : "403"}, import ${importOk ? "allowed" : "403"}`, async () => {
      const { t, b } = await cisStaff(role);
      await seedSub(t, { name: "Row One", utr: "4444444444" });
      const exp = await exportCsv(b, t);
      expect(exp.status).toBe(exportOk ? 200 : 403);
      expect(await count("audit_events", "tenant_id = ? AND action = 'cis.export.subcontractors'", t.id)).toBe(exportOk ? 1 : 0);
      const importPage = await b.get(`${t.origin}/cis/subcontractors/import`);
      expect(importPage.status).toBe(importOk ? 200 : 403);
      const template = await b.get(`${t.origin}/cis/subcontractors/import?template=csv`);
      expect(template.status).toBe(importOk ? 200 : 403);
      const post = await b.post(`${t.origin}/cis/subcontractors/import`, csvForm("Name,Type,UTR\nNew Person,individual,5555555555\n"));
      expect(post.status).toBe(importOk ? 200 : 403);
      if (!importOk) {
        expect(await count("audit_events", "tenant_id = ? AND action = 'cis.permission.denied'", t.id)).toBeGreaterThan(0);
      }
    });
  }
});

function csvForm(text: string, opts: { name?: string; intent?: string } = {}) {
  const form = new FormData();
  form.set("intent", opts.intent ?? "preview");
  form.set("file", new File([text], opts.name ?? "subcontractors.csv", { type: "text/csv" }));
  return form;
}

function importIdFrom(html: string): string {
  const id = valueOf(parseHtml(html), "importId");
  if (!id) throw new Error("No import id in the preview");
  return id;
}

function rowStatuses(html: string): Record<number, string> {
  return Object.fromEntries(
    all(parseHtml(html), "[data-row][data-status]").map((el) => [Number(el.getAttribute("data-row")), el.getAttribute("data-status") ?? ""]),
  );
}

const MIXED = [
  "name,TYPE,utr,Nino,Email,Phone,Verification Status,Verification Method,Verified Date,Notes",
  "Valid Person,individual,11111 22222,ab 12 34 56 c,valid@example.com,07700 900111,gross,online,10/04/2026,ignored",
  "Bad Utr,individual,12345,,,,,,,",
  "Bad Email,Individual,2222233333,ZZ123456A,not-an-email,,,,,",
  "Dup In File,individual,1111122222,,,,,,,",
  "Existing One,company,7777777777,,,,,,,",
  "",
  '"Valid, Company",COMPANY,1333344444,,,\'+447700900222,higher,letter,2026-04-01,',
].join("\r\n");

describe("subcontractor CSV import", () => {
  it("previews valid and invalid rows with row numbers and messages, then creates only the valid ones in one go", async () => {
    const { t, u, b } = await cisStaff("admin");
    await seedSub(t, { name: "Already Here", type: "company", utr: "7777777777" });
    const before = await count("cis_subcontractors", "tenant_id = ?", t.id);

    const res = await b.post(`${t.origin}/cis/subcontractors/import`, csvForm(MIXED));
    expect(res.status).toBe(200);
    const html = await res.text();
    const htmlText = pageText(parseHtml(html));
    // Row = data row (blank line 6 skipped but still counted); line = spreadsheet line.
    expect(rowStatuses(html)).toEqual({ 1: "valid", 2: "invalid", 3: "invalid", 4: "duplicate", 5: "duplicate", 7: "valid" });
    expect(htmlText).toContain("Enter a UTR in the correct format: 10 digits, like 2234567890");
    expect(htmlText).toContain("Enter an email address in the correct format, like name@example.com");
    expect(htmlText).toContain("Enter a National Insurance number in the correct format, like QQ 12 34 56 C");
    expect(htmlText).toContain("Duplicate UTR: same as row 1 in this file");
    expect(htmlText).toContain("A subcontractor with this UTR already exists");
    expect(htmlText).toContain("Ignored columns: Notes");
    expect(htmlText).toContain("Import 2 valid rows");
    expect(html).not.toContain("1111122222");
    expect(htmlText).toContain("******2222");
    // The preview writes no subcontractor.
    expect(await count("cis_subcontractors", "tenant_id = ?", t.id)).toBe(before);

    const importId = importIdFrom(html);
    expect(await env.FILES.head(`tenants/${t.id}/imports/${importId}.csv`)).not.toBeNull();
    // The stored upload is encrypted: no plaintext identifiers at rest in R2.
    const stored = await (await env.FILES.get(`tenants/${t.id}/imports/${importId}.csv`))!.text();
    expect(stored).not.toContain("1333344444");

    const commit = await b.post(`${t.origin}/cis/subcontractors/import`, { intent: "commit", importId, expected: "2" });
    expect(commit.status).toBe(302);
    expect(location(commit)).toBe("/cis/subcontractors");
    const landing = await (await b.follow(commit, `${t.origin}/cis/subcontractors/import`)).text();
    const landingText = pageText(parseHtml(landing));
    expect(landingText).toContain("Import complete");
    expect(landingText).toContain("2 subcontractors imported");

    const rows = await env.DB.prepare("SELECT * FROM cis_subcontractors WHERE tenant_id = ? AND created_by = ? ORDER BY name_lower")
      .bind(t.id, u.id)
      .all<Record<string, unknown>>();
    expect(rows.results.map((r) => r.name)).toEqual(["Valid Person", "Valid, Company"]);
    const [person, company] = rows.results;
    expect(person).toMatchObject({
      type: "individual",
      utr_masked: "******2222",
      nino_masked: "AB****56C",
      email: "valid@example.com",
      verification_status: "gross",
      verification_rate: 0,
      verification_method: "online",
      verified_date: "2026-04-10",
      active: 1,
    });
    expect(company).toMatchObject({
      type: "company",
      utr_masked: "******4444",
      nino_enc: null,
      phone: "+447700900222",
      verification_rate: 30,
      verified_date: "2026-04-01",
    });
    expect(String(person.utr_enc)).toMatch(/^v1\./);
    // No plaintext UTR or NINO anywhere in D1 for this tenant.
    for (const table of ["cis_subcontractors", "audit_events", "activity_log"]) {
      const dump = JSON.stringify((await env.DB.prepare(`SELECT * FROM ${table} WHERE tenant_id = ?`).bind(t.id).all()).results);
      for (const secret of ["1111122222", "1333344444", "AB123456C"]) expect(dump, `${table} holds ${secret}`).not.toContain(secret);
    }
    expect(await count("audit_events", "tenant_id = ? AND action = 'cis.subcontractor.created' AND actor_id = ?", t.id, u.id)).toBe(2);
    const summary = await env.DB.prepare("SELECT payload FROM audit_events WHERE tenant_id = ? AND action = 'cis.import.subcontractors'")
      .bind(t.id)
      .all<{ payload: string }>();
    expect(summary.results.map((r) => JSON.parse(r.payload))).toEqual([{ entity: "subcontractors", format: "csv", count: 2 }]);
    // The upload is gone; the same id cannot import twice.
    expect(await env.FILES.head(`tenants/${t.id}/imports/${importId}.csv`)).toBeNull();
    const again = await b.post(`${t.origin}/cis/subcontractors/import`, { intent: "commit", importId, expected: "2" });
    expect(again.status).toBe(404);
    expect(await count("cis_subcontractors", "tenant_id = ?", t.id)).toBe(before + 2);
  });

  it("re-validates at commit: a UTR added since the preview stops the import and shows the new preview", async () => {
    const { t, b } = await cisStaff("admin");
    const html = await (
      await b.post(`${t.origin}/cis/subcontractors/import`, csvForm("Name,Type,UTR\nFirst,individual,5666666661\nSecond,individual,3666666662\n"))
    ).text();
    const importId = importIdFrom(html);
    await seedSub(t, { name: "Sneaked In", utr: "3666666662" });
    const res = await b.post(`${t.origin}/cis/subcontractors/import`, { intent: "commit", importId, expected: "2" });
    expect(res.status).toBe(409);
    const again = await res.text();
    const againShown = pageText(parseHtml(again));
    expect(againShown).toContain("The data changed since your preview");
    expect(rowStatuses(again)).toEqual({ 1: "valid", 2: "duplicate" });
    expect(await count("cis_subcontractors", "tenant_id = ?", t.id)).toBe(1);
    // Confirming the new preview imports the one valid row.
    const ok = await b.post(`${t.origin}/cis/subcontractors/import`, { intent: "commit", importId: importIdFrom(again), expected: "1" });
    expect(ok.status).toBe(302);
    expect(await count("cis_subcontractors", "tenant_id = ?", t.id)).toBe(2);
  });

  it("refuses an import id from another tenant (and from another user)", async () => {
    const { t: a, b: ba } = await cisStaff("admin");
    const html = await (await ba.post(`${a.origin}/cis/subcontractors/import`, csvForm("Name,Type,UTR\nCross Tenant,individual,8888888888\n"))).text();
    const importId = importIdFrom(html);
    const { t: other, b: bb } = await cisStaff("admin");
    const res = await bb.post(`${other.origin}/cis/subcontractors/import`, { intent: "commit", importId, expected: "1" });
    expect(res.status).toBe(404);
    expect(await shownText(res)).toContain("This upload has expired or was not found");
    // A colleague in the same tenant cannot commit someone else's upload either.
    const { b: colleague } = await cisStaff("admin", { tenant: a });
    expect((await colleague.post(`${a.origin}/cis/subcontractors/import`, { intent: "commit", importId, expected: "1" })).status).toBe(404);
    // Path tricks are not ids.
    expect(
      (await bb.post(`${other.origin}/cis/subcontractors/import`, { intent: "commit", importId: `../../${a.id}/imports/${importId}`, expected: "1" })).status,
    ).toBe(404);
    expect(await count("cis_subcontractors", "tenant_id IN (?, ?)", a.id, other.id)).toBe(0);
    // The owner still can.
    expect((await ba.post(`${a.origin}/cis/subcontractors/import`, { intent: "commit", importId, expected: "1" })).status).toBe(302);
    expect(await count("cis_subcontractors", "tenant_id = ?", a.id)).toBe(1);
  });

  it("refuses files over 1 MB or 1,000 rows, a missing column and non-CSV input, with clear messages", async () => {
    const { t, b } = await cisStaff("admin");
    const big = `Name,Type,UTR\n${"x".repeat(1024 * 1024)}\n`;
    const tooBig = await b.post(`${t.origin}/cis/subcontractors/import`, csvForm(big));
    expect(tooBig.status).toBe(413);
    expect(await shownText(tooBig)).toContain("larger than 1 MB");

    const many = ["Name,Type,UTR", ...Array.from({ length: 1001 }, (_, i) => `Person ${i},individual,${validUtr(400000000 + i)}`)].join("\n");
    const tooMany = await b.post(`${t.origin}/cis/subcontractors/import`, csvForm(many));
    expect(tooMany.status).toBe(400);
    expect(await shownText(tooMany)).toContain("1,001 data rows; the limit is 1,000 rows");

    const missing = await b.post(`${t.origin}/cis/subcontractors/import`, csvForm("Name,Email\nA Person,a@example.com\n"));
    expect(missing.status).toBe(400);
    expect(await shownText(missing)).toContain("Missing required columns: Type, UTR");

    const broken = await b.post(`${t.origin}/cis/subcontractors/import`, csvForm('Name,Type,UTR\n"Never closed,individual,5334567890\n'));
    expect(broken.status).toBe(400);
    expect(await shownText(broken)).toContain("not valid CSV");

    const pdf = await b.post(`${t.origin}/cis/subcontractors/import`, csvForm("%PDF-1.4", { name: "x.pdf" }));
    expect(pdf.status).toBe(400);
    expect(await count("cis_subcontractors", "tenant_id = ?", t.id)).toBe(0);
  });

  it("accepts exactly 1,000 rows and imports them in one batch", async () => {
    const { t, b } = await cisStaff("admin");
    const rows = ["Name,Type,UTR", ...Array.from({ length: 1000 }, (_, i) => `Person ${i},individual,${validUtr(410000000 + i)}`)].join("\n");
    const html = await (await b.post(`${t.origin}/cis/subcontractors/import`, csvForm(rows))).text();
    const htmlText = pageText(parseHtml(html));
    expect(htmlText).toContain("Import 1000 valid rows");
    const res = await b.post(`${t.origin}/cis/subcontractors/import`, { intent: "commit", importId: importIdFrom(html), expected: "1000" });
    expect(res.status).toBe(302);
    expect(await count("cis_subcontractors", "tenant_id = ?", t.id)).toBe(1000);
    expect(await count("audit_events", "tenant_id = ? AND action = 'cis.subcontractor.created'", t.id)).toBe(1000);
    expect(await count("cis_subcontractors", "tenant_id = ? AND utr_enc LIKE 'v1.%' AND utr_hash IS NOT NULL", t.id)).toBe(1000);
  });

  it("importSubcontractors is all or nothing: a failing insert leaves no row and no audit entry", async () => {
    const { importSubcontractors } = await import("~/features/cis/subcontractors/import.server");
    const rows = [1, 2, 3, 4].map((i) => subInput({ name: `Atomic ${i}`, utr: validUtr(707070700 + i) }));
    // No such tenant: the subcontractor inserts break the foreign key, after the batch has already
    // inserted the audit rows (which have no foreign key); the batch must roll those back.
    const ghost = "no-such-tenant-for-atomicity";
    await expect(importSubcontractors(env, ghost, rows, { id: "x", email: "x@example.test", name: "X" })).rejects.toThrow();
    expect(await count("cis_subcontractors", "tenant_id = ?", ghost)).toBe(0);
    expect(await count("audit_events", "tenant_id = ?", ghost)).toBe(0);
    expect(await count("activity_log", "tenant_id = ?", ghost)).toBe(0);
  });

  it("serves the header-only template and reads Excel's Windows-1252 CSV", async () => {
    const { t, b } = await cisStaff("admin");
    const res = await b.get(`${t.origin}/cis/subcontractors/import?template=csv`);
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Disposition")).toContain("cis-subcontractors-import-template.csv");
    expect(new TextDecoder("utf-8", { ignoreBOM: true }).decode(await res.arrayBuffer())).toBe(
      `${BOM}Name,Type,UTR,NINO,Company Number,VAT Number,Email,Phone,Verification Status,Verification Method,Verification Reference,Verified Date,Public Body\r\n`,
    );
    expect(await count("audit_events", "tenant_id = ? AND action LIKE 'cis.%'", t.id)).toBe(0);

    // "Zoë" in Windows-1252: ë is the single byte 0xEB.
    const bytes = new Uint8Array([...new TextEncoder().encode("Name,Type,UTR\nZo"), 0xeb, ...new TextEncoder().encode(" Smith,individual,4212121212\n")]);
    const form = new FormData();
    form.set("intent", "preview");
    form.set("file", new File([bytes], "excel.csv", { type: "text/csv" }));
    const html = await (await b.post(`${t.origin}/cis/subcontractors/import`, form)).text();
    await b.post(`${t.origin}/cis/subcontractors/import`, { intent: "commit", importId: importIdFrom(html), expected: "1" });
    const row = await env.DB.prepare("SELECT name FROM cis_subcontractors WHERE tenant_id = ?").bind(t.id).first<{ name: string }>();
    expect(row?.name).toBe("Zoë Smith");
  });

  it("reads the Public Body column (yes or no, blank for no), refuses anything else by row, and the export writes it back", async () => {
    const { t, u, b } = await cisStaff("admin");
    const csv = [
      "Name,Type,UTR,Public Body",
      "Northshire County Council,company,4212121212,Yes",
      "Plain Builder,individual,5334567890,",
      "Ann Roofing,individual,2234567890,no",
      "Maybe Council,company,3218765432,perhaps",
    ].join("\r\n");
    const html = await (await b.post(`${t.origin}/cis/subcontractors/import`, csvForm(csv))).text();
    expect(rowStatuses(html)).toEqual({ 1: "valid", 2: "valid", 3: "valid", 4: "invalid" });
    expect(pageText(parseHtml(html))).toContain("Public Body must be yes or no (blank for no)");
    // The preview's help lists the column and what it means.
    expect(pageText(parseHtml(html))).toContain("Public Body");
    const commit = await b.post(`${t.origin}/cis/subcontractors/import`, { intent: "commit", importId: importIdFrom(html), expected: "3" });
    expect(commit.status).toBe(302);
    const rows = await env.DB.prepare("SELECT name, public_body FROM cis_subcontractors WHERE tenant_id = ? AND created_by = ? ORDER BY name_lower")
      .bind(t.id, u.id)
      .all<{ name: string; public_body: number }>();
    expect(rows.results).toEqual([
      { name: "Ann Roofing", public_body: 0 },
      { name: "Northshire County Council", public_body: 1 },
      { name: "Plain Builder", public_body: 0 },
    ]);
    const body = await (await exportCsv(b, t)).text();
    expect(lines(body).filter((l) => l.startsWith("Northshire"))).toEqual(["Northshire County Council,Company,******1212,,,,Active,20%,yes"]);
  });

  it("cancel deletes the stored upload", async () => {
    const { t, b } = await cisStaff("admin");
    const html = await (await b.post(`${t.origin}/cis/subcontractors/import`, csvForm("Name,Type,UTR\nA Person,individual,7313131313\n"))).text();
    const importId = importIdFrom(html);
    const res = await b.post(`${t.origin}/cis/subcontractors/import`, { intent: "cancel", importId });
    expect(res.status).toBe(302);
    expect(await env.FILES.head(`tenants/${t.id}/imports/${importId}.csv`)).toBeNull();
    expect(await count("cis_subcontractors", "tenant_id = ?", t.id)).toBe(0);
  });
});

describe("import permissions", () => {
  it("needs cis.sub.write as well as cis.io.import, checked on the preview and on the commit", async () => {
    const t = await createTenant({
      modules: ["cis"],
      bundles: { lead: ["cis.read", "cis.io.import", "cis.sub.write"], manager: ["cis.read", "cis.io.import"] },
    });
    const { b: importer } = await cisStaff("lead", { tenant: t });
    const { b: noWrite } = await cisStaff("manager", { tenant: t });
    const file = "Name,Type,UTR\nPerm Person,individual,8666655555\n";

    expect((await noWrite.get(`${t.origin}/cis/subcontractors/import`)).status).toBe(403);
    expect((await noWrite.post(`${t.origin}/cis/subcontractors/import`, csvForm(file))).status).toBe(403);
    // The list offers no Import button without cis.sub.write.
    expect(hrefs(await page(await noWrite.get(`${t.origin}/cis/subcontractors`)))).not.toContain("/cis/subcontractors/import");

    const preview = await importer.post(`${t.origin}/cis/subcontractors/import`, csvForm(file));
    expect(preview.status).toBe(200);
    const importId = importIdFrom(await preview.text());
    // cis.sub.write taken away between preview and commit: the commit is refused.
    await env.DB.prepare("UPDATE role_bundles SET scopes = ? WHERE tenant_id = ? AND name = 'lead'")
      .bind(JSON.stringify(["cis.read", "cis.io.import"]), t.id)
      .run();
    const commit = await importer.post(`${t.origin}/cis/subcontractors/import`, { intent: "commit", importId, expected: "1" });
    expect(commit.status).toBe(403);
    expect(await count("cis_subcontractors", "tenant_id = ?", t.id)).toBe(0);
  });

  it("rows carrying verification values need cis.sub.verify", async () => {
    const t = await createTenant({ modules: ["cis"], bundles: { lead: ["cis.read", "cis.io.import", "cis.sub.write"] } });
    const { b } = await cisStaff("lead", { tenant: t });
    const file = [
      "Name,Type,UTR,Verification Status,Verification Method,Verification Reference,Verified Date",
      "Plain Row,individual,5666611111,,,,",
      "Gross Row,individual,3666622222,gross,,,",
      "Ref Row,individual,1666633333,,,V1234567890,",
      "Date Row,individual,1666644444,,online,,01/04/2026",
    ].join("\n");
    const res = await b.post(`${t.origin}/cis/subcontractors/import`, csvForm(file));
    expect(res.status).toBe(200);
    const html = await res.text();
    const htmlText = pageText(parseHtml(html));
    expect(rowStatuses(html)).toEqual({ 1: "valid", 2: "invalid", 3: "invalid", 4: "invalid" });
    expect(htmlText).toContain("Verification details need the cis.sub.verify permission: leave the verification columns blank");
    const commit = await b.post(`${t.origin}/cis/subcontractors/import`, { intent: "commit", importId: importIdFrom(html), expected: "1" });
    expect(commit.status).toBe(302);
    const rows = await env.DB.prepare("SELECT name, verification_status FROM cis_subcontractors WHERE tenant_id = ?")
      .bind(t.id)
      .all<{ name: string; verification_status: string }>();
    expect(rows.results).toEqual([{ name: "Plain Row", verification_status: "standard" }]);

    // The same file from someone holding cis.sub.verify imports every row.
    const { b: verifier } = await cisStaff("admin", { tenant: t });
    const again = await verifier.post(
      `${t.origin}/cis/subcontractors/import`,
      csvForm(file.replace("Plain Row,individual,5666611111", "Other Row,individual,2666699999")),
    );
    expect(rowStatuses(await again.text())).toEqual({ 1: "valid", 2: "valid", 3: "valid", 4: "valid" });
  });
});
