import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { londonDateParts } from "~/features/cis/domain/tax-month";
import { fakeVerificationNumber } from "~/features/cis/hmrc/fake-te.server";
import { startVerification } from "~/features/cis/hmrc/verification.server";
import { createTenant } from "../factories";
import { cisStaff, newUtrEndingIn, seedSub } from "../factories/cis";
import { one, page, pageText, textOf } from "../factories/html";
import { mintKey, SUBMISSION_KEY_FIELD } from "../factories/submission-keys";
import { audits as auditsFor } from "../factories/audits";
import { readyForHmrc } from "../factories/hmrc";
import { count } from "./auth-helpers";
import { location } from "./http";
import { poll } from "./queue-helpers";
import { jobsRecorder } from "./hmrc-helpers";

/** The employer reference these tests verify under; one test sets the fake HMRC's mode for it. */
const EMPLOYER_REF = "123/AB12345";

/** A UTR ending in `last`: the fake answers 0 → gross, 9 → unmatched, anything else → net. */
const utrEnding = (last: string) => newUtrEndingIn(last);

async function subRow(id: string) {
  return env.DB.prepare(
    "SELECT verification_status, verification_rate, verification_method, verification_reference, verified_date, verified_by FROM cis_subcontractors WHERE id = ?",
  )
    .bind(id)
    .first<{
      verification_status: string;
      verification_rate: number;
      verification_method: string | null;
      verification_reference: string | null;
      verified_date: string | null;
      verified_by: string | null;
    }>();
}

function londonToday(): string {
  const { year, month, day } = londonDateParts(new Date());
  return `${year}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`;
}

describe("online verification through the gateway", () => {
  it("sets status, rate, number, method online, date and who from HMRC's answer, audited, applied once", async () => {
    const t = await createTenant({ modules: ["cis"] });
    await readyForHmrc(t, { employerRef: EMPLOYER_REF });
    const gross = await seedSub(t, { name: "Gail Gross", utr: utrEnding("0"), verificationStatus: "standard" });
    const unmatched = await seedSub(t, { type: "company", name: "Unmatched Builders Ltd", utr: utrEnding("9"), verificationStatus: "standard" });
    const net = await seedSub(t, { name: "Ned Net", utr: utrEnding("4"), verificationStatus: "gross" });
    const q = jobsRecorder();
    const actor = { id: "verifier-1", email: "verifier@example.test", name: "Test Actor" };

    const started = await startVerification(q.env, t.id, [gross.id, unmatched.id, net.id], actor);
    expect(started).toMatchObject({ ok: true, created: true });
    await q.deliver(q.of("hmrc.send")[0]);
    await q.deliver(q.of("hmrc.poll")[0]);

    const today = londonToday();
    expect(await subRow(gross.id)).toEqual({
      verification_status: "gross",
      verification_rate: 0,
      verification_method: "online",
      verification_reference: await fakeVerificationNumber(gross.utr, false),
      verified_date: today,
      verified_by: actor.id,
    });
    expect(await subRow(unmatched.id)).toMatchObject({
      verification_status: "higher",
      verification_rate: 30,
      verification_reference: await fakeVerificationNumber(unmatched.utr, true),
    });
    // The number HMRC gives is not the UTR spelled out.
    expect((await subRow(gross.id))?.verification_reference).not.toContain(gross.utr);
    expect(await subRow(net.id)).toMatchObject({ verification_status: "standard", verification_rate: 20, verification_method: "online" });

    const audits = await auditsFor(t.id, "cis.subcontractor.verified");
    expect(audits.map((a) => a.targetId).sort()).toEqual([gross.id, unmatched.id, net.id].sort());
    expect(audits.every((a) => a.actorId === actor.id && a.actorEmail === actor.email && (a.payload as { method: string }).method === "online")).toBe(true);
    expect(audits.find((a) => a.targetId === unmatched.id)?.payload).toMatchObject({ status: "higher", rate: 30, method: "online" });

    // A redelivered poll does not apply the answer again.
    await env.DB.prepare("UPDATE cis_subcontractors SET verification_status = 'standard', verification_rate = 20 WHERE id = ?").bind(gross.id).run();
    await q.deliver(q.of("hmrc.poll")[0], 2);
    expect((await subRow(gross.id))?.verification_status).toBe("standard");
    expect(await auditsFor(t.id, "cis.subcontractor.verified")).toHaveLength(3);
  });

  it("a rejected verification changes no subcontractor, and its page shows HMRC's words", async () => {
    const { t, b } = await cisStaff("lead");
    await readyForHmrc(t, { employerRef: EMPLOYER_REF });
    const sub = await seedSub(t, { name: "Rita Rejected", utr: utrEnding("0"), verificationStatus: "standard" });
    await env.DB.prepare(
      "INSERT INTO dev_hmrc_modes (employer_ref, mode, updated_at) VALUES ('123/AB12345', 'business_error', ?) ON CONFLICT(employer_ref) DO UPDATE SET mode = 'business_error'",
    )
      .bind(Date.now())
      .run();
    try {
      const q = jobsRecorder();
      const started = await startVerification(q.env, t.id, [sub.id], { id: "v", email: "v@example.test", name: "Test Actor" });
      if (!started.ok) throw new Error("not started");
      await q.deliver(q.of("hmrc.send")[0]);
      await q.deliver(q.of("hmrc.poll")[0]);
      expect(await subRow(sub.id)).toMatchObject({ verification_status: "standard", verification_method: null });
      expect(await auditsFor(t.id, "cis.subcontractor.verified")).toHaveLength(0);
      expect(await auditsFor(t.id, "cis.hmrc.rejected")).toHaveLength(1);
      const doc = await page(await b.get(`${t.origin}/cis/subcontractors/${sub.id}`));
      expect(textOf(doc, '[data-testid="hmrc-verification-status"]')).toBe("Rejected by HMRC");
      expect(textOf(doc, '[data-testid="hmrc-verification-errors"]')).toContain("Keys in the GovTalkDetails do not match those in the IRheader.");
    } finally {
      await env.DB.prepare("DELETE FROM dev_hmrc_modes WHERE employer_ref = '123/AB12345'").run();
    }
  });

  it("Verify with HMRC on a subcontractor's page sends the request; the queued poll brings the answer", async () => {
    const { t, u, b } = await cisStaff("lead");
    await readyForHmrc(t, { employerRef: EMPLOYER_REF });
    const sub = await seedSub(t, { name: "Paula Page", utr: utrEnding("0") });
    const detail = await page(await b.get(`${t.origin}/cis/subcontractors/${sub.id}`));
    expect(one(detail, 'form input[name="intent"][value="verify"]')).toBeTruthy();

    const res = await b.post(`${t.origin}/cis/subcontractors/${sub.id}`, {
      intent: "verify",
      [SUBMISSION_KEY_FIELD]: await mintKey(t, u, `cis.subcontractor.verify:${sub.id}`),
    });
    expect(res.status).toBe(302);
    expect(location(res)).toBe(`/cis/subcontractors/${sub.id}`);
    const after = await b.follow(res, `${t.origin}/cis/subcontractors/${sub.id}`);
    expect(pageText(await page(after))).toContain("Verification sent to HMRC");

    // The real JOBS queue: send, then a poll delayed by the fake's one-second interval.
    const verified = await poll(async () => {
      const r = await subRow(sub.id);
      return r?.verification_method === "online" ? r : null;
    }, 40_000);
    const number = await fakeVerificationNumber(sub.utr, false);
    expect(verified).toMatchObject({ verification_status: "gross", verification_rate: 0, verification_reference: number, verified_by: u.id });
    const shown = pageText(await page(await b.get(`${t.origin}/cis/subcontractors/${sub.id}`)));
    expect(shown).toContain(number);
    expect(shown).toContain("Online");
  }, 60_000);

  it("the list's bulk action asks first (without JavaScript) and then sends one request for the selection", async () => {
    const { t, b } = await cisStaff("lead");
    await readyForHmrc(t, { employerRef: EMPLOYER_REF });
    const a = await seedSub(t, { name: "Alpha Adams", utr: utrEnding("1") });
    const c = await seedSub(t, { name: "Carla Cole", utr: utrEnding("2") });
    const ask = await b.post(`${t.origin}/cis/subcontractors`, { intent: "bulk-verify", ids: [a.id, c.id] });
    expect(ask.status).toBe(200);
    const doc = await page(ask);
    const panel = one(doc, '[data-confirm="bulk-verify"]');
    expect(panel.textContent).toContain("Send 2 subcontractors to HMRC for verification?");
    expect(panel.textContent).toContain("Alpha Adams");
    expect(await count("hmrc_submissions", "tenant_id = ?", t.id)).toBe(0);

    // Confirmed twice at once (a double click): one request goes to HMRC.
    // The confirmation step carries the submission key the second post repeats.
    const key = one(panel, `input[name="${SUBMISSION_KEY_FIELD}"]`).getAttribute("value")!;
    const [go, again] = await Promise.all([
      b.post(`${t.origin}/cis/subcontractors`, { intent: "bulk-verify", ids: [a.id, c.id], confirmed: "yes", [SUBMISSION_KEY_FIELD]: key }),
      b.post(`${t.origin}/cis/subcontractors`, { intent: "bulk-verify", ids: [c.id, a.id], confirmed: "yes", [SUBMISSION_KEY_FIELD]: key }),
    ]);
    expect([go.status, again.status]).toEqual([302, 302]);
    expect(await count("hmrc_submissions", "tenant_id = ? AND kind = 'verify'", t.id)).toBe(1);
  });

  it("without Government Gateway credentials the page says what to do and sends nothing", async () => {
    const { t, u, b } = await cisStaff("lead");
    await readyForHmrc(t, { credentials: false, employerRef: EMPLOYER_REF });
    const sub = await seedSub(t, { name: "Nigel Nocreds" });
    const res = await b.post(`${t.origin}/cis/subcontractors/${sub.id}`, {
      intent: "verify",
      [SUBMISSION_KEY_FIELD]: await mintKey(t, u, `cis.subcontractor.verify:${sub.id}`),
    });
    expect(res.status).toBe(400);
    expect(pageText(await page(res))).toContain("Enter your Government Gateway user ID and password in CIS settings");
    expect(await count("hmrc_submissions", "tenant_id = ?", t.id)).toBe(0);
  });
});

describe("verification: scopes and tenants", () => {
  it("needs cis.sub.verify: 403 with an audited denial, on the page and in the list, and no button", async () => {
    const t = await createTenant({ modules: ["cis"], bundles: { lead: ["cis.read", "cis.sub.write"] } });
    await readyForHmrc(t, { employerRef: EMPLOYER_REF });
    const { u, b } = await cisStaff("lead", { tenant: t });
    const sub = await seedSub(t, { name: "Sam Scope" });
    const detail = await page(await b.get(`${t.origin}/cis/subcontractors/${sub.id}`));
    expect(detail.querySelector('form input[name="intent"][value="verify"]')).toBeNull();
    const list = await page(await b.get(`${t.origin}/cis/subcontractors`));
    expect(list.querySelector('button[value="bulk-verify"]')).toBeNull();

    expect(
      (
        await b.post(`${t.origin}/cis/subcontractors/${sub.id}`, {
          intent: "verify",
          [SUBMISSION_KEY_FIELD]: await mintKey(t, u, `cis.subcontractor.verify:${sub.id}`),
        })
      ).status,
    ).toBe(403);
    expect((await b.post(`${t.origin}/cis/subcontractors`, { intent: "bulk-verify", ids: [sub.id], confirmed: "yes" })).status).toBe(403);
    expect(await count("audit_events", "tenant_id = ? AND action = 'cis.permission.denied' AND actor_id = ?", t.id, u.id)).toBe(2);
    expect(await count("hmrc_submissions", "tenant_id = ?", t.id)).toBe(0);
  });

  it("another tenant's subcontractor is not found (404), alone or in a selection", async () => {
    const { t: mine, u, b } = await cisStaff("lead");
    await readyForHmrc(mine, { employerRef: EMPLOYER_REF });
    const other = await createTenant({ modules: ["cis"] });
    await readyForHmrc(other, { employerRef: EMPLOYER_REF });
    const theirs = await seedSub(other, { name: "Their Sub" });
    const own = await seedSub(mine, { name: "Own Sub" });
    expect(
      (
        await b.post(`${mine.origin}/cis/subcontractors/${theirs.id}`, {
          intent: "verify",
          [SUBMISSION_KEY_FIELD]: await mintKey(mine, u, `cis.subcontractor.verify:${theirs.id}`),
        })
      ).status,
    ).toBe(404);
    const bulk = await b.post(`${mine.origin}/cis/subcontractors`, {
      intent: "bulk-verify",
      ids: [own.id, theirs.id],
      confirmed: "yes",
      [SUBMISSION_KEY_FIELD]: await mintKey(mine, u, "cis.subcontractors.bulk"),
    });
    expect(bulk.status).toBe(404);
    expect(await count("hmrc_submissions", "tenant_id IN (?, ?)", mine.id, other.id)).toBe(0);
  });
});
