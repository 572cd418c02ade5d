import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import {
  currentTaxMonth,
  deadlineIndicator,
  formatPence,
  lateFilingPenaltyPosition,
  lateFilingPenaltySteps,
  previousTaxMonth,
  type TaxMonth,
} from "~/features/cis/domain";
import { compileMonthlyReturn } from "~/features/cis/returns/returns.server";
import { formatLongDate } from "~/utils/dates";
import type { TestTenant } from "../factories";
import { cisStaff, seedSub } from "../factories/cis";
import { all, attr, one, textOf, visit } from "../factories/html";
import { seedInvoice } from "../factories/returns";

const seeder = { id: "seed", email: "seed@example.test", name: "Seeder" };

function monthsBack(n: number): TaxMonth {
  let tm = currentTaxMonth(new Date());
  for (let i = 0; i < n; i++) tm = previousTaxMonth(tm.label);
  return tm;
}

/** A London calendar date inside the month (its 10th). */
const paidOn = (tm: TaxMonth) => `${tm.label}-10`;

async function startedAt(t: TestTenant, at: number) {
  await env.DB.prepare("UPDATE cis_settings SET created_at = ? WHERE tenant_id = ?").bind(at, t.id).run();
  await env.DB.prepare("UPDATE cis_invoices SET created_at = ? WHERE tenant_id = ?").bind(at, t.id).run();
}

async function markSubmitted(tenantId: string, id: string) {
  await env.DB.prepare(
    "UPDATE cis_returns SET status = 'submitted', locked = 1, locked_at = ?, submitted_at = ?, submission_ref = 'CORR-9' WHERE tenant_id = ? AND id = ?",
  )
    .bind(Date.now(), Date.now(), tenantId, id)
    .run();
}

/** Three months back unfiled (overdue), two back filed; one, four, five and six back without payments (nil returns due). */
async function tenantWithHistory() {
  const staff = await cisStaff("manager", { settings: {} });
  const { t } = staff;
  const sub = await seedSub(t, { name: "Dan Murphy" });
  const overdue = monthsBack(3);
  const filed = monthsBack(2);
  await seedInvoice(t, { subcontractorId: sub.id, subcontractorName: sub.name, paymentDate: paidOn(overdue) });
  await seedInvoice(t, { subcontractorId: sub.id, subcontractorName: sub.name, paymentDate: paidOn(filed) });
  await compileMonthlyReturn(env, t.id, filed.label, seeder);
  await markSubmitted(t.id, filed.label);
  await startedAt(t, monthsBack(6).start.getTime());
  // Every month since the start whose filing deadline has passed is due, newest first; those without payments as nil returns.
  const due = [1, 3, 4, 5, 6].map(monthsBack).filter((tm) => tm.deadlines.filing.getTime() < Date.now() && tm.label >= "2026-04");
  return { ...staff, overdue, filed, due: due.map((tm) => tm.label), nil: due.filter((tm) => tm.label !== overdue.label).map((tm) => tm.label) };
}

describe("overdue returns", () => {
  it("the returns page lists each unfiled month whose deadline has passed, with its due date, days overdue and a link to the month", async () => {
    const { t, b, overdue, due } = await tenantWithHistory();
    const { doc } = await visit(b, `${t.origin}/cis/returns`);
    expect(all(doc, "[data-overdue]").map((li) => [attr(li, "data-overdue"), attr(li, "data-nil")])).toEqual(due.map((m) => [m, String(m !== overdue.label)]));
    const items = all(doc, `[data-overdue="${overdue.label}"]`);
    const days = deadlineIndicator(overdue.deadlines.filing, new Date()).days;
    expect(items[0]!.textContent).toMatch(new RegExp(`^${overdue.displayLabel} · due ${formatLongDate(overdue.deadlines.filing)} · ${days} days overdue`));
    expect(attr(one(items[0]!, "a"), "href")).toBe(`/cis/returns?month=${overdue.label}`);
    // The late-filing penalties: charged so far, and every step with the London date it starts.
    const position = lateFilingPenaltyPosition(overdue.label, 0, { now: new Date(), filedAt: null });
    expect(items[0]!.textContent).toContain(`Penalties so far: ${formatPence(position.incurredPence)}`);
    // The steps fold under that line (a closed <details>, no JavaScript needed), so several overdue
    // months still fit a phone's first screen.
    const fold = one(items[0]!, "details");
    expect(fold.hasAttribute("open")).toBe(false);
    expect(textOf(fold, "summary")).toBe(`Penalties so far: ${formatPence(position.incurredPence)}`);
    expect(all(fold, "[data-penalty]")).toHaveLength(4);
    const steps = lateFilingPenaltySteps(overdue.label, 0);
    expect(all(items[0]!, "[data-penalty]").map((li) => [attr(li, "data-penalty"), attr(li, "data-state")])).toEqual(
      steps.map((s) => [s.kind, position.incurred.some((i) => i.kind === s.kind) ? "charged" : "coming"]),
    );
    expect(textOf(items[0]!, '[data-penalty="initial"]')).toBe(`£100.00 from ${formatLongDate(steps[0]!.startsAt)}`);
    expect(textOf(items[0]!, '[data-penalty="twelve_months"]')).toBe(
      `a further £300.00 (the same again) from ${formatLongDate(steps[3]!.startsAt)} if still not filed`,
    );
    expect(textOf(doc, "#current-month-heading")).toBe("Current Tax Month");
    expect(doc.querySelector('[data-field="overdue"]')).toBeNull();
  });

  it("the overdue month's own page is marked overdue and not called the current tax month", async () => {
    const { t, b, overdue, filed } = await tenantWithHistory();
    const { doc } = await visit(b, `${t.origin}/cis/returns?month=${overdue.label}`);
    expect(textOf(doc, "#current-month-heading")).toBe("Tax Month");
    expect(textOf(doc, '[data-field="status"]')).toBe("Not compiled");
    expect(textOf(doc, '[data-field="overdue"]')).toMatch(/^Overdue: \d+ days overdue$/);
    expect(textOf(doc, '[data-field="penalties-charged"]')).toMatch(/^Not filed: penalties of £\d+\.00 so far\.$/);
    expect(all(doc, '[data-testid="penalties"] [data-penalty]')).toHaveLength(4);
    const filedPage = await visit(b, `${t.origin}/cis/returns?month=${filed.label}`);
    expect(filedPage.doc.querySelector('[data-field="overdue"]')).toBeNull();
    // Filed late (today, long after its deadline): the steps charged before filing, none coming.
    const charged = lateFilingPenaltyPosition(filed.label, 0, { now: new Date(), filedAt: new Date() }).incurred;
    expect(all(filedPage.doc, '[data-testid="penalties"] [data-penalty]').map((li) => attr(li, "data-state"))).toEqual(charged.map(() => "charged"));
    expect(textOf(filedPage.doc, '[data-field="penalties-charged"]')).toMatch(/^Filed late: penalties of £\d+\.00 apply\.$/);
  });

  it("the CIS dashboard lists the overdue returns too", async () => {
    const { t, b, overdue, due, nil } = await tenantWithHistory();
    const { doc } = await visit(b, `${t.origin}/cis`);
    expect(all(doc, "[data-overdue]").map((li) => attr(li, "data-overdue"))).toEqual(due);
    expect(textOf(doc, `[data-overdue="${nil[0]}"]`)).toContain("Nil return");
    expect(attr(one(doc, `[data-overdue="${overdue.label}"] a`), "href")).toBe(`/cis/returns?month=${overdue.label}`);
    expect(all(doc, `[data-overdue="${overdue.label}"] [data-penalty]`).map((li) => attr(li, "data-penalty"))).toEqual([
      "initial",
      "two_months",
      "six_months",
      "twelve_months",
    ]);
  });

  it("a tenant that started this month is not told it owes returns for months before it started", async () => {
    const { t, b } = await cisStaff("manager", { settings: {} });
    const sub = await seedSub(t);
    await seedInvoice(t, { subcontractorId: sub.id, paymentDate: paidOn(monthsBack(3)) });
    const { doc } = await visit(b, `${t.origin}/cis/returns`);
    expect(doc.querySelector('[data-testid="overdue-returns"]')).toBeNull();
    expect((await visit(b, `${t.origin}/cis`)).doc.querySelector('[data-testid="overdue-returns"]')).toBeNull();
  });

  it("another tenant's payments and returns make no difference", async () => {
    const { overdue } = await tenantWithHistory();
    const other = await cisStaff("manager", { settings: {} });
    await startedAt(other.t, monthsBack(6).start.getTime());
    const { doc } = await visit(other.b, `${other.t.origin}/cis/returns`);
    // Without payments of its own, the other tenant owes a nil return for that month.
    expect(attr(one(doc, `[data-overdue="${overdue.label}"]`), "data-nil")).toBe("true");
  });
});

describe("validation issues say where they are fixed", () => {
  it("a statement not issued links to that subcontractor's statement for the month; without an e-mail address it says print or portal and links to add one", async () => {
    const { t, b } = await cisStaff("manager", { settings: {} });
    const ann = await seedSub(t, { name: "Ann Roofing", email: "ann@example.test" });
    const dan = await seedSub(t, { name: "Dan Murphy" });
    await seedInvoice(t, { subcontractorId: ann.id, subcontractorName: ann.name, statementRequired: true, paymentDate: "2026-01-10" });
    await seedInvoice(t, { subcontractorId: dan.id, subcontractorName: dan.name, statementRequired: true, paymentDate: "2026-01-10" });
    await compileMonthlyReturn(env, t.id, "2026-01", seeder);
    const { doc } = await visit(b, `${t.origin}/cis/returns?month=2026-01`);
    const items = all(doc, '[data-issues] li[data-issue="statement_not_issued"]');
    expect(items).toHaveLength(2);
    const [annIssue, danIssue] = items;
    expect(annIssue!.textContent).toContain("Line 1: Statement not issued for Ann Roofing");
    expect(all(annIssue!, "a").map((a) => [a.textContent, attr(a, "href")])).toEqual([
      ["Issue the statement", `/cis/statements?month=2026-01&sub=${ann.id}#statement-${ann.id}`],
    ]);
    expect(danIssue!.textContent).toContain("Line 2: Statement not issued for Dan Murphy");
    expect(danIssue!.textContent).toContain("No e-mail address: print the statement or issue it through the portal");
    expect(all(danIssue!, "a").map((a) => [a.textContent, attr(a, "href")])).toEqual([
      ["Issue the statement", `/cis/statements?month=2026-01&sub=${dan.id}#statement-${dan.id}`],
      ["Add an e-mail address", `/cis/subcontractors/${dan.id}/edit`],
    ]);
    // The link's anchor is that subcontractor's row on the statements page.
    const statements = await visit(b, `${t.origin}/cis/statements?month=2026-01&sub=${dan.id}`);
    expect(attr(one(statements.doc, `#statement-${dan.id}`), "data-subcontractor")).toBe(dan.id);
  });
});
