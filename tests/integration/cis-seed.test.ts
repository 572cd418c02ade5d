import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { getDb } from "~/db/client.server";
import { seedCis, seedCisInvoices, seedPlatform } from "~/db/seed";
import { currentTaxMonth, invoiceAmounts, materialsNeedJustification, previousTaxMonth, taxMonthOfDate } from "~/features/cis/domain";
import { listInvoices, parseInvoiceListQuery } from "~/features/cis/invoices/queries.server";
import { getDashboardData } from "~/features/cis/dashboard/dashboard.server";

type Row = Record<string, unknown> & {
  id: string;
  status: string;
  source: string;
  invoice_date: string;
  payment_date: string | null;
  tax_month: string;
  gross_p: number;
  materials_p: number;
  cis_rate: number;
  vat_rate: number;
  reverse_charge: number;
  materials_justification: string | null;
  deleted_at: number | null;
  statement_required: number;
};

describe("demo seed: acme's invoices", () => {
  it("gives acme about 120 invoices over the last four tax months in every status, amounts from the rules engine, and a second run changes nothing", async () => {
    const db = getDb(env);
    const now = new Date();
    await seedPlatform(db, { pepper: env.PASSWORD_PEPPER });
    await seedCis(db, { piiKeys: env.PII_KEYS, hmacKey: env.PII_HMAC_KEY });
    await seedCisInvoices(db, now.getTime());
    const first = (await env.DB.prepare("SELECT * FROM cis_invoices WHERE tenant_id = 'tnt_acme' ORDER BY id").all<Row>()).results;
    // A later run (even days later) adds and changes nothing.
    await seedCisInvoices(db, now.getTime() + 40 * 86_400_000);
    const again = (await env.DB.prepare("SELECT * FROM cis_invoices WHERE tenant_id = 'tnt_acme' ORDER BY id").all<Row>()).results;
    expect(again).toEqual(first);

    expect(first.length).toBe(120);
    const statuses = new Set(first.map((r) => r.status));
    expect([...statuses].sort()).toEqual(["approved", "cancelled", "draft", "paid", "portal_draft"]);
    expect(first.filter((r) => r.status === "portal_draft").every((r) => r.source === "portal")).toBe(true);
    expect(first.filter((r) => r.deleted_at !== null).length).toBeGreaterThanOrEqual(2);
    expect(first.filter((r) => r.status === "paid").every((r) => r.payment_date && r.tax_month === taxMonthOfDate(r.payment_date).label)).toBe(true);
    expect(first.filter((r) => r.status !== "paid").every((r) => r.payment_date === null && r.tax_month === taxMonthOfDate(r.invoice_date).label)).toBe(true);

    // The current tax month and the three before it, nothing in the future.
    const current = currentTaxMonth(now).label;
    const months = [current];
    for (let k = 1; k < 4; k++) months.push(previousTaxMonth(months[k - 1]).label);
    expect(new Set(first.map((r) => taxMonthOfDate(r.invoice_date).label))).toEqual(new Set(months));
    const today = now.toISOString().slice(0, 10);
    expect(first.every((r) => r.invoice_date <= addDay(today) && (r.payment_date ?? "") <= addDay(today))).toBe(true);

    // Every figure is the rules engine's, at the stored rate; the materials rules hold.
    for (const r of first) {
      const amounts = invoiceAmounts({
        grossP: r.gross_p,
        materialsP: r.materials_p,
        cisRate: r.cis_rate,
        vatRate: r.vat_rate,
        reverseCharge: r.reverse_charge === 1,
      });
      expect(r, r.id).toMatchObject({
        labour_p: amounts.labourP,
        cis_deduction_p: amounts.cisDeductionP,
        vat_amount_p: amounts.vatAmountP,
        net_payment_p: amounts.netPaymentP,
        gross_total_p: amounts.grossTotalP,
        materials_percentage: amounts.materialsPercentage,
      });
      if (materialsNeedJustification(r.gross_p, r.materials_p)) expect((r.materials_justification ?? "").length, r.id).toBeGreaterThanOrEqual(10);
    }
    expect(first.filter((r) => r.materials_p * 100 >= r.gross_p * 60).length).toBeGreaterThanOrEqual(20);
    expect(first.filter((r) => r.materials_p * 100 >= r.gross_p * 80).length).toBeGreaterThanOrEqual(5);
    expect(new Set(first.map((r) => r.vat_rate))).toEqual(new Set([0, 5, 20]));
    expect(first.some((r) => r.reverse_charge === 1)).toBe(true);
    expect(new Set(first.map((r) => r.cis_rate))).toEqual(new Set([0, 20, 30]));
    expect(new Set(first.map((r) => r.subcontractor_id)).size).toBeGreaterThanOrEqual(15);
    expect(first.some((r) => r.statement_required === 1 && r.statement_issued_at === null && ["approved", "paid"].includes(r.status))).toBe(true);

    // The list's cards have something to show on the demo data.
    const { stats, total } = await listInvoices(env, "tnt_acme", parseInvoiceListQuery(new URLSearchParams()), now);
    expect(total).toBe(first.filter((r) => r.deleted_at === null).length);
    expect(stats.draft).toBeGreaterThan(0);
    expect(stats.pendingStatements).toBeGreaterThan(0);

    // The dashboard's Recent Activity is not empty on the demo: real approvals, payments and verifications, newest first, never in the future.
    const admin = { tenantId: "tnt_acme", scopes: ["*"] };
    const dash = await getDashboardData(env, "tnt_acme", { now, viewer: admin });
    if (!dash.active) throw new Error("acme's CIS is active in the seed");
    expect(dash.activity).toHaveLength(10);
    expect(dash.activity.map((a) => a.at)).toEqual([...dash.activity.map((a) => a.at)].sort((a, b) => b - a));
    expect(dash.activity.every((a) => a.at <= now.getTime())).toBe(true);
    expect(dash.activity.some((a) => /^(Maya Manager approved|Alice Admin recorded payment of) invoice [A-Z]{3}-\d{6}-\d{3} from /.test(a.text))).toBe(true);
    expect(
      await env.DB.prepare("SELECT count(*) AS n FROM audit_events WHERE tenant_id = 'tnt_acme' AND action = 'cis.subcontractor.verified'").first("n"),
    ).toBeGreaterThan(10);
    // A second run adds no entry.
    const entries = await env.DB.prepare("SELECT count(*) AS n FROM audit_events WHERE tenant_id = 'tnt_acme'").first<number>("n");
    await seedCis(db, { piiKeys: env.PII_KEYS, hmacKey: env.PII_HMAC_KEY });
    await seedCisInvoices(db, now.getTime() + 86_400_000);
    expect(await env.DB.prepare("SELECT count(*) AS n FROM audit_events WHERE tenant_id = 'tnt_acme'").first<number>("n")).toBe(entries);
    // Some companies are VAT registered, so the reverse charge default shows on the demo.
    expect(
      await env.DB.prepare("SELECT count(*) AS n FROM cis_subcontractors WHERE tenant_id = 'tnt_acme' AND vat_number IS NOT NULL").first<number>("n"),
    ).toBeGreaterThan(0);
  });
});

/** Tomorrow in UTC: the seed's 'today' is London's, which may be a day ahead of UTC's. */
function addDay(date: string): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
}
