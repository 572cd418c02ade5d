import { env } from "cloudflare:workers";
import { and, desc, eq, isNull, or, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { dbFor } from "~/db/client.server";
import { cisInvoices } from "~/db/schema";
import { inTrigramSearch, trigramMatch, type TrigramIndex } from "~/db/trigram-search.server";
import { listInvoices, parseInvoiceListQuery } from "~/features/cis/invoices/queries.server";
import { listSubcontractors, parseListQuery } from "~/features/cis/subcontractors/subcontractors.server";
import { cisTenant, seedSub } from "../factories/cis";

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
