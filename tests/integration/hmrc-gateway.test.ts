import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { getDb } from "~/db/client.server";
import { hmrcSubmissions } from "~/db/schema";
import { and, eq } from "drizzle-orm";
import { clearGatewayCredentials } from "~/features/cis/hmrc/credentials.server";
import { setDevHmrcMode } from "~/features/cis/hmrc/fake-te.server";
import { openXml, submissionXmlContext } from "~/features/cis/hmrc/stored-xml.server";
import { getSubmission, latestSubmission, onSubmissionResult, sendSubmission, startSubmission } from "~/features/cis/hmrc/gateway.server";
import { withCredentials as addCredentials } from "~/features/cis/hmrc/protocol";
import { chooseHmrcTransport, HMRC_ENDPOINTS, hmrcTransportName, httpTransport, HmrcTransportError } from "~/features/cis/hmrc/transport.server";
import { cisTenant } from "../factories/cis";
import { audits } from "../factories/audits";
import { cis300Message, fakeMessages, GATEWAY_PASSWORD, GATEWAY_SENDER, jobsRecorder, submissionRow, withCredentials } from "./hmrc-helpers";

const actor = { id: "user-hmrc", email: "hmrc@example.test", name: "Test Actor" };

async function tenantWithCredentials() {
  const t = await cisTenant({ settings: {} });
  await withCredentials(t);
  return t;
}

describe("transport selection", () => {
  const prod = { APP_ENV: "production", APP_DOMAIN: "workspace.example.com" };
  const dev = { APP_ENV: "development", APP_DOMAIN: "localhost:5173" };

  it("defaults to the fake only where developer tools are on", () => {
    expect(hmrcTransportName({ ...dev, HMRC_TRANSPORT: "" })).toBe("fake");
    expect(hmrcTransportName({ ...dev })).toBe("fake");
    expect(hmrcTransportName({ APP_ENV: "test", APP_DOMAIN: "localhost:5173" })).toBe("fake");
  });

  it("fails closed in production: missing, unknown or fake refuses to send", () => {
    expect(hmrcTransportName({ ...prod })).toBeNull();
    expect(hmrcTransportName({ ...prod, HMRC_TRANSPORT: "" })).toBeNull();
    expect(hmrcTransportName({ ...prod, HMRC_TRANSPORT: "fake" })).toBeNull();
    expect(hmrcTransportName({ ...prod, HMRC_TRANSPORT: "Live" })).toBeNull();
    // A development APP_ENV reached on a real domain is production too.
    expect(hmrcTransportName({ APP_ENV: "development", APP_DOMAIN: "workspace.example.com", HMRC_TRANSPORT: "fake" })).toBeNull();
    expect(hmrcTransportName({ ...prod, HMRC_TRANSPORT: "test" })).toBe("test");
    expect(hmrcTransportName({ ...prod, HMRC_TRANSPORT: "live" })).toBe("live");
  });

  it("chooses HMRC's published endpoints for test and live", () => {
    const test = chooseHmrcTransport({ ...env, ...prod, HMRC_TRANSPORT: "test" } as Env);
    const live = chooseHmrcTransport({ ...env, ...prod, HMRC_TRANSPORT: "live" } as Env);
    expect(test.ok && test.transport.submissionUrl).toBe("https://test-transaction-engine.tax.service.gov.uk/submission");
    expect(live.ok && live.transport.submissionUrl).toBe("https://transaction-engine.tax.service.gov.uk/submission");
    expect(chooseHmrcTransport({ ...env, ...prod, HMRC_TRANSPORT: "" } as Env)).toEqual({ ok: false, code: "transport_not_configured" });
  });

  it("a production deployment without a transport refuses to start a submission and stores nothing", async () => {
    const t = await tenantWithCredentials();
    const { env: e, sent } = jobsRecorder();
    const msg = await cis300Message();
    const res = await startSubmission({ ...e, APP_ENV: "production", APP_DOMAIN: "workspace.example.com", HMRC_TRANSPORT: "" } as Env, t.id, {
      subject: { kind: "cis300", returnId: "ret-prod" },
      message: msg,
      actor,
    });
    expect(res).toEqual({ ok: false, code: "transport_not_configured" });
    expect(sent).toHaveLength(0);
    expect(await latestSubmission(env, t.id, { kind: "cis300", returnId: "ret-prod" })).toBeNull();
  });

  it("the HTTP transport POSTs the GovTalk XML to HMRC and follows only HMRC's own endpoints", async () => {
    const seen: Request[] = [];
    const bodies: string[] = [];
    const transport = httpTransport("test", async (req) => {
      seen.push(req);
      bodies.push(await req.text());
      return new Response("<GovTalkMessage/>", { status: 200 });
    });
    const msg = await cis300Message();
    const xml = addCredentials(msg.xml, { senderId: GATEWAY_SENDER, password: GATEWAY_PASSWORD });
    expect(await transport.post(transport.submissionUrl, xml)).toBe("<GovTalkMessage/>");
    expect(seen[0].method).toBe("POST");
    expect(seen[0].url).toBe(HMRC_ENDPOINTS.test.submission);
    expect(seen[0].headers.get("Content-Type")).toBe("text/xml; charset=UTF-8");
    expect(bodies[0]).toBe(xml);
    expect(bodies[0]).toContain(`<SenderID>${GATEWAY_SENDER}</SenderID>`);

    expect(transport.endpoint("https://test-transaction-engine.tax.service.gov.uk/poll", "poll")).toBe(HMRC_ENDPOINTS.test.poll);
    expect(transport.endpoint(null, "poll")).toBe(HMRC_ENDPOINTS.test.poll);
    expect(() => transport.endpoint("https://attacker.example/poll", "poll")).toThrow(HmrcTransportError);
    expect(() => transport.endpoint("http://test-transaction-engine.tax.service.gov.uk/poll", "poll")).toThrow(HmrcTransportError);

    const failing = httpTransport("live", async () => new Response("Service Unavailable", { status: 503 }));
    await expect(failing.post(failing.submissionUrl, xml)).rejects.toThrow(HmrcTransportError);
  });
});

describe("the Transaction Engine round trip through the fake", () => {
  it("submits, is acknowledged, polls through a delayed job, stores the receipt and sends the delete request", async () => {
    const t = await tenantWithCredentials();
    const q = jobsRecorder();
    const msg = await cis300Message();
    const started = await startSubmission(q.env, t.id, { subject: { kind: "cis300", returnId: "ret-1" }, message: msg, actor });
    expect(started).toMatchObject({ ok: true, created: true, status: "queued" });
    if (!started.ok) throw new Error("not started");
    const id = started.submissionId;

    const stored = await submissionRow(t.id, id);
    // Stored encrypted, bound to this submission; it opens to the message as built, without a password.
    expect(stored.requestXml).toMatch(/^v1\./);
    expect(await openXml(env, stored.requestXml, submissionXmlContext(t.id, id, "request_xml"))).toBe(msg.xml);
    expect(msg.xml).not.toContain(GATEWAY_PASSWORD);
    expect(stored.irmark).toBe(msg.irmark.base64);

    expect(q.of("hmrc.send")).toHaveLength(1);
    await q.deliver(q.of("hmrc.send")[0]);
    const acked = await submissionRow(t.id, id);
    expect(acked.status).toBe("acknowledged");
    expect(acked.correlationId).toMatch(/^[0-9A-F]{32}$/);
    expect(acked.responseEndpoint).toMatch(/\/dev\/hmrc\/poll$/);
    expect(acked.pollIntervalSeconds).toBe(1);

    // The fake received the message with the credentials (it checks them) but keeps no password.
    const received = await fakeMessages(acked.correlationId!);
    expect(received[0].outcome).toBe("accepted");
    expect(received[0].requestXml).toContain(`<SenderID>${GATEWAY_SENDER}</SenderID>`);
    expect(received[0].requestXml).not.toContain(GATEWAY_PASSWORD);

    const polls = q.of("hmrc.poll");
    expect(polls).toHaveLength(1);
    expect(polls[0].delaySeconds).toBe(1);
    await q.deliver(polls[0]);

    const done = await getSubmission(env, t.id, id);
    expect(done?.status).toBe("accepted");
    expect(done?.receipt).toContain("HMRC has received the IR-CIS-CIS300MR document");
    expect(done?.receiptIrmark).toBe(msg.irmark.base32);
    expect(done?.errors).toEqual([]);
    expect(done?.deletedAt).not.toBeNull();
    const after = await fakeMessages(acked.correlationId!);
    expect(after.map((m) => m.function)).toEqual(["submit", "submit", "delete"]);
    expect(after.map((m) => m.qualifier)).toEqual(["request", "poll", "request"]);
    expect(await audits(t.id, "cis.hmrc.accepted")).toHaveLength(1);

    // Redelivering the poll (and the send) changes nothing and sends nothing.
    await q.deliver(polls[0], 2);
    await q.deliver(q.of("hmrc.send")[0], 2);
    expect(await fakeMessages(acked.correlationId!)).toHaveLength(3);
    expect(await audits(t.id, "cis.hmrc.accepted")).toHaveLength(1);
    expect(q.of("hmrc.poll")).toHaveLength(1);
  });

  it("a second 'not yet' answer moves the submission to polling and schedules the next poll", async () => {
    const t = await tenantWithCredentials();
    const q = jobsRecorder();
    const msg = await cis300Message();
    await setDevHmrcMode(env, msg.employerRef, "slow");
    const started = await startSubmission(q.env, t.id, { subject: { kind: "cis300", returnId: "ret-slow" }, message: msg, actor });
    if (!started.ok) throw new Error("not started");
    await q.deliver(q.of("hmrc.send")[0]);
    await q.deliver(q.of("hmrc.poll")[0]);
    expect((await submissionRow(t.id, started.submissionId)).status).toBe("polling");
    expect(q.of("hmrc.poll")).toHaveLength(2);
    expect(q.of("hmrc.poll")[1].body.idempotencyKey).toBe(`hmrc.poll:${started.submissionId}:2`);
    // The first poll again: already answered, so it only makes sure poll 2 exists (same job, not a new one).
    await q.deliver(q.of("hmrc.poll")[0], 2);
    expect(q.of("hmrc.poll")).toHaveLength(2);
    await q.deliver(q.of("hmrc.poll")[1]);
    expect((await submissionRow(t.id, started.submissionId)).status).toBe("accepted");
  });

  it("a poll that cannot reach the Transaction Engine is asked again later; an endpoint on another host is never followed", async () => {
    const t = await tenantWithCredentials();
    const q = jobsRecorder();
    const msg = await cis300Message();
    const started = await startSubmission(q.env, t.id, { subject: { kind: "cis300", returnId: "ret-retry" }, message: msg, actor });
    if (!started.ok) throw new Error("not started");
    await q.deliver(q.of("hmrc.send")[0]);
    const acked = await submissionRow(t.id, started.submissionId);
    await getDb(env)
      .update(hmrcSubmissions)
      .set({ responseEndpoint: "https://attacker.example/poll" })
      .where(and(eq(hmrcSubmissions.tenantId, t.id), eq(hmrcSubmissions.id, started.submissionId)));
    await q.deliver(q.of("hmrc.poll")[0]);
    const after = await submissionRow(t.id, started.submissionId);
    expect(after.status).toBe("acknowledged");
    expect(after.pollCount).toBe(0);
    const polls = q.of("hmrc.poll");
    expect(polls).toHaveLength(2);
    expect(polls[1].body.idempotencyKey).toBe(`hmrc.poll:${started.submissionId}:1:retry1`);
    expect(polls[1].delaySeconds).toBe(2);
    // Nothing was posted anywhere but the fake, which saw the submission only.
    expect(await fakeMessages(acked.correlationId!)).toHaveLength(1);

    // The endpoint back on the Transaction Engine: the retried poll gets the answer.
    await getDb(env)
      .update(hmrcSubmissions)
      .set({ responseEndpoint: acked.responseEndpoint })
      .where(and(eq(hmrcSubmissions.tenantId, t.id), eq(hmrcSubmissions.id, started.submissionId)));
    await q.deliver(polls[1]);
    expect((await submissionRow(t.id, started.submissionId)).status).toBe("accepted");
  });

  it("a business error is stored in HMRC's words and the submission is not accepted", async () => {
    const t = await tenantWithCredentials();
    const q = jobsRecorder();
    const msg = await cis300Message();
    await setDevHmrcMode(env, msg.employerRef, "business_error");
    const seenByHandler: string[] = [];
    onSubmissionResult("cis300", ({ outcome }) => {
      seenByHandler.push(outcome.status);
      return [];
    });
    try {
      const started = await startSubmission(q.env, t.id, { subject: { kind: "cis300", returnId: "ret-err" }, message: msg, actor });
      if (!started.ok) throw new Error("not started");
      await q.deliver(q.of("hmrc.send")[0]);
      await q.deliver(q.of("hmrc.poll")[0]);
      const done = await getSubmission(env, t.id, started.submissionId);
      expect(done?.status).toBe("rejected");
      expect(done?.receipt).toBeNull();
      expect(done?.errors.map((e) => e.text)).toEqual([
        "The submission of this document has failed due to departmental specific business logic in the Body tag.",
        "Keys in the GovTalkDetails do not match those in the IRheader.",
      ]);
      expect(done?.errors.map((e) => e.number)).toEqual([3001, 5005]);
      expect(done?.deletedAt).not.toBeNull();
      expect(seenByHandler).toEqual(["rejected"]);
      // Rejected frees the subject: the return can be corrected and sent again.
      const again = await startSubmission(q.env, t.id, { subject: { kind: "cis300", returnId: "ret-err" }, message: msg, actor });
      expect(again).toMatchObject({ ok: true, created: true });
    } finally {
      onSubmissionResult("cis300", () => []);
    }
  });

  it("a message whose IRmark does not match its Body is refused by the fake (2021)", async () => {
    const t = await tenantWithCredentials();
    const q = jobsRecorder();
    const msg = await cis300Message();
    const tampered = msg.xml.replace("<TotalPayments>1500.00</TotalPayments>", "<TotalPayments>1600.00</TotalPayments>");
    expect(tampered).not.toBe(msg.xml);
    const started = await startSubmission(q.env, t.id, { subject: { kind: "cis300", returnId: "ret-mark" }, message: { xml: tampered }, actor });
    if (!started.ok) throw new Error("not started");
    await q.deliver(q.of("hmrc.send")[0]);
    await q.deliver(q.of("hmrc.poll")[0]);
    const done = await getSubmission(env, t.id, started.submissionId);
    expect(done?.status).toBe("rejected");
    expect(done?.errors.map((e) => [e.number, e.text])).toContainEqual([2021, "The supplied IRmark is incorrect."]);
    expect(await audits(t.id, "cis.hmrc.accepted")).toHaveLength(0);
  });

  it("a double click returns the submission already in flight and queues one send", async () => {
    const t = await tenantWithCredentials();
    const q = jobsRecorder();
    const msg = await cis300Message();
    const input = { subject: { kind: "cis300" as const, returnId: "ret-dbl" }, message: msg, actor };
    const [a, b] = await Promise.all([startSubmission(q.env, t.id, input), startSubmission(q.env, t.id, input)]);
    expect(a.ok && b.ok).toBe(true);
    if (!a.ok || !b.ok) return;
    expect(a.submissionId).toBe(b.submissionId);
    expect([a.created, b.created].sort()).toEqual([false, true]);
    expect(q.of("hmrc.send")).toHaveLength(1);
    expect(await audits(t.id, "cis.hmrc.submitted")).toHaveLength(1);

    // Once accepted, the same return is not sent again either.
    await q.deliver(q.of("hmrc.send")[0]);
    await q.deliver(q.of("hmrc.poll")[0]);
    const later = await startSubmission(q.env, t.id, input);
    expect(later).toMatchObject({ ok: true, created: false, submissionId: a.submissionId, status: "accepted" });
    expect(q.of("hmrc.send")).toHaveLength(1);
  });

  it("a send that may have reached HMRC is never repeated: the submission fails as outcome unknown", async () => {
    const t = await tenantWithCredentials();
    const q = jobsRecorder();
    const msg = await cis300Message();
    const started = await startSubmission(q.env, t.id, { subject: { kind: "cis300", returnId: "ret-crash" }, message: msg, actor });
    if (!started.ok) throw new Error("not started");
    // As if a run claimed and posted it, then died before recording the answer.
    await getDb(env)
      .update(hmrcSubmissions)
      .set({ sentAt: Date.now() })
      .where(and(eq(hmrcSubmissions.tenantId, t.id), eq(hmrcSubmissions.id, started.submissionId)));
    await sendSubmission(q.env, t.id, started.submissionId);
    const row = await submissionRow(t.id, started.submissionId);
    expect(row.status).toBe("failed");
    expect(row.failureCode).toBe("outcome_unknown");
  });

  it("refuses to start without Government Gateway credentials, and fails a queued one whose credentials were cleared", async () => {
    const t = await cisTenant({ settings: {} });
    const q = jobsRecorder();
    const msg = await cis300Message();
    expect(await startSubmission(q.env, t.id, { subject: { kind: "cis300", returnId: "ret-nocred" }, message: msg, actor })).toEqual({
      ok: false,
      code: "credentials_missing",
    });
    expect(q.sent).toHaveLength(0);

    await withCredentials(t);
    const started = await startSubmission(q.env, t.id, { subject: { kind: "cis300", returnId: "ret-nocred" }, message: msg, actor });
    if (!started.ok) throw new Error("not started");
    await clearGatewayCredentials(env, t.id, { id: "u", email: "u@example.test", name: "Test Actor", ip: null });
    await q.deliver(q.of("hmrc.send")[0]);
    const row = await submissionRow(t.id, started.submissionId);
    expect(row.status).toBe("failed");
    expect(row.failureCode).toBe("credentials_missing");
    expect(row.sentAt).toBeNull();
    expect(await fakeMessages(msg.xml.match(/<CorrelationID>([^<]+)/)![1])).toHaveLength(0);
  });

  it("refuses a message of the wrong class or one that already holds a password", async () => {
    const t = await tenantWithCredentials();
    const q = jobsRecorder();
    const msg = await cis300Message();
    expect(await startSubmission(q.env, t.id, { subject: { kind: "verify", subcontractorIds: ["s1"] }, message: msg, actor })).toEqual({
      ok: false,
      code: "invalid_message",
    });
    const withPassword = addCredentials(msg.xml, { senderId: "X", password: "Y" });
    expect(await startSubmission(q.env, t.id, { subject: { kind: "cis300", returnId: "r" }, message: { xml: withPassword }, actor })).toEqual({
      ok: false,
      code: "invalid_message",
    });
  });

  it("keeps tenants apart: another tenant's submission is not found", async () => {
    const t = await tenantWithCredentials();
    const other = await tenantWithCredentials();
    const q = jobsRecorder();
    const started = await startSubmission(q.env, t.id, { subject: { kind: "cis300", returnId: "ret-iso" }, message: await cis300Message(), actor });
    if (!started.ok) throw new Error("not started");
    expect(await getSubmission(env, other.id, started.submissionId)).toBeNull();
    expect(await latestSubmission(env, other.id, { kind: "cis300", returnId: "ret-iso" })).toBeNull();
    expect((await latestSubmission(env, t.id, { kind: "cis300", returnId: "ret-iso" }))?.id).toBe(started.submissionId);
  });
});
