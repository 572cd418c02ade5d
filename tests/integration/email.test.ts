import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "~/db/client.server";
import { deadLetters, devMailbox, emailOutbox } from "~/db/schema";
import { EMAIL_CLAIM_SECONDS, handleEmailBatch } from "~/features/platform/email/consumer.server";
import { queueEmail } from "~/features/platform/email/send.server";
import { devTransport, type EmailTransport, type OutgoingEmail } from "~/features/platform/email/transports.server";
import { createTenant } from "../factories";
import { parseHtml, textsOf } from "../factories/html";
import { deliverMessages, messageId, poll, recordingQueue, type TestMessage } from "./queue-helpers";

const EMAIL_QUEUE = "cis-workspace-email";

/** queueEmail without the real EMAIL producer, so the background consumer does not race the test. */
async function queueRecorded(opts: Parameters<typeof queueEmail>[1]) {
  const { sent, queue } = recordingQueue();
  const result = await queueEmail({ ...env, EMAIL: queue }, opts);
  return { ...result, sent };
}

function address() {
  return `${messageId("to")}@example.test`;
}

/** One delivery of `messages`; `transport` swaps the configured one (the dev transport) when given. */
async function deliver(messages: TestMessage[], transport?: EmailTransport) {
  const handle = transport ? (batch: MessageBatch<unknown>) => handleEmailBatch(batch, env, transport) : undefined;
  return (await deliverMessages(EMAIL_QUEUE, messages, handle)).result;
}

/** The dev transport, counting its sends. */
function countingTransport() {
  const inner = devTransport(env);
  const sent: OutgoingEmail[] = [];
  return {
    sent,
    transport: {
      name: inner.name,
      async send(mail: OutgoingEmail) {
        sent.push(mail);
        await inner.send(mail);
      },
    } satisfies EmailTransport,
  };
}

/** Makes an outbox row look as if it was queued `minutes` ago (delivery held up in the queue). */
async function queuedMinutesAgo(outboxId: string, minutes: number) {
  await getDb(env)
    .update(emailOutbox)
    .set({ createdAt: Date.now() - minutes * 60_000 })
    .where(eq(emailOutbox.id, outboxId));
}

async function outbox(id: string) {
  return getDb(env).select().from(emailOutbox).where(eq(emailOutbox.id, id)).get();
}

async function mailbox(outboxId: string) {
  return getDb(env).select().from(devMailbox).where(eq(devMailbox.outboxId, outboxId));
}

const notice = { subject: "Your statement is ready", message: "Hello,\n\nYour <CIS> statement for May is ready." };

describe("queueEmail", () => {
  it("writes a queued outbox row and puts its id on EMAIL", async () => {
    const t = await createTenant();
    const to = address();
    const { outboxId, sent } = await queueRecorded({ tenantId: t.id, to: `  ${to.toUpperCase()} `, template: "platform.notice", data: notice });
    // The message names the tenant, so the consumer reads the row in the tenant's shard.
    expect(sent).toEqual([{ outboxId, tenantId: t.id }]);
    expect(await outbox(outboxId)).toMatchObject({
      tenantId: t.id,
      toAddress: to,
      template: "platform.notice",
      data: notice,
      status: "queued",
      attempts: 0,
      sentAt: null,
    });
  });

  it("gives the same e-mail for the same idempotency key and does not queue it twice", async () => {
    const t = await createTenant();
    const key = messageId("key");
    const a = await queueRecorded({ tenantId: t.id, to: address(), template: "platform.notice", data: notice, idempotencyKey: key });
    const b = await queueRecorded({ tenantId: t.id, to: address(), template: "platform.notice", data: notice, idempotencyKey: key });
    expect(b.outboxId).toBe(a.outboxId);
    expect(a.sent).toHaveLength(1);
    expect(b.sent).toHaveLength(0);
    const rows = await getDb(env).select().from(emailOutbox).where(eq(emailOutbox.tenantId, t.id));
    expect(rows.map((r) => r.id)).toEqual([a.outboxId]);
  });

  it("scopes idempotency keys to the tenant: the same key in two tenants is two e-mails", async () => {
    const a = await createTenant();
    const b = await createTenant();
    const key = `welcome:${messageId("u")}`;
    const ea = await queueRecorded({ tenantId: a.id, to: address(), template: "platform.notice", data: notice, idempotencyKey: key });
    const eb = await queueRecorded({ tenantId: b.id, to: address(), template: "platform.notice", data: notice, idempotencyKey: key });
    expect(eb.outboxId).not.toBe(ea.outboxId);
    expect(eb.sent).toEqual([{ outboxId: eb.outboxId, tenantId: b.id }]);
    expect((await outbox(eb.outboxId))?.tenantId).toBe(b.id);
  });

  it("refuses data that does not fit the template, before writing anything", async () => {
    const to = address();
    await expect(
      queueRecorded({ tenantId: null, to, template: "auth.login-code", data: { code: "12ab", tenantName: "Acme", expiresInMinutes: 10 } }),
    ).rejects.toThrow();
    const rows = await getDb(env).select().from(emailOutbox).where(eq(emailOutbox.toAddress, to));
    expect(rows).toHaveLength(0);
  });

  it("marks the row failed and throws when the queue refuses", async () => {
    const to = address();
    const refusing = {
      async send() {
        throw new Error("queue down");
      },
    } as unknown as Queue;
    await expect(queueEmail({ ...env, EMAIL: refusing }, { tenantId: null, to, template: "platform.notice", data: notice })).rejects.toThrow(/queue down/);
    const [row] = await getDb(env).select().from(emailOutbox).where(eq(emailOutbox.toAddress, to));
    expect(row).toMatchObject({ status: "failed", error: "queue refused the message" });
  });

  it("queues a refused e-mail when the caller retries with the same key, once", async () => {
    const to = address();
    const key = messageId("retry");
    const refusing = {
      async send() {
        throw new Error("queue down");
      },
    } as unknown as Queue;
    await expect(
      queueEmail({ ...env, EMAIL: refusing }, { tenantId: null, to, template: "platform.notice", data: notice, idempotencyKey: key }),
    ).rejects.toThrow(/queue down/);
    const retry = await queueRecorded({ tenantId: null, to, template: "platform.notice", data: notice, idempotencyKey: key });
    const again = await queueRecorded({ tenantId: null, to, template: "platform.notice", data: notice, idempotencyKey: key });
    expect(retry.sent).toEqual([{ outboxId: retry.outboxId, tenantId: null }]);
    expect(again.sent).toEqual([]);
    expect(again.outboxId).toBe(retry.outboxId);
    const rows = await getDb(env).select().from(emailOutbox).where(eq(emailOutbox.toAddress, to));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ id: retry.outboxId, status: "queued", error: null });
  });
});

describe("EMAIL consumer", () => {
  it("renders text and HTML and the dev transport stores the message in dev_mailbox", async () => {
    const t = await createTenant();
    const to = address();
    const { outboxId, sent } = await queueRecorded({ tenantId: t.id, to, template: "platform.notice", data: notice });
    const id = messageId();
    const result = await deliver([{ id, body: sent[0] }]);
    expect(result.explicitAcks).toEqual([id]);
    expect(result.retryMessages).toEqual([]);

    const [mail, ...more] = await mailbox(outboxId);
    expect(more).toHaveLength(0);
    expect(mail).toMatchObject({ tenantId: t.id, toAddress: to, fromAddress: env.EMAIL_FROM, subject: notice.subject, text: notice.message });
    expect(mail.html).toMatch(/^<!doctype html>/);
    // The message is one paragraph of text: escaped, so the parser finds no <CIS> element in it.
    const doc = parseHtml(mail.html);
    expect(textsOf(doc, "p")).toContain("Your <CIS> statement for May is ready.");
    expect(doc.querySelector("cis")).toBeNull();
    expect(mail.html).not.toContain("<CIS>");

    const row = await outbox(outboxId);
    expect(row).toMatchObject({ status: "sent", transport: "dev", attempts: 1, error: null });
    expect(row?.sentAt).toBeTypeOf("number");
    // Not sensitive: the data stays for the record.
    expect(row?.data).toEqual(notice);
  });

  it("does not send twice when a message is redelivered", async () => {
    const { outboxId, sent } = await queueRecorded({ tenantId: null, to: address(), template: "platform.notice", data: notice });
    const counting = countingTransport();
    const id = messageId();
    const first = await deliver([{ id, body: sent[0] }], counting.transport);
    const again = await deliver([{ id, body: sent[0], attempts: 2 }], counting.transport);
    expect(first.explicitAcks).toEqual([id]);
    expect(again.explicitAcks).toEqual([id]);
    expect(again.retryMessages).toEqual([]);
    expect(counting.sent).toHaveLength(1);
    expect(await mailbox(outboxId)).toHaveLength(1);
    expect((await outbox(outboxId))?.attempts).toBe(1);
  });

  it("sends once when the same message is delivered twice at the same moment", async () => {
    const { outboxId, sent } = await queueRecorded({ tenantId: null, to: address(), template: "platform.notice", data: notice });
    const counting = countingTransport();
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let entered!: () => void;
    const inSend = new Promise<void>((r) => (entered = r));
    const slow: EmailTransport = {
      name: counting.transport.name,
      async send(mail) {
        entered();
        await gate;
        await counting.transport.send(mail);
      },
    };
    const id = messageId();
    const first = deliver([{ id, body: sent[0] }], slow);
    await inSend;
    // The first attempt is inside the transport; a redelivery arrives now.
    const second = await deliver([{ id, body: sent[0], attempts: 2 }], slow);
    expect(second.explicitAcks).toEqual([]);
    expect(second.retryMessages).toEqual([{ msgId: id, delaySeconds: EMAIL_CLAIM_SECONDS }]);
    release();
    expect((await first).explicitAcks).toEqual([id]);
    expect(counting.sent).toHaveLength(1);
    expect(await outbox(outboxId)).toMatchObject({ status: "sent", attempts: 1, claimedUntil: null });
    // When the retried copy comes back, the row is sent: acknowledged, nothing sent again.
    const later = await deliver([{ id, body: sent[0], attempts: 3 }], slow);
    expect(later.explicitAcks).toEqual([id]);
    expect(counting.sent).toHaveLength(1);
  });

  it("takes over an e-mail whose earlier attempt died holding the claim, once the claim lapses", async () => {
    const { outboxId, sent } = await queueRecorded({ tenantId: null, to: address(), template: "platform.notice", data: notice });
    const counting = countingTransport();
    await getDb(env)
      .update(emailOutbox)
      .set({ claimedUntil: Date.now() - 1 })
      .where(eq(emailOutbox.id, outboxId));
    const id = messageId();
    expect((await deliver([{ id, body: sent[0], attempts: 2 }], counting.transport)).explicitAcks).toEqual([id]);
    expect(counting.sent).toHaveLength(1);
    expect((await outbox(outboxId))?.status).toBe("sent");
  });

  it("scrubs a sensitive template's data from the outbox once sent", async () => {
    const t = await createTenant();
    const to = address();
    const { outboxId, sent } = await queueRecorded({
      tenantId: t.id,
      to,
      template: "auth.login-code",
      data: { code: "493817", tenantName: "Acme Ltd", expiresInMinutes: 10 },
    });
    expect((await outbox(outboxId))?.data).toMatchObject({ code: "493817" });
    await deliver([{ body: sent[0] }]);
    const row = await outbox(outboxId);
    expect(row?.status).toBe("sent");
    expect(row?.data).toEqual({ scrubbed: true });
    expect(JSON.stringify(row)).not.toContain("493817");
    // The recipient still got the code.
    const [mail] = await mailbox(outboxId);
    expect(mail.subject).toBe("Your Acme Ltd sign-in code: 493817");
    expect(mail.text).toContain("493817");
    expect(mail.html).toContain("493817");
  });

  it("leaves the e-mail queued with the error and retries with backoff when the transport fails", async () => {
    const { outboxId, sent } = await queueRecorded({
      tenantId: null,
      to: address(),
      template: "auth.login-code",
      data: { code: "111222", tenantName: "Acme", expiresInMinutes: 10 },
    });
    const failing: EmailTransport = {
      name: "http",
      async send() {
        throw new Error("E-mail provider answered 503");
      },
    };
    const id = messageId();
    const result = await deliver([{ id, body: sent[0], attempts: 2 }], failing);
    expect(result.explicitAcks).toEqual([]);
    expect(result.retryMessages).toEqual([{ msgId: id, delaySeconds: 20 }]);
    const row = await outbox(outboxId);
    expect(row).toMatchObject({ status: "queued", attempts: 1, error: "E-mail provider answered 503", sentAt: null, claimedUntil: null });
    // Data is kept until delivery so the retry can render it.
    expect(row?.data).toMatchObject({ code: "111222" });
    expect(await mailbox(outboxId)).toHaveLength(0);

    // The retry goes through.
    const retried = await deliver([{ id, body: sent[0], attempts: 3 }]);
    expect(retried.explicitAcks).toEqual([id]);
    expect(await outbox(outboxId)).toMatchObject({ status: "sent", attempts: 2, error: null, data: { scrubbed: true } });
    expect(await mailbox(outboxId)).toHaveLength(1);
  });

  it("does not send a sign-in code whose lifetime has passed: failed 'expired', scrubbed, acknowledged", async () => {
    const { outboxId, sent } = await queueRecorded({
      tenantId: null,
      to: address(),
      template: "auth.login-code",
      data: { code: "535353", tenantName: "Acme", expiresInMinutes: 10 },
    });
    // Delivery was held up past the code's ten minutes.
    await queuedMinutesAgo(outboxId, 11);
    const counting = countingTransport();
    const id = messageId();
    const result = await deliver([{ id, body: sent[0] }], counting.transport);
    expect(result.explicitAcks).toEqual([id]);
    expect(result.retryMessages).toEqual([]);
    expect(counting.sent).toHaveLength(0);
    const row = await outbox(outboxId);
    expect(row).toMatchObject({ status: "failed", error: "expired", data: { scrubbed: true }, sentAt: null, claimedUntil: null });
    expect(JSON.stringify(row)).not.toContain("535353");
  });

  it("still sends a portal invitation within its fifteen minutes", async () => {
    const data = {
      recipientName: "Sam",
      subcontractorName: "Sam Ltd",
      contractorName: "Acme",
      magicLink: "https://acme.example.test/portal/auth?token=abc",
      expiresIn: "15 minutes",
    };
    const { outboxId, sent } = await queueRecorded({ tenantId: null, to: address(), template: "portal.invite", data });
    await queuedMinutesAgo(outboxId, 14);
    const result = await deliver([{ body: sent[0] }]);
    expect(result.retryMessages).toEqual([]);
    expect(await outbox(outboxId)).toMatchObject({ status: "sent", data: { scrubbed: true } });
    expect(await mailbox(outboxId)).toHaveLength(1);
  });

  it("does not queue an expired e-mail again when the caller retries with the same key", async () => {
    const key = messageId("expired-retry");
    const data = { code: "242424", tenantName: "Acme", expiresInMinutes: 10 };
    const first = await queueRecorded({ tenantId: null, to: address(), template: "auth.login-code", data, idempotencyKey: key });
    await queuedMinutesAgo(first.outboxId, 11);
    await deliver([{ body: first.sent[0] }]);
    const retry = await queueRecorded({ tenantId: null, to: address(), template: "auth.login-code", data, idempotencyKey: key });
    expect(retry.outboxId).toBe(first.outboxId);
    expect(retry.sent).toEqual([]);
    expect(await outbox(first.outboxId)).toMatchObject({ status: "failed", error: "expired", data: { scrubbed: true } });
  });

  it("records a scrubbed, unsent e-mail as failed ('expired') and acknowledges it instead of sending empty data", async () => {
    const { outboxId, sent } = await queueRecorded({
      tenantId: null,
      to: address(),
      template: "auth.login-code",
      data: { code: "464646", tenantName: "Acme", expiresInMinutes: 10 },
    });
    // Housekeeping scrubbed it while the message waited in the queue.
    await getDb(env)
      .update(emailOutbox)
      .set({ data: { scrubbed: true } })
      .where(eq(emailOutbox.id, outboxId));
    const counting = countingTransport();
    const id = messageId();
    const result = await deliver([{ id, body: sent[0] }], counting.transport);
    expect(result.explicitAcks).toEqual([id]);
    expect(result.retryMessages).toEqual([]);
    expect(counting.sent).toHaveLength(0);
    expect(await outbox(outboxId)).toMatchObject({ status: "failed", error: "expired", data: { scrubbed: true } });
  });

  it("fails an e-mail that can never render at once: scrubbed, failed, dead-lettered, not retried", async () => {
    const to = address();
    const { outboxId, sent } = await queueRecorded({
      tenantId: null,
      to,
      template: "auth.login-code",
      data: { code: "575757", tenantName: "Acme", expiresInMinutes: 10 },
    });
    // Written by an older release whose template took other data.
    await getDb(env)
      .update(emailOutbox)
      .set({ data: { code: "575757", tenant: "Acme" } })
      .where(eq(emailOutbox.id, outboxId));
    const id = messageId("unrenderable");
    const result = await deliver([{ id, body: sent[0] }]);
    expect(result.explicitAcks).toEqual([id]);
    expect(result.retryMessages).toEqual([]);
    const row = await outbox(outboxId);
    expect(row).toMatchObject({ status: "failed", data: { scrubbed: true }, sentAt: null });
    expect(JSON.stringify(row)).not.toContain("575757");
    const dead = await poll(() => getDb(env).select().from(deadLetters).where(eq(deadLetters.messageId, id)).get());
    expect(dead.queue).toBe(EMAIL_QUEUE);
    expect(dead.reason).toMatch(/cannot render/);
  });

  it("scrubs and fails an e-mail the platform dead-lettered after its retries", async () => {
    const { outboxId, sent } = await queueRecorded({
      tenantId: null,
      to: address(),
      template: "auth.login-code",
      data: { code: "686868", tenantName: "Acme", expiresInMinutes: 10 },
    });
    const id = messageId("exhausted");
    const result = (await deliverMessages(`${EMAIL_QUEUE}-dlq`, [{ id, body: sent[0] }])).result;
    expect(result.explicitAcks).toEqual([id]);
    const row = await outbox(outboxId);
    expect(row).toMatchObject({ status: "failed", error: "dead-lettered", data: { scrubbed: true } });
    expect(JSON.stringify(row)).not.toContain("686868");
    const dead = await getDb(env).select().from(deadLetters).where(eq(deadLetters.messageId, id)).get();
    expect(dead).toMatchObject({ queue: EMAIL_QUEUE, reason: "retries exhausted" });
  });

  it("does not mark an e-mail failed when a stray dead letter arrives after it was sent", async () => {
    const { outboxId, sent } = await queueRecorded({ tenantId: null, to: address(), template: "platform.notice", data: notice });
    await deliver([{ body: sent[0] }]);
    await deliverMessages(`${EMAIL_QUEUE}-dlq`, [{ body: sent[0] }]);
    expect(await outbox(outboxId)).toMatchObject({ status: "sent", data: notice });
  });

  it("acknowledges per message: a failure in one does not hold back the others", async () => {
    const a = await queueRecorded({ tenantId: null, to: address(), template: "platform.notice", data: notice });
    const b = await queueRecorded({ tenantId: null, to: "fails@example.test", template: "platform.notice", data: notice });
    const counting = countingTransport();
    const picky: EmailTransport = {
      name: "dev",
      async send(mail) {
        if (mail.to === "fails@example.test") throw new Error("mailbox full");
        await counting.transport.send(mail);
      },
    };
    const [ida, idb] = [messageId(), messageId()];
    const result = await deliver(
      [
        { id: ida, body: a.sent[0] },
        { id: idb, body: b.sent[0] },
      ],
      picky,
    );
    expect(result.explicitAcks).toEqual([ida]);
    expect(result.retryMessages.map((r) => r.msgId)).toEqual([idb]);
    expect((await outbox(a.outboxId))?.status).toBe("sent");
    expect((await outbox(b.outboxId))?.status).toBe("queued");
  });

  it("dead-letters an invalid body instead of retrying it", async () => {
    const id = messageId("poison");
    const result = await deliver([{ id, body: { to: "someone@example.test" } }]);
    expect(result.explicitAcks).toEqual([id]);
    expect(result.retryMessages).toEqual([]);
    const row = await poll(() => getDb(env).select().from(deadLetters).where(eq(deadLetters.messageId, id)).get());
    expect(row).toMatchObject({ queue: EMAIL_QUEUE, reason: "invalid message body" });
    expect(JSON.parse(row.body)).toEqual({ to: "someone@example.test" });
  });

  it("dead-letters a message whose outbox row does not exist", async () => {
    const id = messageId("gone");
    const result = await deliver([{ id, body: { outboxId: "no-such-outbox-row" } }]);
    expect(result.explicitAcks).toEqual([id]);
    const row = await poll(() => getDb(env).select().from(deadLetters).where(eq(deadLetters.messageId, id)).get());
    expect(row.reason).toBe("outbox row not found");
  });

  it("delivers end to end through the real EMAIL queue", async () => {
    const to = address();
    const { outboxId } = await queueEmail(env, { tenantId: null, to, template: "platform.notice", data: { subject: "Round trip", message: "It works." } });
    const mail = await poll(async () => (await mailbox(outboxId))[0]);
    expect(mail).toMatchObject({ toAddress: to, subject: "Round trip", text: "It works." });
    expect((await outbox(outboxId))?.status).toBe("sent");
  });
});
