import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createTenant, createUser } from "../factories";
import { seedCisSettings } from "../factories/cis";
import { signedIn } from "../factories/sessions";
import { rowsRead } from "./page-costs";

/**
 * What each list page costs in D1 rows read (D1's meta.rows_read, summed by the development
 * counter into Server-Timing) for a tenant with 50,000 invoices and 2,000 subcontractors: the
 * figures are printed, and each page is held to a ceiling far below the tenant's row count, so a
 * count or scan over the whole table fails here.
 */

const INVOICES = 50_000;
const SUBCONTRACTORS = 2_000;
const FILES = 3_000;

/**
 * Subcontractors and invoices written by SQLite itself (a recursive series), so 50,000 rows take
 * seconds, not minutes: the invoices spread over the 1,000 days up to today (three in five paid a
 * week after their date, in the payment's month, and pending a statement), so the current month's
 * statements and the returns' look-back hold their share.
 */
async function seedLargeTenant(tenantId: string) {
  const now = Date.now();
  await env.DB.prepare(
    `WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < ?2)
     INSERT INTO cis_subcontractors (id, tenant_id, type, name, name_lower, active, verification_status, verification_rate, created_at, updated_at)
     SELECT 'sub_rows_' || i, ?1, CASE i % 3 WHEN 0 THEN 'company' ELSE 'individual' END,
       'Builder ' || printf('%05d', i) || CASE WHEN i % 50 = 0 THEN ' Roofing' ELSE '' END,
       'builder ' || printf('%05d', i) || CASE WHEN i % 50 = 0 THEN ' roofing' ELSE '' END,
       i % 10 <> 0, CASE WHEN i % 4 = 0 THEN 'gross' ELSE 'standard' END, 20, ?3, ?3 FROM s`,
  )
    .bind(tenantId, SUBCONTRACTORS, now)
    .run();
  await env.DB.prepare(
    `WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < ?2)
     INSERT INTO cis_invoices (id, tenant_id, invoice_number, subcontractor_id, subcontractor_name, subcontractor_name_lower, status,
       invoice_date, payment_date, tax_month, gross_p, materials_p, labour_p, cis_rate, cis_deduction_p, vat_rate, vat_base_p, vat_amount_p,
       gross_total_p, net_payment_p, materials_percentage, statement_required, created_at, updated_at)
     SELECT 'inv_rows_' || i, ?1, 'R-' || i, 'sub_rows_' || (i % ?3 + 1),
       'Builder ' || printf('%05d', i % ?3 + 1) || CASE WHEN (i % ?3 + 1) % 50 = 0 THEN ' Roofing' ELSE '' END,
       'builder ' || printf('%05d', i % ?3 + 1) || CASE WHEN (i % ?3 + 1) % 50 = 0 THEN ' roofing' ELSE '' END,
       CASE WHEN i % 5 < 3 THEN 'paid' WHEN i % 5 = 3 THEN 'approved' ELSE 'draft' END,
       date('now', '-' || (i % 1000 + 7) || ' days'),
       CASE WHEN i % 5 < 3 THEN date('now', '-' || (i % 1000) || ' days') END,
       strftime('%Y-%m', date('now', '-' || (i % 1000) || ' days')),
       100000, 10000, 90000, 20, 18000, 0, 100000, 0, 100000, 82000, 10.0, i % 5 < 3, ?4, ?4 FROM s`,
  )
    .bind(tenantId, INVOICES, SUBCONTRACTORS, now)
    .run();
}

/** Files of one owner (the signed-in admin), shared with everyone so every viewer's list holds them. */
async function seedFiles(tenantId: string, owner: { id: string; email: string }) {
  await env.DB.prepare(
    `WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < ?2)
     INSERT INTO files (id, tenant_id, name, size, stored_bytes, mime_type, category, storage_key, visibility, owner_id, owner_email, owner_name, created_at, updated_at)
     SELECT 'file_rows_' || i, ?1, 'Drawing ' || printf('%05d', (i * 7919) % ?2) || '.pdf', 1000, 1000, 'application/pdf', 'documents', 'k/' || i, 'shared', ?3, ?4, 'Owner', ?5 + i, ?5 + i FROM s`,
  )
    .bind(tenantId, FILES, owner.id, owner.email, Date.now())
    .run();
}

/**
 * Each page, and the most rows it may read at this size. Before the count tables (the same test, at
 * 50,000 invoices) the invoice list read 171,145 rows, the paid filter 151,145, the subcontractor
 * list 4,038 and the returns page 143,825. Before searches counted their matches only as far as the
 * pager reaches, the roofing search (one invoice in fifty) read 52,587 rows and a search every
 * invoice matches read all 50,000; a LIKE '%term%' has no index, so a search reads about as many
 * rows as it takes to find the pager's matches (rows shown / share of rows matching). Here the
 * roofing invoices come in clumps (every invoice of one day in fifty), so its 101 counted matches
 * take about 150 days of invoices (13,588 rows read). The returns page read its 12-month look-back's
 * payments (46,626 rows); it now reads a row per month of a count table kept by triggers (about 40).
 * The invoice list's Pending Statements card counts the subcontractors with invoices pending a
 * statement in the current tax month, as the dashboard and the statements screen do: it reads those
 * invoices (here every paid one of the month, about 800), so each invoice list page allows 800 more.
 *
 * Searches of three characters or more first ask the trigram index for up to 501 matches (ADR 0081).
 * A rare term (an invoice number: 11 invoices here) is then read through the index alone; before,
 * it read every invoice of the tenant twice (page and count, 100,962 rows). A common term pays
 * for that question (about 1,000 rows a statement) and is then read as before.
 *
 * The statements screen pages in SQL: its month's rows (statements, and subcontractors with invoices
 * pending one) are ranked twice, for the page's rows and for the page's invoices, so a month whose
 * invoices are all pending (as here, about 800) reads them twice (3,640 rows; 1,818 when the page read
 * them once and paged in the Worker). A month whose statements are generated reads its statements
 * twice and the page's invoices, where the screen used to read every invoice of the month.
 */
const PAGES: [string, number][] = [
  ["/cis/invoices", 1_500],
  ["/cis/invoices?status=paid", 1_500],
  ["/cis/invoices?q=roofing", 20_000],
  // No roofing invoice is paid here: a search matching nothing still reads every row its filter leaves, for the page and for the count.
  ["/cis/invoices?status=paid&q=roofing", 70_000],
  ["/cis/invoices?q=builder", 6_000],
  ["/cis/invoices?q=builder&page=40", 15_000],
  ["/cis/invoices?q=r-1234", 1_500],
  ["/cis/invoices?status=paid&q=builder%2001234", 1_500],
  ["/cis/subcontractors", 1_000],
  ["/cis/subcontractors?status=active&type=company&page=3", 1_000],
  ["/cis/subcontractors?q=builder", 5_000],
  ["/cis/subcontractors?q=01234", 1_000],
  ["/cis/statements", 5_000],
  ["/cis/returns", 1_000],
  // The files list counts every file the viewer may see for its pager (3,000 here): no count table yet.
  ["/files/all", 4_000],
  // A sort no index serves (name) reads every visible file and its index entry to order them.
  ["/files/all?sort=name&dir=asc", 10_000],
];

describe("D1 rows read per list page at 50,000 invoices", () => {
  it("prints each page's rows read and keeps them under its ceiling", { timeout: 120_000 }, async () => {
    const t = await createTenant({ modules: ["cis", "files"] });
    await seedCisSettings(t);
    const u = await createUser(t, { role: "admin" });
    const b = await signedIn(t, u);
    await seedLargeTenant(t.id);
    await seedFiles(t.id, u);
    const lines: string[] = [];
    const over: string[] = [];
    for (const [path, ceiling] of PAGES) {
      const res = await b.get(`${t.origin}${path}`);
      expect(res.status, path).toBe(200);
      await res.text();
      const rows = rowsRead(res);
      lines.push(`| ${path} | ${rows} | ${ceiling} |`);
      if (rows > ceiling) over.push(`${path}: ${rows} rows read, ceiling ${ceiling}`);
    }
    console.log(
      `D1 rows read per page, ${INVOICES} invoices and ${SUBCONTRACTORS} subcontractors:\n| page | rows read | ceiling |\n|---|---:|---:|\n${lines.join("\n")}`,
    );
    expect(over).toEqual([]);
  });
});
