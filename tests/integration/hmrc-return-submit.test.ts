import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { registerReturnSubmissionSource, type ReturnForSubmission } from "~/features/cis/hmrc/return-submission.server";
import { returnSubmissionSource } from "~/features/cis/returns/submission.server";
import type { TestTenant } from "../factories";
import { cisStaff } from "../factories/cis";
import { describedBy, page, pageText, textOf } from "../factories/html";
import { mintKey, SUBMISSION_KEY_FIELD } from "../factories/submission-keys";
import { readyForHmrc } from "../factories/hmrc";
import { count } from "./auth-helpers";
import { SAMPLE_RETURN_LINE } from "./hmrc-helpers";
import { location } from "./http";
import { poll } from "./queue-helpers";

const MONTH = "2026-01";
/** Tenants whose stub return exists; any other tenant has none (as the real returns table answers). */
const returns = new Map<string, ReturnForSubmission>();

beforeAll(() => {
  registerReturnSubmissionSource(async (_env, tenantId, taxMonth) => {
    const ret = returns.get(tenantId);
    return ret && ret.taxMonth === taxMonth ? ret : null;
  });
});
// Put the returns layer's own source back for whatever runs next in this isolate.
afterAll(() => registerReturnSubmissionSource(returnSubmissionSource));

function stubReturn(t: TestTenant, over: Partial<ReturnForSubmission> = {}) {
  returns.set(t.id, {
    returnId: MONTH,
    taxMonth: MONTH,
    nil: false,
    lines: [SAMPLE_RETURN_LINE],
    totals: { subcontractors: 1, grossP: 150_000, materialsP: 30_000, cisDeductedP: 24_000 },
    refusal: null,
    ...over,
  });
}

/** A fresh one-time submission key for the month's submit form, as its page renders it. */
const submitKey = async (t: { id: string }, u: { id: string }) => ({ [SUBMISSION_KEY_FIELD]: await mintKey(t, u, `cis.return.submit:${MONTH}`) });

describe("/cis/returns/{taxMonth}/submit", () => {
  it("asks for the declarations, sends the CIS300 and shows HMRC's receipt once the poll brings it", async () => {
    const { t, u, b } = await cisStaff("admin", { settings: {} });
    await readyForHmrc(t);
    stubReturn(t);
    const url = `${t.origin}/cis/returns/${MONTH}/submit`;
    const first = await b.get(url);
    expect(first.status).toBe(200);
    expect(pageText(await page(first))).toContain("£1,500.00");

    const missing = await b.post(url, { informationCorrect: "yes" });
    expect(missing.status).toBe(400);
    const doc = await page(missing);
    expect(describedBy(doc, "employmentStatus")).toContain("Confirm the employment status declaration");
    expect(describedBy(doc, "verification")).toContain("Confirm the verification declaration");
    expect(await count("hmrc_submissions", "tenant_id = ?", t.id)).toBe(0);

    const sent = await b.post(url, { employmentStatus: "yes", verification: "yes", informationCorrect: "yes", ...(await submitKey(t, u)) });
    expect(sent.status).toBe(302);
    expect(location(sent)).toBe(`/cis/returns/${MONTH}/submit`);
    expect(await count("hmrc_submissions", "tenant_id = ? AND kind = 'cis300' AND subject_key = ?", t.id, `cis300:${MONTH}`)).toBe(1);
    // Pressed again while it is with HMRC: the same submission.
    expect((await b.post(url, { employmentStatus: "yes", verification: "yes", informationCorrect: "yes", ...(await submitKey(t, u)) })).status).toBe(302);
    expect(await count("hmrc_submissions", "tenant_id = ?", t.id)).toBe(1);

    const accepted = await poll(async () => {
      const res = await b.get(url);
      const d = await page(res);
      return textOf(d, '[data-testid="hmrc-status"]') === "Accepted by HMRC" ? d : null;
    }, 40_000);
    expect(pageText(accepted)).toContain("HMRC has received the IR-CIS-CIS300MR document");
    // Accepted: no form to send it again.
    expect(accepted.querySelector('input[name="informationCorrect"]')).toBeNull();
  }, 60_000);

  it("a refused return (locked, invalid) shows the returns layer's reason and sends nothing", async () => {
    const { t, u, b } = await cisStaff("admin", { settings: {} });
    await readyForHmrc(t);
    stubReturn(t, { refusal: "Return is already locked" });
    const url = `${t.origin}/cis/returns/${MONTH}/submit`;
    expect(pageText(await page(await b.get(url)))).toContain("Return is already locked");
    const res = await b.post(url, { employmentStatus: "yes", verification: "yes", informationCorrect: "yes", ...(await submitKey(t, u)) });
    expect(res.status).toBe(409);
    expect(await count("hmrc_submissions", "tenant_id = ?", t.id)).toBe(0);
  });

  it("without Government Gateway credentials (or references) it says so and links to CIS settings, where they are entered; nothing is sent", async () => {
    const { t, u, b } = await cisStaff("admin", { settings: {} });
    await readyForHmrc(t, { credentials: false });
    stubReturn(t);
    const url = `${t.origin}/cis/returns/${MONTH}/submit`;
    const res = await b.post(url, { employmentStatus: "yes", verification: "yes", informationCorrect: "yes", ...(await submitKey(t, u)) });
    expect(res.status).toBe(400);
    const doc = await page(res);
    const alert = doc.querySelector("[data-form-error]");
    expect(alert?.textContent).toContain("Enter your Government Gateway user ID and password in CIS settings");
    expect(alert?.querySelector("a")?.getAttribute("href")).toBe("/cis/settings");
    // The declarations stay ticked for the next try.
    expect(doc.querySelector<HTMLInputElement>('input[name="verification"]')?.hasAttribute("checked")).toBe(true);
    expect(await count("hmrc_submissions", "tenant_id = ?", t.id)).toBe(0);
  });

  it("needs cis.ret.submit (403, audited); another tenant's or a missing return is 404", async () => {
    const { t, u, b } = await cisStaff("lead", { settings: {} });
    stubReturn(t);
    const url = `${t.origin}/cis/returns/${MONTH}/submit`;
    expect((await b.get(url)).status).toBe(403);
    expect((await b.post(url, { employmentStatus: "yes", verification: "yes", informationCorrect: "yes", ...(await submitKey(t, u)) })).status).toBe(403);
    expect(await count("audit_events", "tenant_id = ? AND action = 'cis.permission.denied' AND actor_id = ?", t.id, u.id)).toBe(2);

    const other = await cisStaff("admin", { settings: {} });
    expect((await other.b.get(`${other.t.origin}/cis/returns/${MONTH}/submit`)).status).toBe(404);
    expect((await other.b.post(`${other.t.origin}/cis/returns/${MONTH}/submit`, { informationCorrect: "yes" })).status).toBe(404);
    expect((await other.b.get(`${other.t.origin}/cis/returns/not-a-month/submit`)).status).toBe(404);
    expect(await count("hmrc_submissions", "tenant_id IN (?, ?)", t.id, other.t.id)).toBe(0);
  });
});
