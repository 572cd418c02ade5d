import { env } from "cloudflare:workers";
import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "~/db/client.server";
import { cisReturns, hmrcSubmissions } from "~/db/schema";
import { readDevHmrcMessages } from "~/features/cis/hmrc/fake-te.server";
import { registerReturnSubmissionSource } from "~/features/cis/hmrc/return-submission.server";
import { amendReturn, compileMonthlyReturn } from "~/features/cis/returns/returns.server";
import { returnSubmissionSource } from "~/features/cis/returns/submission.server";
import { cisStaff, seedSub } from "../factories/cis";
import { page, pageText, textOf } from "../factories/html";
import { seedInvoice } from "../factories/returns";
import { mintKey, SUBMISSION_KEY_FIELD, withPageKey } from "../factories/submission-keys";
import { audits as auditsFor } from "../factories/audits";
import { readyForHmrc } from "../factories/hmrc";
import { formatDateTime } from "~/utils/dates";
import { base32Encode } from "~/features/cis/domain/xml/base32";
import { formatInTimeZone } from "date-fns-tz";
import { count } from "./auth-helpers";
import { poll } from "./queue-helpers";

const MONTH = "2026-01"; // 6 January to 5 February 2026
const DECLARED = { employmentStatus: "yes", verification: "yes", informationCorrect: "yes" };
const actor = { id: "compiler", email: "compiler@example.test", name: "Compiler" };

// Another test file stands a stub in for the returns layer; this one uses the real source.
beforeAll(() => registerReturnSubmissionSource(returnSubmissionSource));

async function returnRow(tenantId: string, id: string) {
  const [row] = await getDb(env)
    .select()
    .from(cisReturns)
    .where(and(eq(cisReturns.tenantId, tenantId), eq(cisReturns.id, id)));
  return row;
}

async function accepted(b: Awaited<ReturnType<typeof cisStaff>>["b"], url: string) {
  return poll(async () => {
    const d = await page(await b.get(url));
    return textOf(d, '[data-testid="hmrc-status"]') === "Accepted by HMRC" ? d : null;
  }, 40_000);
}

describe("submitting a compiled return to HMRC", () => {
  it("sends the compiled lines with the subcontractors' own identifiers; HMRC's acceptance locks the return and audits it in pounds", async () => {
    const { t, b } = await cisStaff("admin", { settings: {} });
    await readyForHmrc(t);
    const ann = await seedSub(t, { name: "Ann Roofing" });
    const bob = await seedSub(t, { name: "Bob Smith" });
    await seedInvoice(t, { subcontractorId: ann.id, subcontractorName: ann.name, grossP: 100_000, materialsP: 20_000, paymentDate: "2026-01-10" });
    await seedInvoice(t, { subcontractorId: ann.id, subcontractorName: ann.name, grossP: 50_050, materialsP: 50, paymentDate: "2026-01-20" });
    await seedInvoice(t, { subcontractorId: bob.id, subcontractorName: bob.name, grossP: 200_000, materialsP: 0, paymentDate: "2026-02-01", rate: 30 });
    const compiled = await compileMonthlyReturn(env, t.id, MONTH, actor);
    expect(compiled.ok).toBe(true);
    expect((await returnRow(t.id, MONTH))?.status).toBe("ready");

    const url = `${t.origin}/cis/returns/${MONTH}/submit`;
    const before = pageText(await page(await b.get(url)));
    expect(before).toContain("£3,500.50"); // 1,000.00 + 500.50 + 2,000.00

    // A second tab opened before sending: its form is posted after HMRC has accepted the return.
    const staleTab = await withPageKey(b, url, DECLARED);
    const sent = await b.post(url, await withPageKey(b, url, DECLARED));
    expect(sent.status).toBe(302);
    const done = await accepted(b, url);
    expect(done.querySelector('input[name="informationCorrect"]')).toBeNull();

    // What HMRC received: both subcontractors with their real UTRs, decrypted at sending only.
    const [submission] = await getDb(env)
      .select()
      .from(hmrcSubmissions)
      .where(and(eq(hmrcSubmissions.tenantId, t.id), eq(hmrcSubmissions.kind, "cis300")));
    const received = await readDevHmrcMessages(env, submission!.correlationId!);
    const xml = received.map((m) => m.requestXml).join("\n");
    expect(xml).toContain(`<UTR>${ann.utr}</UTR>`);
    expect(xml).toContain(`<UTR>${bob.utr}</UTR>`);
    // Payments and materials go in whole pounds, rounded down; deductions to the penny.
    expect(xml).toContain("<TotalPayments>1500.00</TotalPayments>");
    expect(xml).toContain("<CostOfMaterials>200.00</CostOfMaterials>");
    expect(xml).toContain("<TotalDeducted>260.00</TotalDeducted>");
    expect(xml).toContain("<TotalPayments>2000.00</TotalPayments>");
    expect(xml).toContain("<UnmatchedRate>yes</UnmatchedRate>");

    const row = await returnRow(t.id, MONTH);
    expect(row).toMatchObject({ status: "submitted", locked: true, irmark: submission!.irmark });
    expect(row?.submittedAt).toBeGreaterThan(0);
    expect(row?.submissionRef).toBeTruthy();

    const audits = await auditsFor(t.id, "cis.return.submitted");
    expect(audits).toHaveLength(1);
    expect(audits[0]!.payload).toMatchObject({ taxMonth: MONTH, status: "submitted", gross: 3500.5, cis: 860, subcontractors: 2 });
    // The dashboard's Recent Activity: return.submit with gross and CIS in pounds, by the submitter.
    const { results: activity } = await env.DB.prepare(
      "SELECT performed_by, performed_by_name, details FROM activity_log WHERE tenant_id = ? AND action = 'return.submit'",
    )
      .bind(t.id)
      .all<{ performed_by: string | null; performed_by_name: string | null; details: string }>();
    expect(activity).toHaveLength(1);
    expect(JSON.parse(activity[0]!.details)).toEqual({ taxMonth: MONTH, gross: 3500.5, cis: 860 });
    expect(activity[0]!.performed_by).toBe(submission!.createdBy);
    expect(activity[0]!.performed_by_name).toBeTruthy();
    expect(textOf(await page(await b.get(`${t.origin}/cis`)), '[data-testid="recent-activity"]')).toContain(
      "submitted the return for 6 January to 5 February 2026",
    );

    // Accepted and locked is a success: said as one on the submit page and the returns page, with no lock error.
    // The IRmark as HMRC's receipt quotes it (base32), once: not again as a second "reference".
    const onReceipt = base32Encode(Uint8Array.from(atob(submission!.irmark!), (c) => c.charCodeAt(0)));
    const filedText = `Submitted to HMRC on ${formatDateTime(row!.submittedAt)} — accepted; IRmark ${onReceipt}`;
    const shown = await page(await b.get(url));
    expect(textOf(shown, '[data-testid="return-filed"] p')).toBe(filedText);
    expect(pageText(shown)).toContain(`The associated IRmark was: ${onReceipt}`);
    expect(shown.querySelector('[role="alert"]')).toBeNull();
    const returnsPage = await page(await b.get(`${t.origin}/cis/returns?month=${MONTH}`));
    expect(textOf(returnsPage, '[data-testid="return-filed"] p')).toBe(filedText);
    expect(returnsPage.querySelector('[data-testid="return-filed"]')!.textContent!.split(onReceipt)).toHaveLength(2);
    expect(returnsPage.querySelector('[role="alert"]')).toBeNull();
    expect(returnsPage.querySelector("[data-submit]")).toBeNull();
    // Sending it again (a stale page) sends nothing and says it is already accepted, not an error.
    const again = await b.post(url, staleTab);
    expect(again.status).toBe(302);
    const told = await page(await b.get(url));
    expect(pageText(told)).toContain("HMRC has already accepted this return.");
    expect(told.querySelector('[role="alert"]')).toBeNull();
    expect(await count("hmrc_submissions", "tenant_id = ? AND kind = 'cis300'", t.id)).toBe(1);
    const recompiled = await compileMonthlyReturn(env, t.id, MONTH, actor);
    expect(recompiled.ok).toBe(false);
  }, 60_000);

  it("a nil return stays nil when accepted, and an invalid return is refused before anything is sent", async () => {
    const { t, b } = await cisStaff("admin", { settings: {} });
    await readyForHmrc(t);
    const nil = await compileMonthlyReturn(env, t.id, MONTH, actor, { mode: "nil" });
    expect(nil.ok).toBe(true);
    const url = `${t.origin}/cis/returns/${MONTH}/submit`;
    expect((await b.post(url, await withPageKey(b, url, { ...DECLARED, inactivity: "yes" }))).status).toBe(302);
    await accepted(b, url);
    expect(await returnRow(t.id, MONTH)).toMatchObject({ status: "nil", locked: true });
    expect((await auditsFor(t.id, "cis.return.submitted"))[0]!.payload).toMatchObject({ status: "nil", gross: 0, cis: 0 });
    // Its inactivity declaration is recorded as a notice of no payments for the six months after it, dated the London day of acceptance.
    const notices = await env.DB.prepare("SELECT source, given_on, first_month, months, return_id FROM cis_no_payment_notices WHERE tenant_id = ?")
      .bind(t.id)
      .all();
    expect(notices.results).toEqual([
      { source: "cis300", given_on: formatInTimeZone(new Date(), "Europe/London", "yyyy-MM-dd"), first_month: "2026-02", months: 6, return_id: MONTH },
    ]);

    // Statements still owed: the return is not valid, so the submit page refuses it.
    const other = await cisStaff("admin", { settings: {} });
    await readyForHmrc(other.t);
    const sub = await seedSub(other.t, { name: "Cy Owed" });
    await seedInvoice(other.t, { subcontractorId: sub.id, subcontractorName: sub.name, paymentDate: "2026-01-12", statementRequired: true });
    expect((await compileMonthlyReturn(env, other.t.id, MONTH, actor)).ok).toBe(true);
    const otherUrl = `${other.t.origin}/cis/returns/${MONTH}/submit`;
    expect(pageText(await page(await other.b.get(otherUrl)))).toContain("Return validation failed");
    // The page offers no form; a key the person could have had from an earlier page still gets a refusal.
    const key = await mintKey(other.t, other.u, `cis.return.submit:${MONTH}`);
    expect((await other.b.post(otherUrl, { ...DECLARED, [SUBMISSION_KEY_FIELD]: key })).status).toBe(409);
    expect(await count("hmrc_submissions", "tenant_id = ?", other.t.id)).toBe(0);
    expect((await returnRow(other.t.id, MONTH))?.locked).toBe(false);
  }, 60_000);

  it("an amendment of a submitted return is sent as its own return and stays amended once accepted", async () => {
    const { t, b } = await cisStaff("admin", { settings: {} });
    await readyForHmrc(t);
    const sub = await seedSub(t, { name: "Amy Amend" });
    await seedInvoice(t, { subcontractorId: sub.id, subcontractorName: sub.name, grossP: 100_000, materialsP: 0, paymentDate: "2026-01-10" });
    expect((await compileMonthlyReturn(env, t.id, MONTH, actor)).ok).toBe(true);
    const url = `${t.origin}/cis/returns/${MONTH}/submit`;
    expect((await b.post(url, await withPageKey(b, url, DECLARED))).status).toBe(302);
    await accepted(b, url);

    // A payment found later: amend, recompile the amendment, send it.
    await seedInvoice(t, { subcontractorId: sub.id, subcontractorName: sub.name, grossP: 20_000, materialsP: 0, paymentDate: "2026-01-20" });
    const amended = await amendReturn(env, t.id, MONTH, actor);
    expect(amended.ok).toBe(true);
    const recompiled = await compileMonthlyReturn(env, t.id, MONTH, actor);
    expect(recompiled.ok).toBe(true);
    const amendmentId = recompiled.ok ? recompiled.id : "";
    expect(amendmentId).toMatch(new RegExp(`^${MONTH}-AMD-\\d+$`));
    expect(pageText(await page(await b.get(url)))).toContain("£1,200.00");
    expect((await b.post(url, await withPageKey(b, url, DECLARED))).status).toBe(302);
    await accepted(b, url);

    expect(await returnRow(t.id, amendmentId)).toMatchObject({ status: "amended", locked: true });
    expect(await returnRow(t.id, MONTH)).toMatchObject({ status: "submitted", locked: true });
    expect(await count("hmrc_submissions", "tenant_id = ? AND kind = 'cis300'", t.id)).toBe(2);
    const audits = await auditsFor(t.id, "cis.return.submitted");
    expect(audits.map((a) => (a.payload as { status: string; gross: number }).status).sort()).toEqual(["amended", "submitted"]);
  }, 90_000);

  it("Nil Return in one step: the box confirms it (no JavaScript), then it is compiled, sent and accepted in one click, audited, once", async () => {
    const { t, b, u } = await cisStaff("admin", { settings: {} });
    await readyForHmrc(t);
    const returnsUrl = `${t.origin}/cis/returns?month=${MONTH}`;
    const form = await withPageKey(b, returnsUrl, { intent: "nil-submit", month: MONTH, inactivity: "yes" }, '[data-testid="nil-submit"]');

    // Not ticked: refused beside the box, nothing compiled or sent.
    const unconfirmed = await b.post(returnsUrl, form);
    expect(unconfirmed.status).toBe(400);
    expect(textOf(await page(unconfirmed), "#nil-confirm-error")).toBe(
      "Confirm that no payments were made to subcontractors in the month and that the information is correct",
    );
    expect(await count("cis_returns", "tenant_id = ?", t.id)).toBe(0);

    const sent = await b.post(returnsUrl, { ...form, confirmed: "yes" });
    expect(sent.status).toBe(302);
    expect(sent.headers.get("Location")).toBe(`/cis/returns/${MONTH}/submit`);
    await accepted(b, `${t.origin}/cis/returns/${MONTH}/submit`);
    expect(await returnRow(t.id, MONTH)).toMatchObject({ status: "nil", locked: true });
    expect((await auditsFor(t.id, "cis.return.compiled")).length).toBe(1);
    expect((await auditsFor(t.id, "cis.return.submitted"))[0]).toMatchObject({ actorId: u.id, payload: expect.objectContaining({ status: "nil" }) });
    // What HMRC received is a nil return carrying the inactivity declaration, which became a notice.
    const [submission] = await getDb(env)
      .select()
      .from(hmrcSubmissions)
      .where(and(eq(hmrcSubmissions.tenantId, t.id), eq(hmrcSubmissions.kind, "cis300")));
    const xml = (await readDevHmrcMessages(env, submission!.correlationId!)).map((m) => m.requestXml).join("\n");
    expect(xml).toMatch(/<NilReturn>yes<\/NilReturn>/);
    expect(xml).toMatch(/<Inactivity>yes<\/Inactivity>/);
    expect(await count("cis_no_payment_notices", "tenant_id = ? AND source = 'cis300'", t.id)).toBe(1);

    // The same form again (a double click, a resend): the first answer, nothing sent twice.
    const again = await b.post(returnsUrl, { ...form, confirmed: "yes" });
    expect(again.status).toBe(302);
    expect(await count("hmrc_submissions", "tenant_id = ? AND kind = 'cis300'", t.id)).toBe(1);
    // The page offers it no longer: the month is filed.
    expect((await page(await b.get(returnsUrl))).querySelector('[data-testid="nil-submit"]')).toBeNull();
  }, 60_000);

  it("Nil Return in one step needs both compile and submit: a lead gets the two-step Nil Return, and a posted one-step form is 403", async () => {
    const { t, b, u } = await cisStaff("lead", { settings: {} });
    const returnsUrl = `${t.origin}/cis/returns?month=${MONTH}`;
    const doc = await page(await b.get(returnsUrl));
    expect(doc.querySelector('[data-testid="nil-submit"]')).toBeNull();
    const key = await mintKey(t, u, `cis.return.submit:${MONTH}`);
    const res = await b.post(returnsUrl, { intent: "nil-submit", month: MONTH, confirmed: "yes", [SUBMISSION_KEY_FIELD]: key });
    expect(res.status).toBe(403);
    expect(await count("cis_returns", "tenant_id = ?", t.id)).toBe(0);
  });
});
