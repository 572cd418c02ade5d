import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { Role } from "~/db/schema";
import { currentTaxMonth, formatPence, taxMonthFromLabel } from "~/features/cis/domain";
import { compileMonthlyReturn } from "~/features/cis/returns/returns.server";
import { parseCsv } from "~/utils/csv-read.server";
import { formatLongDate } from "~/utils/dates";
import { createTenant, createUser, type TestTenant } from "../factories";
import { cisStaff, seedSub } from "../factories/cis";
import { all, attr, hrefs, isDisabled, one, page, textOf, textsOf, visit } from "../factories/html";
import { seedInvoice } from "../factories/returns";
import { signedIn } from "../factories/sessions";
import { audits } from "../factories/audits";
import { count } from "./auth-helpers";
import type { Browser } from "./http";
import worker from "../../workers/app";
import { returnLockStub } from "../../workers/durable-objects/return-lock";

const MONTH = "2026-01";
const url = (t: TestTenant, path = `/cis/returns?month=${MONTH}`) => `${t.origin}${path}`;
const seeder = { id: "seed", email: "seed@example.test", name: "Seeder" };

async function staff(role: Role, tenant?: TestTenant) {
  return cisStaff(role, { tenant, settings: {} });
}

async function post(b: Browser, t: TestTenant, form: Record<string, string>) {
  return b.post(url(t), { month: MONTH, ...form });
}

async function markSubmitted(tenantId: string, id: string) {
  await env.DB.prepare(
    "UPDATE cis_returns SET status = 'submitted', locked = 1, locked_at = ?, submitted_at = ?, submission_ref = 'CORR-9' WHERE tenant_id = ? AND id = ?",
  )
    .bind(Date.now(), Date.now(), tenantId, id)
    .run();
}

async function denials(tenantId: string) {
  return count("audit_events", "tenant_id = ? AND action = 'cis.permission.denied'", tenantId);
}

const incoming = (u: string, init: RequestInit) => new Request(u, init) as Request<unknown, IncomingRequestCfProperties>;

describe("the returns page", () => {
  it("empty month: the Current Tax Month card with period, deadlines and 'Not compiled', the empty states, Compile Return and Nil Return", async () => {
    const { t, b } = await staff("lead");
    const { status, doc, text } = await visit(b, url(t));
    expect(status).toBe(200);
    const tm = taxMonthFromLabel(MONTH);
    expect(textOf(doc, '[data-field="period"]')).toBe("6 January to 5 February 2026");
    expect(textOf(doc, '[data-field="filing-deadline"]')).toBe(formatLongDate(tm.deadlines.filing));
    expect(textOf(doc, '[data-field="payment-deadline"]')).toBe("22 February 2026");
    expect(textOf(doc, '[data-field="status"]')).toBe("Not compiled");
    expect(text).toContain("No return compiled for this tax month");
    expect(text).toContain("No historical returns found");
    const buttons = textsOf(doc, '[data-testid="return-actions"] button');
    expect(buttons).toEqual(["Compile Return", "Nil Return"]);
    // A lead cannot submit: no Submit Return at all; nothing to export yet.
    expect(text).not.toContain("Submit Return");
    expect(text).not.toContain("Unlock (Testing)");
  });

  it("defaults to the current tax month, and says so when the month cannot be determined", async () => {
    const { t, b } = await staff("standard");
    const { doc } = await visit(b, url(t, "/cis/returns"));
    expect(textOf(doc, '[data-field="period"]')).toBe(currentTaxMonth(new Date()).displayLabel);
    const bad = await visit(b, url(t, "/cis/returns?month=2026-13"));
    expect(bad.status).toBe(400);
    expect(bad.text).toContain("Unable to determine current tax month");
  });

  it("compile: redirect with a toast, then status Ready, totals, 'Return validated successfully', the lines and Recompile; the manager's Submit Return links to the submit page", async () => {
    const { t, b } = await staff("manager");
    const sub = await seedSub(t, { name: "Page Builder" });
    const inv = await seedInvoice(t, { subcontractorId: sub.id, subcontractorName: sub.name, grossP: 123_456, materialsP: 23_456 });
    const res = await post(b, t, { intent: "compile" });
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe(`/cis/returns?month=${MONTH}`);
    const { doc, text } = await visit(b, url(t));
    expect(text).toContain("Return Compiled");
    expect(textOf(doc, '[data-field="status"]')).toBe("Ready");
    expect(textOf(doc, '[data-card="Subcontractors"]')).toBe("1");
    expect(textOf(doc, '[data-card="Total Gross"]')).toBe(formatPence(123_456));
    expect(textOf(doc, '[data-card="Total CIS Deducted"]')).toBe(formatPence(inv.cisDeductionP));
    expect(textOf(doc, "[data-valid]")).toBe("Return validated successfully");
    expect(textsOf(doc, `[data-line="${sub.id}"] td`).slice(0, 1)).toEqual(["Page Builder"]);
    expect(textsOf(doc, '[data-testid="return-actions"] button')).toEqual(["Recompile", "Export CSV"]);
    const submit = one(doc, '[data-submit="enabled"]');
    expect(attr(submit, "href")).toBe(`/cis/returns/${MONTH}/submit`);
    expect(submit.textContent).toBe("Submit Return");
    // The return is listed in Historical Returns with its totals.
    const item = one(doc, `[data-history="${MONTH}"]`);
    expect(item.textContent).toContain("Total Materials");
    expect(item.textContent).toContain(formatPence(23_456));
  });

  it("each line says whether its statements were given: 'Issued', 'Not issued', or 'Not needed' for a subcontractor paid gross", async () => {
    const { t, b } = await staff("manager");
    const gross = await seedSub(t, { name: "Gross Groundworks" });
    const given = await seedSub(t, { name: "Given Glazing" });
    const owed = await seedSub(t, { name: "Owed Openings" });
    await seedInvoice(t, { subcontractorId: gross.id, subcontractorName: gross.name, rate: 0 });
    await seedInvoice(t, { subcontractorId: given.id, subcontractorName: given.name, statementRequired: true, statementIssuedAt: Date.now() });
    await seedInvoice(t, { subcontractorId: owed.id, subcontractorName: owed.name, statementRequired: true });
    // Owed Openings' missing statement makes it a draft with that issue; its lines are kept.
    expect((await post(b, t, { intent: "compile" })).status).toBe(200);
    const { doc } = await visit(b, url(t));
    const statementsOf = (id: string) => textsOf(doc, `[data-line="${id}"] td`).at(-1);
    expect([statementsOf(gross.id), statementsOf(given.id), statementsOf(owed.id)]).toEqual(["Not needed", "Issued", "Not issued"]);
  });

  it("a compile that finds problems shows the 'Validation Issues' dialog; the return is a draft and Submit is disabled with the reason", async () => {
    const { t, b } = await staff("manager");
    const sub = await seedSub(t, { name: "Issue Builder" });
    await seedInvoice(t, { subcontractorId: sub.id, subcontractorName: sub.name, statementRequired: true });
    const res = await post(b, t, { intent: "compile" });
    expect(res.status).toBe(200);
    const doc = await page(res);
    const dialog = one(doc, '[data-dialog="validation-issues"]');
    expect(attr(dialog, "role")).toBe("alertdialog");
    expect(textOf(dialog, "h3")).toBe("Validation Issues");
    expect(textsOf(dialog, "li > span:first-child")).toEqual(["Line 1: Statement not issued for Issue Builder"]);
    // Not a dead end: the issue links to where it is fixed, as the Validation panel does.
    const fix = one(dialog, "li a");
    expect(fix.textContent).toBe("Issue the statement");
    expect(attr(fix, "href")).toBe(attr(one(doc, "[data-issues] li a"), "href"));
    expect(textOf(doc, '[data-field="status"]')).toBe("Draft");
    expect(textsOf(doc, "[data-issues] li > span:first-child")).toEqual(["Line 1: Statement not issued for Issue Builder"]);
    const submit = one(doc, '[data-submit="disabled"]');
    expect(isDisabled(submit)).toBe(true);
    expect(textOf(doc, `#${attr(submit, "aria-describedby")}`)).toBe("Return validation failed: Line 1: Statement not issued for Issue Builder");
  });

  it("while a compile of the month runs, a posted compile is told so and writes nothing; once it ends, compile works", async () => {
    const { t, b } = await staff("lead");
    const sub = await seedSub(t);
    for (let i = 0; i < 3; i++) await seedInvoice(t, { subcontractorId: sub.id });
    const lock = returnLockStub(env, t.id, MONTH);
    expect((await lock.acquire("running-compile", 60_000)).acquired).toBe(true);
    const refused = await post(b, t, { intent: "compile" });
    expect(refused.status).toBe(409);
    expect(textsOf(await page(refused), "[data-action-error] p")).toEqual([
      "Compilation Failed",
      "This tax month's return is already being compiled. Wait a moment, then reload the page",
    ]);
    expect(await count("cis_returns", "tenant_id = ?", t.id)).toBe(0);
    expect(await count("cis_return_lines", "tenant_id = ?", t.id)).toBe(0);
    expect(await count("audit_events", "tenant_id = ? AND action = 'cis.return.compiled'", t.id)).toBe(0);
    await lock.release("running-compile");
    expect((await post(b, t, { intent: "compile" })).status).toBe(302);
    expect(await count("audit_events", "tenant_id = ? AND action = 'cis.return.compiled'", t.id)).toBe(1);
  });

  it("a submitted return: shown as accepted (no lock error), no Recompile (a forced post changes nothing and says it is accepted), Amend creates '{month}-AMD-{ms}' after confirming", async () => {
    const { t, b } = await staff("manager");
    const sub = await seedSub(t);
    await seedInvoice(t, { subcontractorId: sub.id });
    await compileMonthlyReturn(env, t.id, MONTH, seeder);
    await markSubmitted(t.id, MONTH);
    const { doc, text } = await visit(b, url(t));
    expect(textOf(doc, '[data-field="status"]')).toBe("Submitted (locked)");
    expect(text).toContain("reference CORR-9");
    expect(textsOf(doc, '[data-testid="return-actions"] button')).toEqual(["Export CSV", "Amend"]);
    expect(textOf(doc, '[data-testid="return-filed"] p')).toMatch(/^Submitted to HMRC on \d{2}\/\d{2}\/\d{4}, \d{2}:\d{2} — accepted$/);
    expect(doc.querySelector("#submit-reason")).toBeNull();
    expect(doc.querySelector('[role="alert"]')).toBeNull();

    const compiledAt = await env.DB.prepare("SELECT compiled_at FROM cis_returns WHERE tenant_id = ? AND id = ?").bind(t.id, MONTH).first("compiled_at");
    const forced = await post(b, t, { intent: "compile" });
    expect(forced.status).toBe(302);
    const told = await visit(b, url(t));
    expect(told.text).toContain("HMRC has already accepted this return. To change it, start an amendment.");
    expect(told.doc.querySelector("[data-action-error]")).toBeNull();
    expect(await env.DB.prepare("SELECT compiled_at FROM cis_returns WHERE tenant_id = ? AND id = ?").bind(t.id, MONTH).first("compiled_at")).toBe(compiledAt);

    // Without JavaScript the amend asks first, on a page the server renders.
    const ask = await post(b, t, { intent: "amend", id: MONTH });
    expect(ask.status).toBe(200);
    const askDoc = await page(ask);
    expect(textOf(askDoc, '[data-confirm="amend"] h3')).toContain(`Amend return ${MONTH}?`);
    expect(await count("cis_returns", "tenant_id = ?", t.id)).toBe(1);

    const done = await post(b, t, { intent: "amend", id: MONTH, confirmed: "yes" });
    expect(done.status).toBe(302);
    const after = await visit(b, url(t));
    expect(textOf(after.doc, '[data-field="status"]')).toBe("Amended");
    expect(textOf(after.doc, '[data-field="return-id"]')).toMatch(/^Return 2026-01-AMD-\d{13}, amending 2026-01/);
    expect(textsOf(after.doc, '[data-testid="return-actions"] button')).toEqual(["Recompile", "Export CSV"]);
    expect(attr(one(after.doc, '[data-submit="enabled"]'), "href")).toBe(`/cis/returns/${MONTH}/submit`);
    expect(await count("audit_events", "tenant_id = ? AND action = 'cis.return.amended'", t.id)).toBe(1);

    // An unsubmitted return cannot be amended.
    const again = await post(b, t, { intent: "amend", id: MONTH, confirmed: "yes" });
    expect(again.status).toBe(409);
    expect(textsOf(await page(again), "[data-action-error] p")).toEqual(["Amend Failed", "An amendment of this return is already open"]);
    const t2 = await staff("manager");
    await compileMonthlyReturn(env, t2.t.id, MONTH, seeder);
    const notSubmitted = await post(t2.b, t2.t, { intent: "amend", id: MONTH, confirmed: "yes" });
    expect(textsOf(await page(notSubmitted), "[data-action-error] p")).toEqual([
      "Amend Failed",
      "Only a submitted return can be amended. Compile and submit this month's return first",
    ]);
  });

  it("nil return: asks for the inactivity declaration, then creates a nil return the manager may submit; refused when the month has payments", async () => {
    const { t, b } = await staff("manager");
    const ask = await post(b, t, { intent: "nil" });
    expect(textOf(await page(ask), '[data-confirm="nil"] h3')).toBe(
      "Create a nil return for 6 January to 5 February 2026? This declares that no payments were made to subcontractors in this tax month.",
    );
    expect(await count("cis_returns", "tenant_id = ?", t.id)).toBe(0);
    const done = await post(b, t, { intent: "nil", confirmed: "yes" });
    expect(done.status).toBe(302);
    // Straight on to its declarations and sending: the manager may send it.
    expect(done.headers.get("Location")).toBe(`/cis/returns/${MONTH}/submit`);
    const { doc, text } = await visit(b, url(t));
    expect(text).toContain("Nil Return Created");
    expect(textOf(doc, '[data-field="status"]')).toBe("Nil");
    expect(textOf(doc, '[data-card="Total Gross"]')).toBe("£0.00");
    expect(one(doc, '[data-submit="enabled"]')).toBeTruthy();

    const sub = await seedSub(t);
    await seedInvoice(t, { subcontractorId: sub.id, paymentDate: "2026-02-10" });
    const feb = await b.post(url(t, "/cis/returns?month=2026-02"), { intent: "nil", month: "2026-02", confirmed: "yes" });
    expect(feb.status).toBe(409);
    expect(textsOf(await page(feb), "[data-action-error] p")[1]).toContain("Payments were made in this tax month");
    // The page does not offer it either.
    expect(textsOf((await visit(b, url(t, "/cis/returns?month=2026-02"))).doc, '[data-testid="return-actions"] button')).not.toContain("Nil Return");
  });

  it("an invalid month on a post is 'Unable to Compile' and says to choose a tax month from the list", async () => {
    const { t, b } = await staff("lead");
    const res = await b.post(url(t), { intent: "compile", month: "2026-99" });
    expect(res.status).toBe(400);
    expect(textsOf(await page(res), "[data-action-error] p")).toEqual([
      "Unable to Compile",
      "That is not a tax month the returns page offers. Choose a tax month from the list",
    ]);
    expect(await count("cis_returns", "tenant_id = ?", t.id)).toBe(0);
  });
});

describe("nil returns and notices of no payments", () => {
  async function startedIn(t: TestTenant, iso: string) {
    await env.DB.prepare("UPDATE cis_settings SET created_at = ? WHERE tenant_id = ?").bind(Date.parse(iso), t.id).run();
  }

  it("a month without payments says a nil return is due from April 2026 (optional before); a lead who can compile does not go on to the submit page", async () => {
    const { t, b } = await staff("lead");
    const may = await visit(b, url(t, "/cis/returns?month=2026-05"));
    expect(attr(one(may.doc, "[data-need]"), "data-need")).toBe("nil_return");
    expect(textOf(may.doc, "[data-need]")).toBe(
      "No payments to subcontractors this month: a nil return is due by 19 June 2026, unless HMRC was told by 22 April 2026 that none would be made.",
    );
    const march = await visit(b, url(t, "/cis/returns?month=2026-03"));
    expect(attr(one(march.doc, "[data-need]"), "data-need")).toBe("none_optional");
    // With payments the month simply needs its return compiled.
    const sub = await seedSub(t);
    await seedInvoice(t, { subcontractorId: sub.id, paymentDate: "2026-06-10" });
    expect((await visit(b, url(t, "/cis/returns?month=2026-06"))).doc.querySelector("[data-need]")).toBeNull();
    // A lead cannot send: after a nil return, back to the returns page.
    const done = await b.post(url(t, "/cis/returns?month=2026-05"), { intent: "nil", month: "2026-05", confirmed: "yes" });
    expect(done.headers.get("Location")).toBe("/cis/returns?month=2026-05");
  });

  it("a notice given another way is recorded through the form (audited); it covers the months it was given in time for, and the overdue list follows", async () => {
    const { t, b } = await staff("manager");
    await startedIn(t, "2026-04-10T12:00:00Z");
    const before = await visit(b, url(t, "/cis/returns"));
    expect(all(before.doc, "[data-overdue]").map((li) => attr(li, "data-overdue"))).toContain("2026-06");
    expect(textOf(before.doc, '[data-empty="notices"]')).toBe("No notices recorded");

    // Given on 23 May 2026 for June and July: exactly 14 days before 6 June, in time for both.
    const res = await b.post(url(t), { intent: "notice", givenOn: "2026-05-23", firstMonth: "2026-06", months: "2" });
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/cis/returns?month=2026-06");
    const [entry] = await audits(t.id, "cis.notice.recorded");
    expect(entry?.payload).toEqual({ givenOn: "2026-05-23", firstMonth: "2026-06", months: 2, source: "other" });

    const june = await visit(b, url(t, "/cis/returns?month=2026-06"));
    expect(attr(one(june.doc, "[data-need]"), "data-need")).toBe("none_notice_given");
    expect(textOf(june.doc, "[data-need]")).toContain("given on 23 May 2026");
    expect(textOf(june.doc, "[data-notice-text]")).toBe("June 2026 to July 2026 · given on 23 May 2026 · Given to HMRC another way");
    const overdue = all(june.doc, "[data-overdue]").map((li) => attr(li, "data-overdue"));
    expect(overdue).not.toContain("2026-06");
    expect(overdue).not.toContain("2026-07");
    expect(overdue).toContain("2026-05");

    // Given on 24 May 2026 for June: 13 days before, too late; it still covers July.
    const other = await staff("manager");
    await startedIn(other.t, "2026-04-10T12:00:00Z");
    expect((await other.b.post(url(other.t), { intent: "notice", givenOn: "2026-05-24", firstMonth: "2026-06", months: "2" })).status).toBe(302);
    const late = await visit(other.b, url(other.t, "/cis/returns?month=2026-06"));
    expect(attr(one(late.doc, "[data-need]"), "data-need")).toBe("nil_return");
    const lateOverdue = all(late.doc, "[data-overdue]").map((li) => attr(li, "data-overdue"));
    expect(lateOverdue).toContain("2026-06");
    expect(lateOverdue).not.toContain("2026-07");
    // Each tenant sees only its own notices.
    expect(all(late.doc, "[data-notice]")).toHaveLength(1);
    expect(textOf(late.doc, "[data-notice-text]")).toContain("given on 24 May 2026");
  });

  it("a notice given another way is corrected and deleted (audited, in one batch with the change, delete confirmed first); a declaration is not; another tenant's is 404", async () => {
    const { t, b } = await staff("manager");
    await startedIn(t, "2026-04-10T12:00:00Z");
    await b.post(url(t), { intent: "notice", givenOn: "2026-05-24", firstMonth: "2026-06", months: "1" });
    const id = (await env.DB.prepare("SELECT id FROM cis_no_payment_notices WHERE tenant_id = ?").bind(t.id).first<{ id: string }>())!.id;
    expect(attr(one((await visit(b, url(t, "/cis/returns?month=2026-06"))).doc, "[data-need]"), "data-need")).toBe("nil_return");

    // Correct: the form comes filled in, and saving fixes the date (23 May: in time for June).
    const form = (await visit(b, url(t, `/cis/returns?month=2026-06&notice=${id}`))).doc;
    expect(attr(one(form, '[data-form="notice"] input[name="id"]'), "value")).toBe(id);
    expect(attr(one(form, "#givenOn"), "value")).toBe("2026-05-24");
    const bad = await b.post(url(t), { intent: "notice", id, givenOn: "", firstMonth: "2026-06", months: "1" });
    expect(bad.status).toBe(400);
    expect(textOf(await page(bad), "#givenOn-error")).toBe("Enter the date the notice was given to HMRC");
    const saved = await b.post(url(t), { intent: "notice", id, givenOn: "2026-05-23", firstMonth: "2026-06", months: "1" });
    expect(saved.status).toBe(302);
    const [corrected] = await audits(t.id, "cis.notice.updated", id);
    expect(corrected?.payload).toEqual({
      givenOn: "2026-05-23",
      firstMonth: "2026-06",
      months: 1,
      before: { givenOn: "2026-05-24", firstMonth: "2026-06", months: 1 },
    });
    expect(attr(one((await visit(b, url(t, "/cis/returns?month=2026-06"))).doc, "[data-need]"), "data-need")).toBe("none_notice_given");

    // Another tenant's notice: 404 for a correction and a delete, and it is untouched.
    const other = await staff("manager");
    expect((await other.b.post(url(other.t), { intent: "notice", id, givenOn: "2026-01-01", firstMonth: "2026-06", months: "1" })).status).toBe(404);
    expect((await other.b.post(url(other.t), { intent: "notice-delete", id, month: "2026-06", confirmed: "yes" })).status).toBe(404);
    // A reader may not change notices at all.
    const reader = await staff("standard", t);
    expect((await reader.b.post(url(t), { intent: "notice-delete", id, month: "2026-06", confirmed: "yes" })).status).toBe(403);

    // Delete asks first (the server's step without JavaScript), then deletes with its audit entry.
    const ask = await b.post(url(t), { intent: "notice-delete", id, month: "2026-06" });
    expect(textOf(await page(ask), '[data-confirm="notice-delete"] h3')).toContain("Delete this notice of no payments?");
    expect(await count("cis_no_payment_notices", "tenant_id = ?", t.id)).toBe(1);
    const gone = await b.post(url(t), { intent: "notice-delete", id, month: "2026-06", confirmed: "yes" });
    expect(gone.status).toBe(302);
    expect(await count("cis_no_payment_notices", "tenant_id = ?", t.id)).toBe(0);
    expect((await audits(t.id, "cis.notice.deleted", id))[0]?.payload).toEqual({ givenOn: "2026-05-23", firstMonth: "2026-06", months: 1 });
    expect(attr(one((await visit(b, url(t, "/cis/returns?month=2026-06"))).doc, "[data-need]"), "data-need")).toBe("nil_return");

    // An accepted return's inactivity declaration stays as HMRC was told: no Correct, no Delete, refused if posted.
    await env.DB.prepare(
      "INSERT INTO cis_no_payment_notices (tenant_id, id, source, given_on, first_month, months, return_id, created_at, created_by) VALUES (?, ?, 'cis300', '2026-05-10', '2026-05', 6, '2026-04', ?, NULL)",
    )
      .bind(t.id, `declaration:2026-04-${t.id}`, Date.now())
      .run();
    const withDeclaration = (await visit(b, url(t, "/cis/returns?month=2026-06"))).doc;
    expect(textOf(withDeclaration, "[data-notice]")).toContain("not editable");
    expect(all(withDeclaration, "[data-notice] button")).toHaveLength(0);
    const refused = await b.post(url(t), { intent: "notice-delete", id: `declaration:2026-04-${t.id}`, month: "2026-06", confirmed: "yes" });
    expect(refused.status).toBe(409);
    expect(await count("cis_no_payment_notices", "tenant_id = ?", t.id)).toBe(1);
  });

  it("bad input: each message beside its field, the input kept, nothing written", async () => {
    const { t, b } = await staff("manager");
    const tomorrow = new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10);
    const res = await b.post(url(t), { intent: "notice", givenOn: tomorrow, firstMonth: "June", months: "9" });
    expect(res.status).toBe(400);
    const doc = await page(res);
    expect(textOf(doc, "#givenOn-error")).toBe("The date the notice was given must be today or in the past");
    expect(textOf(doc, "#firstMonth-error")).toBe("Choose the first tax month the notice covers");
    expect(textOf(doc, "#months-error")).toBe("Choose how many months the notice covers (1 to 6)");
    expect(attr(one(doc, "#givenOn"), "value")).toBe(tomorrow);
    expect(attr(one(doc, "#givenOn"), "aria-invalid")).toBe("true");
    const empty = await page(await b.post(url(t), { intent: "notice", givenOn: "2026-02-30", firstMonth: "2026-06", months: "1" }));
    expect(textOf(empty, "#givenOn-error")).toBe("Enter the date the notice was given to HMRC");
    expect(await count("cis_no_payment_notices", "tenant_id = ?", t.id)).toBe(0);
    expect(await count("audit_events", "tenant_id = ? AND action = 'cis.notice.recorded'", t.id)).toBe(0);
  });

  it("a reader sees the notices but no form; a posted notice is 403, audited as refused, and writes nothing", async () => {
    const { t, b } = await staff("standard");
    const { doc } = await visit(b, url(t));
    expect(one(doc, '[data-testid="notices"]')).toBeTruthy();
    expect(doc.querySelector('[data-form="notice"]')).toBeNull();
    const before = await denials(t.id);
    expect((await b.post(url(t), { intent: "notice", givenOn: "2026-05-01", firstMonth: "2026-06", months: "1" })).status).toBe(403);
    expect(await denials(t.id)).toBe(before + 1);
    expect(await count("cis_no_payment_notices", "tenant_id = ?", t.id)).toBe(0);
  });
});

describe("return CSV export", () => {
  it("CIS_Return_{id}.csv with the spec's columns, masked identifiers, pounds, formula cells neutralised, audited", async () => {
    const { t, b } = await staff("lead");
    const evil = await seedSub(t, { name: '=HYPERLINK("http://evil.test")' });
    const plain = await seedSub(t, { name: "Plain Builder" });
    await seedInvoice(t, { subcontractorId: evil.id, subcontractorName: evil.name, grossP: 10_000, materialsP: 1_000 });
    await seedInvoice(t, { subcontractorId: plain.id, subcontractorName: plain.name, grossP: 20_050, materialsP: 0, rate: 30 });
    await compileMonthlyReturn(env, t.id, MONTH, seeder);

    expect((await b.get(url(t, "/cis/returns/export"))).status).toBe(404);
    const res = await b.post(url(t, "/cis/returns/export"), { id: MONTH });
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
    expect(res.headers.get("Content-Disposition")).toBe(`attachment; filename="CIS_Return_${MONTH}.csv"`);
    const body = await res.text();
    const rows = parseCsv(body.replace(/^\uFEFF/, "")).map((r) => r.cells);
    expect(rows[0]).toEqual(["Subcontractor", "UTR", "NINO", "Gross", "Materials", "CIS Deducted", "CIS Rate", "Invoices"]);
    const byName = new Map(rows.slice(1).map((r) => [r[0], r]));
    expect(byName.get("Plain Builder")).toEqual(["Plain Builder", expect.stringMatching(/^\*+\d{4}$/), "", "200.50", "0.00", "60.15", "30", "1"]);
    // The formula is shown as text: a quote in front of the =.
    expect(byName.get(`'=HYPERLINK("http://evil.test")`)?.[3]).toBe("100.00");
    expect(body).not.toMatch(/(^|,|\n)=HYPERLINK/);
    const [audit] = await env.DB.prepare("SELECT payload FROM audit_events WHERE tenant_id = ? AND action = 'cis.return.exported'")
      .bind(t.id)
      .all<{ payload: string }>()
      .then((r) => r.results);
    expect(JSON.parse(audit!.payload)).toMatchObject({ taxMonth: MONTH, rows: 2, gross: 300.5, format: "csv" });
  });

  it("a nil return has nothing to export: 'Export Failed' / 'There is nothing to export'; another tenant's return is 404", async () => {
    const { t, b } = await staff("lead");
    await compileMonthlyReturn(env, t.id, MONTH, seeder, { mode: "nil" });
    const res = await b.post(url(t, "/cis/returns/export"), { id: MONTH });
    expect(res.status).toBe(302);
    const { text } = await visit(b, `${t.origin}${res.headers.get("Location")}`);
    expect(text).toContain("Export Failed");
    expect(text).toContain("There is nothing to export: this return has no lines");

    const other = await staff("lead");
    const sub = await seedSub(other.t);
    await seedInvoice(other.t, { subcontractorId: sub.id });
    await compileMonthlyReturn(env, other.t.id, "2026-01", seeder);
    await compileMonthlyReturn(env, other.t.id, "2025-12", seeder);
    // 2025-12 exists only in the other tenant: 404 here, and nothing exported.
    expect((await b.post(url(t, "/cis/returns/export"), { id: "2025-12" })).status).toBe(404);
    expect(await count("audit_events", "tenant_id = ? AND action = 'cis.return.exported'", t.id)).toBe(0);
  });
});

describe("unlock (testing)", () => {
  it("only with the development flag and cis.manage: admin sees and uses it; a manager is refused 403 and audited", async () => {
    const { t, b } = await staff("admin");
    const sub = await seedSub(t);
    await seedInvoice(t, { subcontractorId: sub.id });
    await compileMonthlyReturn(env, t.id, MONTH, seeder);
    await markSubmitted(t.id, MONTH);
    const { doc } = await visit(b, url(t));
    expect(textsOf(doc, '[data-testid="return-actions"] button')).toContain("Unlock (Testing)");

    const mgr = await createUser(t, { role: "manager" });
    const mb = await signedIn(t, mgr);
    expect(textsOf((await visit(mb, url(t))).doc, '[data-testid="return-actions"] button')).not.toContain("Unlock (Testing)");
    const before = await denials(t.id);
    expect((await post(mb, t, { intent: "unlock", id: MONTH, confirmed: "yes" })).status).toBe(403);
    expect(await denials(t.id)).toBe(before + 1);

    const ask = await post(b, t, { intent: "unlock", id: MONTH });
    expect(textOf(await page(ask), '[data-confirm="unlock"] h3')).toContain("Unlock this return?");
    const done = await post(b, t, { intent: "unlock", id: MONTH, confirmed: "yes" });
    expect(done.status).toBe(302);
    const after = await visit(b, url(t));
    expect(textOf(after.doc, '[data-field="status"]')).toBe("Draft");
    expect(textOf(after.doc, "#submit-reason")).toBe("Recompile the return to validate it before submitting");
    expect(await count("audit_events", "tenant_id = ? AND action = 'cis.return.unlocked'", t.id)).toBe(1);
    // Unlocking an unlocked return: 'Unlock Failed' / nothing to unlock.
    const twice = await post(b, t, { intent: "unlock", id: MONTH, confirmed: "yes" });
    expect(textsOf(await page(twice), "[data-action-error] p")).toEqual(["Unlock Failed", "This return is not locked, so there is nothing to unlock"]);
  });

  it("does not exist in production, even for cis.manage: no button, and the post is 404 with nothing changed", async () => {
    const { t, b } = await staff("admin");
    const sub = await seedSub(t);
    await seedInvoice(t, { subcontractorId: sub.id });
    await compileMonthlyReturn(env, t.id, MONTH, seeder);
    await markSubmitted(t.id, MONTH);
    const prodEnv = { ...env, APP_ENV: "production" };
    const headers = { Cookie: b.cookieHeader(t.host), Origin: t.origin };
    const ctx = createExecutionContext();
    const pageRes = await worker.fetch(incoming(url(t), { headers }), prodEnv, ctx);
    await waitOnExecutionContext(ctx);
    expect(pageRes.status).toBe(200);
    const doc = await page(pageRes);
    expect(textOf(doc, '[data-field="status"]')).toBe("Submitted (locked)");
    expect(textsOf(doc, '[data-testid="return-actions"] button')).not.toContain("Unlock (Testing)");

    const body = new URLSearchParams({ intent: "unlock", month: MONTH, id: MONTH, confirmed: "yes" });
    const ctx2 = createExecutionContext();
    const res = await worker.fetch(
      incoming(url(t), { method: "POST", body, headers: { ...headers, "Content-Type": "application/x-www-form-urlencoded" } }),
      prodEnv,
      ctx2,
    );
    await waitOnExecutionContext(ctx2);
    expect(res.status).toBe(404);
    expect(await count("cis_returns", "tenant_id = ? AND locked = 1", t.id)).toBe(1);
    expect(await count("audit_events", "tenant_id = ? AND action = 'cis.return.unlocked'", t.id)).toBe(0);
  });
});

describe("returns: scopes and tenant isolation", () => {
  it("the page needs a read, compile or submit scope (403 audited otherwise); the nav shows Returns to those who may open it", async () => {
    const t = await createTenant({ modules: ["cis"], bundles: { standard: ["cis.inv.read"] } });
    const u = await createUser(t, { role: "standard" });
    const b = await signedIn(t, u);
    const before = await denials(t.id);
    expect((await b.get(url(t))).status).toBe(403);
    expect(await denials(t.id)).toBe(before + 1);
    expect(hrefs((await visit(b, `${t.origin}/cis/invoices`)).doc, 'nav[aria-label="CIS sections"] a')).not.toContain("/cis/returns");

    const reader = await staff("standard");
    expect(hrefs((await visit(reader.b, `${reader.t.origin}/cis`)).doc, 'nav[aria-label="CIS sections"] a')).toContain("/cis/returns");
  });

  it("a reader sees the page but no buttons; compile, nil and amend posts are 403 and audited; export without cis.io.export is 403", async () => {
    const { t, b } = await staff("standard");
    const sub = await seedSub(t);
    await seedInvoice(t, { subcontractorId: sub.id });
    await compileMonthlyReturn(env, t.id, MONTH, seeder);
    const { doc } = await visit(b, url(t));
    expect(all(doc, '[data-testid="return-actions"] button')).toEqual([]);
    expect(all(doc, '[data-testid="history"] button')).toEqual([]);
    const before = await denials(t.id);
    for (const intent of ["compile", "nil", "amend"]) expect((await post(b, t, { intent, confirmed: "yes", id: MONTH })).status, intent).toBe(403);
    expect((await b.post(url(t, "/cis/returns/export"), { id: MONTH })).status).toBe(403);
    expect(await denials(t.id)).toBe(before + 4);
    expect(await count("audit_events", "tenant_id = ? AND action = 'cis.return.compiled' AND actor_id != 'seed'", t.id)).toBe(0);
  });

  it("another tenant's returns are never listed, and its ids are 404 to unlock", async () => {
    const mine = await staff("admin");
    const theirs = await staff("admin");
    const sub = await seedSub(theirs.t, { name: "Secret Other Builder" });
    await seedInvoice(theirs.t, { subcontractorId: sub.id, subcontractorName: sub.name, paymentDate: "2025-12-10" });
    await compileMonthlyReturn(env, theirs.t.id, "2025-12", seeder);
    await markSubmitted(theirs.t.id, "2025-12");
    const { doc, text } = await visit(mine.b, url(mine.t, "/cis/returns?month=2025-12"));
    expect(textOf(doc, '[data-field="status"]')).toBe("Not compiled");
    expect(text).toContain("No historical returns found");
    expect(text).not.toContain("Secret Other Builder");
    expect((await post(mine.b, mine.t, { intent: "unlock", id: "2025-12", confirmed: "yes" })).status).toBe(404);
    expect(await count("cis_returns", "tenant_id = ? AND locked = 1", theirs.t.id)).toBe(1);
  });

  it("Historical Returns lists the 12 most recent, newest first, each expandable with its lines", async () => {
    const { t, b } = await staff("lead");
    const sub = await seedSub(t, { name: "History Builder" });
    const months = Array.from({ length: 13 }, (_, i) => {
      const y = 2025 + Math.floor(i / 12);
      return `${y}-${String((i % 12) + 1).padStart(2, "0")}`;
    });
    for (const m of months) {
      await seedInvoice(t, { subcontractorId: sub.id, subcontractorName: sub.name, paymentDate: `${m}-10` });
      await compileMonthlyReturn(env, t.id, m, seeder);
    }
    const { doc } = await visit(b, url(t));
    const ids = all(doc, "[data-history]").map((el) => el.getAttribute("data-history"));
    expect(ids).toEqual([...months].reverse().slice(0, 12));
    const first = one(doc, '[data-history="2026-01"] details');
    expect(textsOf(first, "td")[0]).toBe("History Builder");
    expect(textsOf(first, "button")).toEqual(["Export CSV"]);
  });
});

describe("the dashboard's return status and quick action", () => {
  it("shows the current month's return status once compiled, and Compile Return links to /cis/returns", async () => {
    const { t, b } = await staff("manager");
    const before = await visit(b, `${t.origin}/cis`);
    expect(textOf(before.doc, '[data-testid="return-status"]')).toBe("Not compiled");
    expect(attr(one(before.doc, '[data-action="compile-return"] > a'), "href")).toBe("/cis/returns");
    await compileMonthlyReturn(env, t.id, currentTaxMonth(new Date()).label, seeder);
    const after = await visit(b, `${t.origin}/cis`);
    expect(textOf(after.doc, '[data-testid="return-status"]')).toBe("Nil");
  });
});
