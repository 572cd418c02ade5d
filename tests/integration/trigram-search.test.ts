import { env } from "cloudflare:workers";
import { and, desc, eq, isNull, or, sql } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { dbFor } from "~/db/client.server";
import { COMMON_TERM_TTL_MS, forgetCommonTerms, knownCommonTerm } from "~/db/common-search-terms.server";
import { cisInvoices } from "~/db/schema";
import { inTrigramSearch, PROBE_LIMIT, trigramMatch, type TrigramIndex } from "~/db/trigram-search.server";
import { listInvoices, parseInvoiceListQuery } from "~/features/cis/invoices/queries.server";
import { listSubcontractors, parseListQuery } from "~/features/cis/subcontractors/subcontractors.server";
import { cisStaff, cisTenant, seedSub } from "../factories/cis";
import { d1Queries } from "./d1-queries";

const INDEX: TrigramIndex = { name: "cis_invoices_search", idColumn: "invoice_id", columns: ["invoice_number", "subcontractor_name"] };

/** `count` invoices for the tenant, written by SQLite (numbers `${prefix}-1`…, names alternating). */
async function seedInvoices(tenantId: string, prefix: string, count: number) {
  await env.DB.prepare(
    `WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < ?3)
     INSERT INTO cis_invoices (id, tenant_id, invoice_number, subcontractor_id, subcontractor_name, subcontractor_name_lower, status,
       invoice_date, tax_month, gross_p, materials_p, labour_p, cis_rate, cis_deduction_p, vat_rate, vat_base_p, vat_amount_p,
       gross_total_p, net_payment_p, materials_percentage, created_at, updated_at)
     SELECT ?1 || '_' || ?2 || '_' || i, ?1, ?2 || '-' || i, 'sub_x', CASE WHEN i % 2 = 0 THEN 'Acme "Quoted" Roofing' ELSE 'Brick & Co' END,
       CASE WHEN i % 2 = 0 THEN 'acme "quoted" roofing' ELSE 'brick & co' END, 'draft',
       date('2026-01-01', '+' || i || ' days'), '2026-01', 1000, 0, 1000, 20, 200, 0, 1000, 0, 1000, 800, 0, 0, 0 FROM s`,
  )
    .bind(tenantId, prefix, count)
    .run();
}

/** The ids the hybrid search yields for `term`, in list order, with the given probe limit. */
async function searched(tenantId: string, term: string, probeLimit: number, limit = 1000) {
  const pattern = `%${term.toLowerCase()}%`;
  const like = or(sql`lower(${cisInvoices.invoiceNumber}) LIKE ${pattern}`, sql`${cisInvoices.subcontractorNameLower} LIKE ${pattern}`)!;
  const where = and(eq(cisInvoices.tenantId, tenantId), isNull(cisInvoices.deletedAt));
  const order = [
    { column: cisInvoices.invoiceDate, desc: true },
    { column: cisInvoices.id, desc: true },
  ];
  const rows = await dbFor(env, tenantId)
    .select({ id: cisInvoices.id })
    .from(cisInvoices)
    .where(
      and(
        inTrigramSearch({
          table: cisInvoices,
          id: cisInvoices.id,
          index: INDEX,
          tenantId,
          match: trigramMatch(INDEX, term),
          like,
          where,
          order,
          limit,
          probeLimit,
        }),
      ),
    )
    .orderBy(desc(cisInvoices.invoiceDate), desc(cisInvoices.id));
  const plain = await dbFor(env, tenantId)
    .select({ id: cisInvoices.id })
    .from(cisInvoices)
    .where(and(where, like))
    .orderBy(desc(cisInvoices.invoiceDate), desc(cisInvoices.id))
    .limit(limit);
  return { ids: rows.map((r) => r.id), plain: plain.map((r) => r.id) };
}

describe("trigram search", () => {
  it("finds through the index what LIKE finds, rare or common term, and never another tenant's rows", async () => {
    const a = await cisTenant();
    const b = await cisTenant();
    await seedInvoices(a.id, "TRI", 40);
    await seedInvoices(b.id, "TRI", 40);
    for (const term of ["tri-17", "TRI-3", "roofing", '"quoted"', "brick & co", "tri-99"]) {
      // 1000: the index answers every term; 3: any term with more than three matches goes the LIKE way.
      for (const probeLimit of [1000, 3]) {
        const { ids, plain } = await searched(a.id, term, probeLimit);
        expect(ids, `${term} (probe ${probeLimit})`).toEqual(plain);
        expect(
          ids.every((id) => id.startsWith(`${a.id}_`)),
          term,
        ).toBe(true);
      }
      // Only the leading rows, in order, whichever way.
      expect((await searched(a.id, term, 3, 5)).ids).toEqual((await searched(a.id, term, 3, 5)).plain);
      expect((await searched(a.id, term, 1000, 5)).ids).toEqual((await searched(a.id, term, 1000, 5)).plain);
    }
    expect((await searched(a.id, "tri-17", 1000)).ids).toEqual([`${a.id}_TRI_17`]);
    expect((await searched(a.id, "roofing", 1000)).ids).toHaveLength(20);
  });

  it("follows every write: a new number, a changed number, a deleted invoice", async () => {
    const t = await cisTenant();
    await seedInvoices(t.id, "WRT", 3);
    const list = async (q: string) => (await listInvoices(env, t.id, parseInvoiceListQuery(new URLSearchParams({ q })))).rows.map((r) => r.invoiceNumber);
    expect(await list("wrt-2")).toEqual(["WRT-2"]);
    await env.DB.prepare("UPDATE cis_invoices SET invoice_number = 'ZQX-2' WHERE id = ?").bind(`${t.id}_WRT_2`).run();
    expect(await list("wrt-2")).toEqual([]);
    expect(await list("zqx-2")).toEqual(["ZQX-2"]);
    await env.DB.prepare("DELETE FROM cis_invoices WHERE id = ?").bind(`${t.id}_WRT_3`).run();
    expect(await list("wrt-3")).toEqual([]);
    // The index holds one entry per invoice: none left behind by the change or the delete.
    const entries = await env.DB.prepare("SELECT count(*) AS n FROM cis_invoices_search WHERE tenant_id = ?").bind(t.id).first<{ n: number }>();
    expect(entries?.n).toBe(2);
    // Soft-deleted invoices stay out of the list's searches.
    await env.DB.prepare("UPDATE cis_invoices SET deleted_at = 1 WHERE id = ?").bind(`${t.id}_WRT_1`).run();
    expect(await list("wrt-1")).toEqual([]);
    // Two characters: no trigram, the LIKE answers.
    expect(await list("zq")).toEqual(["ZQX-2"]);
  });

  it("searches subcontractors by name, e-mail and company number through the index, in name order", async () => {
    const t = await cisTenant();
    const other = await cisTenant();
    await seedSub(t, { name: "Zeta Roofing", email: "zeta@roofers.test" });
    await seedSub(t, { name: "Alpha Roofing", email: "hello@alpha.test" });
    await seedSub(t, { name: "Mid Bricks", email: "office@roofline.test", type: "company", companyNumber: "SC123456" });
    await seedSub(other, { name: "Other Roofing" });
    const names = async (q: string) => (await listSubcontractors(env, t.id, parseListQuery(new URLSearchParams({ q })))).rows.map((r) => r.name);
    expect(await names("roof")).toEqual(["Alpha Roofing", "Mid Bricks", "Zeta Roofing"]);
    expect(await names("ROOFING")).toEqual(["Alpha Roofing", "Zeta Roofing"]);
    expect(await names("sc123456")).toEqual(["Mid Bricks"]);
    expect(await names("other")).toEqual([]);
    await env.DB.prepare("UPDATE cis_subcontractors SET name = 'Omega Slate', name_lower = 'omega slate' WHERE tenant_id = ? AND name = 'Zeta Roofing'")
      .bind(t.id)
      .run();
    expect(await names("roofing")).toEqual(["Alpha Roofing"]);
    expect(await names("slate")).toEqual(["Omega Slate"]);
    expect((await listSubcontractors(env, t.id, parseListQuery(new URLSearchParams({ q: "roof" })))).total).toBe(3);
  });
});

/** An env whose D1 records the SQL of every statement prepared through it. */
function sqlRecordingEnv() {
  const statements: string[] = [];
  const DB = new Proxy(env.DB, {
    get(target, key) {
      if (key === "prepare") return (query: string) => (statements.push(query), target.prepare(query));
      const value: unknown = Reflect.get(target, key);
      return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
  return { env: { ...env, DB } as Env, statements };
}

/** `count` subcontractors named `${name} <i>`, copies of `from` made by SQLite (each gets its search entry from the triggers). */
async function copySubcontractors(from: string, name: string, count: number) {
  const { results } = await env.DB.prepare("SELECT name FROM pragma_table_info('cis_subcontractors')").all<{ name: string }>();
  const replaced: Record<string, string> = {
    id: "?1 || '_' || i",
    name: "?2 || ' ' || i",
    name_lower: "lower(?2 || ' ' || i)",
    email: "NULL",
    utr_enc: "NULL",
    utr_hash: "NULL",
    utr_last4: "NULL",
    search_rowid: "NULL",
  };
  const columns = results.map((c) => c.name);
  await env.DB.prepare(
    `WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < ?3)
     INSERT INTO cis_subcontractors (${columns.map((c) => `"${c}"`).join(", ")})
     SELECT ${columns.map((c) => replaced[c] ?? `"${c}"`).join(", ")} FROM cis_subcontractors, s WHERE id = ?1`,
  )
    .bind(from, name, count)
    .run();
}

describe("a term the index found common", () => {
  beforeEach(() => forgetCommonTerms());

  it("is noted for its tenant, and the invoice list's next searches for it scan at once with the same answers", async () => {
    const a = await cisTenant();
    const b = await cisTenant();
    // Every other invoice is Acme "Quoted" Roofing: more matches than the index's probe takes.
    await seedInvoices(a.id, "CMN", 2 * PROBE_LIMIT + 20);
    await seedInvoices(b.id, "CMN", 40);
    const at = new Date("2026-11-28T09:00:00Z");
    const list = async (tenantId: string, params: Record<string, string>, when = at) => {
      const rec = sqlRecordingEnv();
      const res = await listInvoices(rec.env, tenantId, parseInvoiceListQuery(new URLSearchParams(params)), when);
      return { res, probed: rec.statements.some((q) => q.includes("MATCH")) };
    };

    const first = await list(a.id, { q: "roofing" });
    expect(first.probed).toBe(true);
    expect(first.res.total).toBe(100);
    expect(first.res.more).toBe(true);
    expect(knownCommonTerm("cis_invoices_search", a.id, "roofing", at.getTime())).toBe(true);

    const again = await list(a.id, { q: "roofing" });
    expect(again.probed).toBe(false);
    expect(again.res).toEqual(first.res);
    // Other pages and filters of the same search too, with the rows the index's way gives.
    const page3 = await list(a.id, { q: "roofing", page: "3" });
    expect(page3.probed).toBe(false);
    const page3Ids = page3.res.rows.map((r) => r.id);
    expect(page3Ids).toHaveLength(25);
    expect((await searched(a.id, "roofing", PROBE_LIMIT)).ids.slice(50, 75)).toEqual(page3Ids);

    // A rare term is not noted; the other tenant's search for the same term still asks its index.
    expect((await list(a.id, { q: "cmn-1017" })).res.rows.map((r) => r.invoiceNumber)).toEqual(["CMN-1017"]);
    expect(knownCommonTerm("cis_invoices_search", a.id, "cmn-1017", at.getTime())).toBe(false);
    const other = await list(b.id, { q: "roofing" });
    expect(other.probed).toBe(true);
    expect(other.res.total).toBe(20);
    expect(knownCommonTerm("cis_invoices_search", b.id, "roofing", at.getTime())).toBe(false);

    // Once the note has expired the index is asked again (and notes the term again).
    const later = await list(a.id, { q: "roofing" }, new Date(at.getTime() + COMMON_TERM_TTL_MS));
    expect(later.probed).toBe(true);
    expect(later.res.rows).toEqual(first.res.rows);
  });

  it("is noted by the subcontractor list too, whose next searches scan with the same answers", async () => {
    const t = await cisTenant();
    const first = await seedSub(t, { name: "Zeta Roofing", email: "zeta@example.test" });
    await copySubcontractors(first.id, "Roofing Crew", PROBE_LIMIT + 10);
    await seedSub(t, { name: "Alpha Slate", email: "slate@roofing.test" });
    const names = async (q: string) => {
      const rec = sqlRecordingEnv();
      const res = await listSubcontractors(rec.env, t.id, parseListQuery(new URLSearchParams({ q })));
      return { res, probed: rec.statements.some((s) => s.includes("MATCH")) };
    };
    const before = await names("roofing");
    expect(before.probed).toBe(true);
    expect(before.res.more).toBe(true);
    // Name order: the e-mail match first.
    expect(before.res.rows[0].name).toBe("Alpha Slate");
    expect(knownCommonTerm("cis_subcontractors_search", t.id, "roofing")).toBe(true);
    const after = await names("roofing");
    expect(after.probed).toBe(false);
    expect(after.res).toEqual(before.res);
  });

  it("is noted when the page's batch ran with the middleware's, and the page then scans at once with the same rows", async () => {
    const { t, b } = await cisStaff("admin");
    await seedInvoices(t.id, "MID", 2 * PROBE_LIMIT + 20);
    const url = `${t.origin}/cis/invoices?status=draft&q=roofing`;
    const numbers = (html: string) => [...html.matchAll(/>(MID-\d+)</g)].map((m) => m[1]);
    const first = await b.get(url);
    expect(first.status).toBe(200);
    const firstNumbers = numbers(await first.text());
    expect(firstNumbers).toHaveLength(25);
    expect(knownCommonTerm("cis_invoices_search", t.id, "roofing")).toBe(true);
    const again = await b.get(url);
    expect(numbers(await again.text())).toEqual(firstNumbers);
    // Still one round trip: the middleware's batch, built the scanning way.
    expect(d1Queries(again)).toBe(1);
  });
});
