import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { getDb } from "~/db/client.server";
import { cisReturns, cisStatements } from "~/db/schema";
import { analyticsWindow, cisAnalytics } from "~/features/cis/analytics/analytics.server";
import { currentTaxMonth, taxMonthFromLabel } from "~/features/cis/domain";
import { parseCsv } from "~/utils/csv-read.server";
import { newId } from "~/utils/ids";
import { createTenant, createUser, type TestTenant } from "../factories";
import { cisStaff, seedSub } from "../factories/cis";
import { all, one, page, pageText, textsOf } from "../factories/html";
import { seedInvoice } from "../factories/returns";
import { signedIn } from "../factories/sessions";
import { count } from "./auth-helpers";

// 20 May 2026, 13:00 London: the window is June 2025 to May 2026; April's deadlines (19 May) have passed.
const NOW = new Date("2026-05-20T12:00:00Z");

async function seedStatement(t: TestTenant, taxMonth: string, issuedAt: number | null) {
  const sub = await seedSub(t);
  const now = Date.now();
  await getDb(env)
    .insert(cisStatements)
    .values({
      tenantId: t.id,
      id: newId(),
      subcontractorId: sub.id,
      subcontractorName: sub.name,
      taxMonth,
      invoiceIds: "[]",
      invoiceCount: 1,
      grossP: 100_000,
      materialsP: 20_000,
      labourP: 80_000,
      cisDeductionP: 16_000,
      status: issuedAt === null ? "generated" : "issued",
      generatedAt: now,
      issuedAt,
      issuedMethod: issuedAt === null ? null : "email",
      createdAt: now,
      updatedAt: now,
    });
}

async function seedReturn(t: TestTenant, taxMonth: string, submittedAt: number | null, opts: { amendmentOf?: string } = {}) {
  const tm = taxMonthFromLabel(taxMonth);
  const now = Date.now();
  await getDb(env)
    .insert(cisReturns)
    .values({
      tenantId: t.id,
      id: opts.amendmentOf ? `${taxMonth}-AMD-${newId(4)}` : taxMonth,
      taxMonth,
      amendmentOf: opts.amendmentOf ?? null,
      status: submittedAt === null ? "draft" : opts.amendmentOf ? "amended" : "submitted",
      filingDeadline: tm.deadlines.filing.getTime(),
      paymentDeadline: tm.deadlines.payment.getTime(),
      statementsDeadline: tm.deadlines.statements.getTime(),
      locked: submittedAt !== null,
      lockedAt: submittedAt,
      submittedAt,
      createdAt: now,
      updatedAt: now,
    });
}

const month = (figures: Awaited<ReturnType<typeof cisAnalytics>>, label: string) => {
  const m = figures.months.find((x) => x.label === label);
  if (!m) throw new Error(`no month ${label}`);
  return m;
};

describe("CIS analytics figures", () => {
  it("sums 12 tax months of paid, live invoices by month; drafts, cancelled, deleted, older and another tenant's never count", async () => {
    const t = await createTenant({ modules: ["cis"] });
    const other = await createTenant({ modules: ["cis"] });
    const a = await seedSub(t, { name: "Alpha Build" });
    const b = await seedSub(t, { name: "Beta Build" });
    const o = await seedSub(other, { name: "Other Build" });
    await seedInvoice(t, { subcontractorId: a.id, paymentDate: "2026-05-10", grossP: 100_000, materialsP: 20_000, rate: 20 }); // CIS 16,000
    await seedInvoice(t, { subcontractorId: a.id, paymentDate: "2026-04-10", grossP: 50_000, materialsP: 0, rate: 20 }); // CIS 10,000
    await seedInvoice(t, { subcontractorId: b.id, paymentDate: "2025-06-06", grossP: 200_000, materialsP: 50_000, rate: 30 }); // CIS 45,000
    // Never counted:
    await seedInvoice(t, { subcontractorId: b.id, paymentDate: "2025-06-05", grossP: 999_999 }); // May 2025: before the window
    await seedInvoice(t, { subcontractorId: b.id, paymentDate: "2026-05-11", status: "approved", grossP: 999_999 });
    await seedInvoice(t, { subcontractorId: b.id, paymentDate: "2026-05-12", status: "cancelled", grossP: 999_999 });
    await seedInvoice(t, { subcontractorId: b.id, paymentDate: "2026-05-13", deleted: true, grossP: 999_999 });
    await seedInvoice(other, { subcontractorId: o.id, paymentDate: "2026-05-10", grossP: 999_999 });

    const f = await cisAnalytics(env, t.id, NOW);
    expect(f.months.map((m) => m.label)).toEqual(analyticsWindow(NOW).map((m) => m.label));
    expect(f.months).toHaveLength(12);
    expect(f.months[0]!.label).toBe("2025-06");
    expect(f.months[11]!.label).toBe("2026-05");
    expect(month(f, "2026-05")).toMatchObject({ grossP: 100_000, materialsP: 20_000, cisP: 16_000, invoices: 1 });
    expect(month(f, "2026-04")).toMatchObject({ grossP: 50_000, materialsP: 0, cisP: 10_000, invoices: 1 });
    expect(month(f, "2025-06")).toMatchObject({ grossP: 200_000, materialsP: 50_000, cisP: 45_000, invoices: 1 });
    expect(month(f, "2025-12")).toMatchObject({ grossP: 0, cisP: 0, invoices: 0 });
    expect(f.totals).toEqual({ grossP: 350_000, materialsP: 70_000, cisP: 71_000, invoices: 3 });
    expect(f.topSubcontractors.map((r) => [r.name, r.cisP, r.invoices])).toEqual([
      ["Beta Build", 45_000, 1],
      ["Alpha Build", 26_000, 2],
    ]);
  });

  it("classifies statements against the 19th 23:59:59 London after the month: on the second is on time, a second later is late", async () => {
    const t = await createTenant({ modules: ["cis"] });
    const other = await createTenant({ modules: ["cis"] });
    const deadline = taxMonthFromLabel("2026-03").deadlines.statements.getTime();
    expect(new Date(deadline).toISOString()).toBe("2026-04-19T22:59:59.000Z"); // British Summer Time
    await seedStatement(t, "2026-03", deadline);
    await seedStatement(t, "2026-03", deadline - 60_000);
    await seedStatement(t, "2026-03", deadline + 1_000);
    // 20 April 00:00:30 in London is still the 19th in UTC: London decides, so it is late.
    await seedStatement(t, "2026-03", Date.parse("2026-04-19T23:00:30Z"));
    await seedStatement(t, "2026-03", null);
    await seedStatement(t, "2025-12", taxMonthFromLabel("2025-12").deadlines.statements.getTime() + 1); // GMT: 19 Jan 23:59:59Z
    await seedStatement(other, "2026-03", deadline);
    await seedStatement(t, "2025-05", deadline); // before the window

    const f = await cisAnalytics(env, t.id, NOW);
    expect(month(f, "2026-03").statements).toEqual({ onTime: 2, late: 2, notIssued: 1 });
    expect(month(f, "2025-12").statements).toEqual({ onTime: 0, late: 1, notIssued: 0 });
    expect(f.months.reduce((a, m) => a + m.statements.onTime + m.statements.late + m.statements.notIssued, 0)).toBe(6);
  });

  it("files each month by its original return's first submission against the filing deadline; a later amendment changes nothing, another tenant's returns never count", async () => {
    const t = await createTenant({ modules: ["cis"] });
    const other = await createTenant({ modules: ["cis"] });
    const filing = (label: string) => taxMonthFromLabel(label).deadlines.filing.getTime();
    await seedReturn(t, "2026-02", filing("2026-02"));
    await seedReturn(t, "2026-02", filing("2026-02") + 86_400_000, { amendmentOf: "2026-02" });
    await seedReturn(t, "2026-03", filing("2026-03") + 1_000);
    await seedReturn(t, "2026-04", null);
    await seedReturn(other, "2026-01", filing("2026-01") - 1_000);

    const f = await cisAnalytics(env, t.id, NOW);
    expect(month(f, "2026-02").filing).toEqual({ state: "on_time", submittedAt: filing("2026-02"), deadline: filing("2026-02") });
    expect(month(f, "2026-03").filing.state).toBe("late");
    expect(month(f, "2026-04").filing.state).toBe("not_filed"); // due 19 May, now 20 May
    expect(month(f, "2026-05").filing.state).toBe("open"); // due 19 June
    expect(month(f, "2026-01").filing).toMatchObject({ state: "not_filed", submittedAt: null });
    // The day before April's deadline, April's unsubmitted return is not yet due.
    expect(month(await cisAnalytics(env, t.id, new Date("2026-05-19T21:00:00Z")), "2026-04").filing.state).toBe("open");
  });
});

describe("CIS analytics page and CSV", () => {
  const thisMonth = () => currentTaxMonth(new Date()).label;

  it("draws the charts as inline SVG in the server's HTML, each with a titled role=img and a captioned table beside it", async () => {
    const { t, b } = await cisStaff("admin");
    const sub = await seedSub(t, { name: "Chart Builder" });
    await seedInvoice(t, {
      subcontractorId: sub.id,
      subcontractorName: sub.name,
      paymentDate: `${thisMonth()}-10`,
      grossP: 123_456,
      materialsP: 23_456,
      rate: 20,
    });
    await seedStatement(t, thisMonth(), Date.now());
    const res = await b.get(`${t.origin}/cis/analytics`);
    expect(res.status).toBe(200);
    const doc = await page(res);
    for (const id of ["by-month-chart", "by-subcontractor-chart", "statements-chart"]) {
      const svg = one(doc, `[data-chart="${id}"] svg`);
      expect(svg.getAttribute("role")).toBe("img");
      const title = one(svg, "title");
      expect(svg.getAttribute("aria-labelledby")).toBe(title.getAttribute("id"));
      expect(title.textContent).not.toBe("");
    }
    expect(all(doc, '[data-chart="by-month-chart"] rect').length).toBeGreaterThanOrEqual(2);
    const byMonth = one(doc, '[data-panel="by-month"] table');
    expect(one(byMonth, "caption").textContent).toContain("by tax month");
    expect(all(byMonth, "thead th").every((th) => th.getAttribute("scope") === "col")).toBe(true);
    const tm = currentTaxMonth(new Date());
    expect(textsOf(doc, `[data-month="${tm.label}"] td`)).toEqual([tm.displayLabel, "1", "£1,234.56", "£234.56", "19.0%", "£200.00"]);
    expect(textsOf(doc, '[data-card="cis"] p')[1]).toBe("£200.00");
    expect(textsOf(doc, '[data-card="materials"] p')[1]).toBe("19.0%");
    expect(textsOf(doc, '[data-card="statements"] p')[1]).toBe("1 of 1");
    expect(textsOf(doc, `[data-subcontractor="${sub.id}"] td`)[0]).toBe("Chart Builder");
    expect(all(doc, "[data-filing]")).toHaveLength(12);
  });

  it("shows an empty state, not charts, when nothing was paid", async () => {
    const { t, b } = await cisStaff("admin");
    const doc = await page(await b.get(`${t.origin}/cis/analytics`));
    expect(pageText(doc)).toContain("No paid invoices in the last 12 tax months.");
    expect(pageText(doc)).toContain("No subcontractors paid in the last 12 tax months.");
    expect(all(doc, "[data-chart] svg")).toHaveLength(0);
    expect(all(doc, 'form[action="/cis/analytics/subcontractors.csv"]')).toHaveLength(0);
  });

  it("ranks the top 10 by CIS deducted; the CSV holds all of them, neutralised against formulas, audited; another tenant's never appear", async () => {
    const { t, b } = await cisStaff("admin");
    const other = await cisStaff("admin");
    const ids: string[] = [];
    for (let i = 0; i < 12; i++) {
      const sub = await seedSub(t, { name: `Rank Builder ${String(i).padStart(2, "0")}` });
      ids.push(sub.id);
      // Builder i is paid (i + 1) x £100 gross at 20%: CIS rises with i.
      await seedInvoice(t, { subcontractorId: sub.id, subcontractorName: sub.name, paymentDate: `${thisMonth()}-10`, grossP: (i + 1) * 10_000, materialsP: 0 });
    }
    // A name a spreadsheet would run as a formula.
    await env.DB.prepare("UPDATE cis_subcontractors SET name = ? WHERE id = ?").bind('=HYPERLINK("http://evil","x")', ids[0]).run();
    const theirs = await seedSub(other.t, { name: "Secret Other Builder" });
    await seedInvoice(other.t, { subcontractorId: theirs.id, subcontractorName: theirs.name, paymentDate: `${thisMonth()}-10`, grossP: 10_000_000 });

    const doc = await page(await b.get(`${t.origin}/cis/analytics`));
    const shown = all(doc, "[data-subcontractor]").map((el) => el.getAttribute("data-subcontractor"));
    expect(shown).toEqual([...ids].reverse().slice(0, 10));
    expect(pageText(doc)).not.toContain("Secret Other Builder");
    expect(all(doc, 'form[action="/cis/analytics/subcontractors.csv"][method="post"]')).toHaveLength(1);

    const res = await b.post(`${t.origin}/cis/analytics/subcontractors.csv`, {});
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toContain("text/csv");
    expect(res.headers.get("Content-Disposition")).toMatch(/^attachment; filename="cis-analytics-subcontractors-\d{4}-\d{2}-\d{2}\.csv"$/);
    const text = await res.text();
    const rows = parseCsv(text).map((r) => r.cells);
    expect(rows[0]).toEqual(["Subcontractor", "UTR", "Invoices", "Gross", "Materials", "CIS Deducted", "Materials Share"]);
    expect(rows).toHaveLength(13);
    expect(rows[1]!.slice(0, 1).concat(rows[1]!.slice(2))).toEqual(["Rank Builder 11", "1", "1200.00", "0.00", "240.00", "0.0%"]);
    expect(rows[12]![0]).toBe('\'=HYPERLINK("http://evil","x")');
    expect(text).not.toContain("Secret Other Builder");
    expect(await count("audit_events", "tenant_id = ? AND action = 'cis.export.analytics'", t.id)).toBe(1);
  });

  it("the CSV needs cis.io.export and invoice reading: a reader gets 403 (audited) and no button; GET is 404", async () => {
    const { t, b } = await cisStaff("standard");
    const sub = await seedSub(t);
    await seedInvoice(t, { subcontractorId: sub.id, paymentDate: `${thisMonth()}-10` });
    const doc = await page(await b.get(`${t.origin}/cis/analytics`));
    expect(all(doc, 'form[action="/cis/analytics/subcontractors.csv"]')).toHaveLength(0);
    const before = await count("audit_events", "tenant_id = ? AND action = 'cis.permission.denied'", t.id);
    expect((await b.post(`${t.origin}/cis/analytics/subcontractors.csv`, {})).status).toBe(403);
    expect(await count("audit_events", "tenant_id = ? AND action = 'cis.permission.denied'", t.id)).toBe(before + 1);
    expect(await count("audit_events", "tenant_id = ? AND action = 'cis.export.analytics'", t.id)).toBe(0);

    // cis.io.export alone is not enough: the figures are invoice data.
    const exporter = await createTenant({ modules: ["cis"], bundles: { standard: ["cis.sub.read", "cis.io.export"] } });
    const e = await cisStaff("standard", { tenant: exporter });
    const s2 = await seedSub(exporter);
    await seedInvoice(exporter, { subcontractorId: s2.id, paymentDate: `${thisMonth()}-10` });
    expect((await e.b.post(`${exporter.origin}/cis/analytics/subcontractors.csv`, {})).status).toBe(403);

    const admin = await cisStaff("admin");
    expect((await admin.b.get(`${admin.t.origin}/cis/analytics/subcontractors.csv`)).status).toBe(404);
    // A cross-site post is refused before it reaches the export.
    expect((await admin.b.post(`${admin.t.origin}/cis/analytics/subcontractors.csv`, {}, { origin: "http://evil.localhost" })).status).toBe(403);
  });

  it("an admin with nothing paid gets the 'No data to export' toast, not an empty file", async () => {
    const { t, b } = await cisStaff("admin");
    const res = await b.post(`${t.origin}/cis/analytics/subcontractors.csv`, {});
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/cis/analytics");
    expect(await count("audit_events", "tenant_id = ? AND action = 'cis.export.analytics'", t.id)).toBe(0);
  });
});

describe("CIS analytics", () => {
  it("shows real figures of this tenant's active subcontractors only", async () => {
    const t = await createTenant({ modules: ["cis"] });
    const other = await createTenant({ modules: ["cis"] });
    const admin = await createUser(t, { role: "admin" });
    const otherAdmin = await createUser(other, { role: "admin" });
    const actor = { id: admin.id, email: admin.email, name: "A" };
    const make = (
      name: string,
      utr: string,
      type: "individual" | "company",
      status: "gross" | "standard" | "higher",
      extra: Record<string, string> = {},
      archived = false,
    ) => seedSub(t, { name, utr, type, verificationStatus: status, ...extra }, { actor, archived });
    await make("Gross Co", "9000000001", "company", "gross", { verificationMethod: "online", verifiedDate: "2026-05-01", email: "g@example.test" });
    await make("Std One", "7000000002", "individual", "standard");
    await make("Std Gone", "5000000003", "individual", "standard", {}, true);
    await make("High Co", "3000000004", "company", "higher");
    await seedSub(
      other,
      { name: "Elsewhere", utr: "1000000005", type: "company", verificationStatus: "gross" },
      { actor: { id: otherAdmin.id, email: otherAdmin.email, name: "B" } },
    );

    const b = await signedIn(t, await createUser(t, { role: "standard" }));
    const res = await b.get(`${t.origin}/cis/analytics`);
    expect(res.status).toBe(200);
    const doc = await page(res);
    const row = (key: string) => textsOf(doc, `[data-row="${key}"] > td`)[1];
    expect(row("gross")).toBe("1");
    expect(row("standard")).toBe("1");
    expect(row("higher")).toBe("1");
    expect(row("company")).toBe("2");
    expect(row("individual")).toBe("1");
    expect(pageText(doc)).toContain("1 of 3 active subcontractors have an e-mail address");
    expect(pageText(doc)).toContain("1 (33%)");
  });

  it("is 404 when the CIS module is off and asks signed-out visitors to sign in", async () => {
    const off = await createTenant();
    const u = await createUser(off, { role: "admin" });
    const b = await signedIn(off, u);
    expect((await b.get(`${off.origin}/cis/analytics`)).status).toBe(404);
    const on = await createTenant({ modules: ["cis"] });
    const { Browser } = await import("./http");
    expect((await new Browser().get(`${on.origin}/cis/analytics`)).status).toBe(302);
  });
});
