import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { cisRecordPurgeBefore } from "~/features/cis/domain/tax-month";
import { readDevHmrcMessages } from "~/features/cis/hmrc/fake-te.server";
import { sendSubmission, startSubmission } from "~/features/cis/hmrc/gateway.server";
import { runHmrcRecordsHousekeeping } from "~/features/cis/hmrc/records.server";
import { devMessageXmlContext, openXml, submissionXmlContext } from "~/features/cis/hmrc/stored-xml.server";
import { rotatePiiKeys } from "~/features/cis/key-rotation.server";
import { decryptPii } from "~/features/cis/pii.server";
import { newId } from "~/utils/ids";
import { cisTenant } from "../factories/cis";
import { count } from "./auth-helpers";
import { cis300Message, jobsRecorder, submissionRow, withCredentials } from "./hmrc-helpers";

const actor = { id: "user-records", email: "records@example.test", name: "Test Actor" };
const KEY2 = "2:ZmVkY2JhOTg3NjU0MzIxMGZlZGNiYTk4NzY1NDMyMTA=";
const BOTH = `${env.PII_KEYS},${KEY2}`;

/** A submission row as the gateway wrote it before the XML was encrypted. */
async function legacySubmission(tenantId: string, opts: { createdAt?: number; status?: string; xml?: string; response?: string | null } = {}) {
  const id = newId();
  const now = opts.createdAt ?? Date.now();
  await env.DB.prepare(
    `INSERT INTO hmrc_submissions (id, tenant_id, kind, subject_ids, subject_key, active_key, status, transport, message_class, request_xml, response_xml, created_at, updated_at)
     VALUES (?, ?, 'verify', ?, ?, NULL, ?, 'fake', 'IR-CIS-VERIFY', ?, ?, ?, ?)`,
  )
    .bind(
      id,
      tenantId,
      JSON.stringify([id]),
      `verify:${id}`,
      opts.status ?? "accepted",
      opts.xml ?? "<GovTalkMessage><UTR>3455667788</UTR></GovTalkMessage>",
      opts.response === undefined ? "<GovTalkMessage><NINO>JK123456C</NINO></GovTalkMessage>" : opts.response,
      now,
      now,
    )
    .run();
  return id;
}

async function legacyDevMessage(createdAt = Date.now()) {
  const id = newId();
  await env.DB.prepare(
    "INSERT INTO dev_hmrc_messages (id, correlation_id, request_xml, response_xml, final_response_xml, outcome, created_at) VALUES (?, ?, ?, ?, ?, 'accepted', ?)",
  )
    .bind(id, `LEGACY${id}`, "<Req><UTR>3455667788</UTR></Req>", "<Ack/>", "<Final><NINO>JK123456C</NINO></Final>", createdAt)
    .run();
  return id;
}

async function rawSubmission(id: string) {
  return env.DB.prepare("SELECT request_xml, response_xml FROM hmrc_submissions WHERE id = ?")
    .bind(id)
    .first<{ request_xml: string; response_xml: string | null }>();
}

describe("HMRC messages at rest", () => {
  it("stores the message and HMRC's answer encrypted and bound to the row, and still sends the message as built", async () => {
    const t = await cisTenant({ settings: {} });
    await withCredentials(t);
    const q = jobsRecorder();
    const msg = await cis300Message();
    const started = await startSubmission(q.env, t.id, { subject: { kind: "cis300", returnId: "at-rest" }, message: msg, actor });
    if (!started.ok) throw new Error(started.code);
    const id = started.submissionId;
    const stored = await rawSubmission(id);
    expect(stored?.request_xml).toMatch(/^v1\./);
    expect(stored?.request_xml).not.toContain("5334567890");
    // Copied to another row, the value does not open.
    const other = await legacySubmission(t.id);
    await expect(decryptPii(env.PII_KEYS, stored!.request_xml, submissionXmlContext(t.id, other, "request_xml"))).rejects.toThrow();

    await q.deliver(q.of("hmrc.send")[0]);
    await q.deliver(q.of("hmrc.poll")[0]);
    const row = await submissionRow(t.id, id);
    expect(row.status).toBe("accepted");
    expect(row.receipt).toContain("HMRC has received");
    expect(row.responseXml).toMatch(/^v1\./);
    expect(await openXml(env, row.responseXml!, submissionXmlContext(t.id, id, "response_xml"))).toContain("<Qualifier>response</Qualifier>");
    // The fake got the real message (with the UTR) and logged it encrypted.
    const logged = await readDevHmrcMessages(env, row.correlationId!);
    expect(logged[0].requestXml).toContain("<UTR>5334567890</UTR>");
    expect(await count("dev_hmrc_messages", "correlation_id = ? AND request_xml LIKE '%5334567890%'", row.correlationId)).toBe(0);
  });

  it("a submission whose stored message no longer opens fails as message_unreadable without sending anything", async () => {
    const t = await cisTenant({ settings: {} });
    await withCredentials(t);
    const q = jobsRecorder();
    const started = await startSubmission(q.env, t.id, { subject: { kind: "cis300", returnId: "unreadable" }, message: await cis300Message(), actor });
    if (!started.ok) throw new Error(started.code);
    // Another row's ciphertext: fails its binding.
    const foreign = await env.DB.prepare("SELECT request_xml FROM hmrc_submissions WHERE id != ? AND request_xml LIKE 'v1.%' LIMIT 1")
      .bind(started.submissionId)
      .first<{ request_xml: string }>();
    const copied = foreign?.request_xml ?? "v1.AAAAAAAAAAAAAAAA.AAAA";
    await env.DB.prepare("UPDATE hmrc_submissions SET request_xml = ? WHERE id = ?").bind(copied, started.submissionId).run();
    expect(await sendSubmission(env, t.id, started.submissionId)).toEqual({ status: "failed" });
    expect(await submissionRow(t.id, started.submissionId)).toMatchObject({ status: "failed", failureCode: "message_unreadable", sentAt: null });
  });

  it("housekeeping encrypts legacy plaintext rows of both tables, bound to their rows, and a second run changes nothing", async () => {
    const t = await cisTenant();
    const id = await legacySubmission(t.id);
    const noAnswer = await legacySubmission(t.id, { status: "queued", response: null });
    const devId = await legacyDevMessage();
    // Housekeeping works in slices: run until nothing legacy is left anywhere.
    for (let i = 0; i < 20; i += 1) {
      const run = await runHmrcRecordsHousekeeping(env);
      if (run.sealed.submissions + run.sealed.devMessages === 0) break;
    }
    const sealed = await rawSubmission(id);
    expect(sealed?.request_xml).toMatch(/^v1\./);
    expect(sealed?.response_xml).toMatch(/^v1\./);
    expect(await openXml(env, sealed!.request_xml, submissionXmlContext(t.id, id, "request_xml"))).toBe(
      "<GovTalkMessage><UTR>3455667788</UTR></GovTalkMessage>",
    );
    expect(await openXml(env, sealed!.response_xml!, submissionXmlContext(t.id, id, "response_xml"))).toBe(
      "<GovTalkMessage><NINO>JK123456C</NINO></GovTalkMessage>",
    );
    expect((await rawSubmission(noAnswer))?.response_xml).toBeNull();
    const dev = await env.DB.prepare("SELECT request_xml, response_xml, final_response_xml FROM dev_hmrc_messages WHERE id = ?")
      .bind(devId)
      .first<{ request_xml: string; response_xml: string; final_response_xml: string }>();
    expect(await openXml(env, dev!.request_xml, devMessageXmlContext(devId, "request_xml"))).toBe("<Req><UTR>3455667788</UTR></Req>");
    expect(await openXml(env, dev!.final_response_xml, devMessageXmlContext(devId, "final_response_xml"))).toBe("<Final><NINO>JK123456C</NINO></Final>");
    expect(await count("hmrc_submissions", "request_xml LIKE '%3455667788%' OR response_xml LIKE '%JK123456C%'")).toBe(0);
    expect(await count("dev_hmrc_messages", "request_xml LIKE '%3455667788%' OR final_response_xml LIKE '%JK123456C%'")).toBe(0);

    const again = await runHmrcRecordsHousekeeping(env);
    expect(again.sealed).toEqual({ submissions: 0, devMessages: 0 });
    expect((await rawSubmission(id))?.request_xml).toBe(sealed?.request_xml);
  });

  it("deletes submissions six whole tax years after the tax year they were made in, never one in flight, and keeps the rest", async () => {
    const t = await cisTenant();
    const now = new Date("2033-04-06T09:00:00Z").getTime();
    const cutoff = cisRecordPurgeBefore(new Date(now)).getTime();
    // Made on 5 April 2027 (tax year 2026-27): past its six years. Made on 6 April 2027 (2027-28): kept.
    const old = await legacySubmission(t.id, { createdAt: new Date("2027-04-05T12:00:00Z").getTime() });
    const kept = await legacySubmission(t.id, { createdAt: new Date("2027-04-06T12:00:00Z").getTime() });
    const inFlight = await legacySubmission(t.id, { createdAt: new Date("2020-01-01T12:00:00Z").getTime(), status: "polling" });
    const recent = await legacySubmission(t.id, { createdAt: now - 86_400_000 });
    const oldDev = await legacyDevMessage(now - 8 * 86_400_000);
    const newDev = await legacyDevMessage(now - 86_400_000);
    expect(new Date("2027-04-05T12:00:00Z").getTime()).toBeLessThan(cutoff);

    const run = await runHmrcRecordsHousekeeping(env, now);
    expect(run.purged.submissions).toBeGreaterThanOrEqual(1);
    expect(await count("hmrc_submissions", "id = ?", old)).toBe(0);
    for (const id of [kept, inFlight, recent]) expect(await count("hmrc_submissions", "id = ?", id)).toBe(1);
    expect(await count("dev_hmrc_messages", "id = ?", oldDev)).toBe(0);
    expect(await count("dev_hmrc_messages", "id = ?", newDev)).toBe(1);
  });

  it("key rotation re-encrypts the stored XML with the newest key, and encrypts legacy plaintext it finds", async () => {
    const t = await cisTenant({ settings: {} });
    await withCredentials(t);
    const q = jobsRecorder();
    const started = await startSubmission(q.env, t.id, { subject: { kind: "cis300", returnId: "rotate" }, message: await cis300Message(), actor });
    if (!started.ok) throw new Error(started.code);
    await q.deliver(q.of("hmrc.send")[0]);
    await q.deliver(q.of("hmrc.poll")[0]);
    const id = started.submissionId;
    const legacy = await legacySubmission(t.id);
    const legacyDev = await legacyDevMessage();
    const before = await rawSubmission(id);
    expect(before?.request_xml).toMatch(/^v1\./);

    const report = await rotatePiiKeys({ DB: env.DB, PII_KEYS: BOTH }, { batchSize: 3 });
    expect(report.failures.filter((f) => f.table.startsWith("hmrc") || f.table.startsWith("dev_hmrc"))).toEqual([]);
    expect(report.hmrc.values).toBeGreaterThanOrEqual(4);
    const after = await rawSubmission(id);
    expect(after?.request_xml).toMatch(/^v2\./);
    expect(after?.response_xml).toMatch(/^v2\./);
    // Key 1 retired: the message still opens with key 2 alone.
    expect(await openXml({ PII_KEYS: KEY2 }, after!.request_xml, submissionXmlContext(t.id, id, "request_xml"))).toBe(
      await openXml(env, before!.request_xml, submissionXmlContext(t.id, id, "request_xml")),
    );
    const legacyAfter = await rawSubmission(legacy);
    expect(legacyAfter?.request_xml).toMatch(/^v2\./);
    expect(await openXml({ PII_KEYS: KEY2 }, legacyAfter!.request_xml, submissionXmlContext(t.id, legacy, "request_xml"))).toContain("3455667788");
    const dev = await env.DB.prepare("SELECT request_xml FROM dev_hmrc_messages WHERE id = ?").bind(legacyDev).first<{ request_xml: string }>();
    expect(dev?.request_xml).toMatch(/^v2\./);

    const second = await rotatePiiKeys({ DB: env.DB, PII_KEYS: BOTH });
    expect(second.hmrc).toEqual({ scanned: 0, updatedRows: 0, values: 0, legacy: 0 });
  });
});
