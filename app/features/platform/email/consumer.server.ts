import { and, eq, getTableColumns, inArray, isNull, lt, ne, not, or } from "drizzle-orm";
import { dbFor, fanOut, loadShardRoutes, type Db } from "~/db/client.server";
import { forTenant } from "~/db/tenancy";
import { emailOutbox, tenants } from "~/db/schema";
import { tenantSuspendedSql } from "../suspended.server";
import { deadLetter, recordDeadLetters, retryDelaySeconds, shardOrRetry, unwrapDeadLetter } from "../jobs/queue-helpers.server";
import { DEAD_LETTERED, EXPIRED, failEmail, holdsSecret, isScrubbed, SCRUBBED, secretExpired } from "./outbox.server";
import { emailMessageSchema, type EmailMessage } from "./send.server";
import { renderTemplate, type RenderedEmail } from "./templates";
import { chooseTransport, type EmailAttachment, type EmailTransport } from "./transports.server";
import type { Result } from "~/utils/result";

/** How long one delivery attempt holds an e-mail against a simultaneous redelivery. */
export const EMAIL_CLAIM_SECONDS = 120;

/**
 * EMAIL consumer: render, hand to the configured transport, mark sent. Acknowledged per
 * message; a message whose outbox row is no longer 'queued' is acknowledged without sending,
 * so a redelivery does not send twice. Before sending, the attempt claims the row for
 * EMAIL_CLAIM_SECONDS with a conditional update; a second delivery of the same message
 * running at the same moment finds the claim taken and is retried after it, by when the
 * row is 'sent' (acknowledged then) or the claim has lapsed because the first attempt died.
 * An e-mail whose secret has expired is failed as 'expired' instead of sent; one that cannot
 * render is failed and dead-lettered at once.
 *
 * A suspended tenant's e-mail is not sent: it is parked (status 'parked', data kept) and its
 * message acknowledged. Reinstating the tenant queues it again (resumeParkedEmails), and the
 * claim takes a parked row like a queued one, so it is sent once.
 */

export async function handleEmailBatch(batch: MessageBatch<unknown>, env: Env, transport: EmailTransport = chooseTransport(env)): Promise<void> {
  await loadShardRoutes(env);
  for (const msg of batch.messages) {
    const parsed = emailMessageSchema.safeParse(msg.body);
    if (!parsed.success) {
      await deadLetter(env, env.EMAIL_DLQ, batch.queue, msg, "invalid message body");
      msg.ack();
      continue;
    }
    const found = await findOutboxRow(env, parsed.data, msg);
    if (found === "retry") continue;
    if (!found) {
      await deadLetter(env, env.EMAIL_DLQ, batch.queue, msg, "outbox row not found");
      msg.ack();
      continue;
    }
    await deliverEmail({ env, db: found.db, queue: batch.queue, msg, transport, row: found.row, tenantSuspendedAt: found.tenantSuspendedAt });
  }
}

type OutboxRow = typeof emailOutbox.$inferSelect;

/** The outbox row by its id and its own tenant (none for platform mail). */
function sameRow(row: Pick<OutboxRow, "id" | "tenantId">) {
  return and(eq(emailOutbox.id, row.id), row.tenantId === null ? isNull(emailOutbox.tenantId) : forTenant(emailOutbox, row.tenantId));
}

/** One delivered message of the EMAIL queue, with its outbox row and the database holding it. */
type EmailDelivery = { env: Env; db: Db; queue: string; msg: Message<unknown>; transport: EmailTransport; row: OutboxRow; tenantSuspendedAt: number | null };

/** The outbox row a message names; `tenantId` undefined (a message from before it was carried): by id alone. */
function outboxRowQuery(db: Db, outboxId: string, tenantId?: string | null) {
  const tenant = tenantId === undefined ? undefined : tenantId === null ? isNull(emailOutbox.tenantId) : forTenant(emailOutbox, tenantId);
  return db
    .select({ ...getTableColumns(emailOutbox), tenantSuspendedAt: tenants.suspendedAt })
    .from(emailOutbox)
    .leftJoin(tenants, eq(tenants.id, emailOutbox.tenantId))
    .where(and(eq(emailOutbox.id, outboxId), tenant))
    .limit(1);
}

/**
 * The outbox row a message names, read in the database of the tenant the message names (the
 * platform's for platform mail). A message from before messages named their tenant is looked for
 * on every shard. "retry": the tenant's route was refused and the message waits.
 */
async function findOutboxRow(env: Env, message: EmailMessage, msg: Message<unknown>) {
  const split = ({ tenantSuspendedAt, ...row }: Awaited<ReturnType<typeof outboxRowQuery>>[number], db: Db) => ({ row, tenantSuspendedAt, db });
  if (message.tenantId === undefined) {
    const hits = await fanOut(env, async function legacyOutboxRowIn(db) {
      return (await outboxRowQuery(db, message.outboxId))[0] ? db : null;
    });
    const db = hits.find((h) => h.result)?.result;
    const [found] = db ? await legacyOutboxRow(db, message.outboxId) : [];
    return found && db ? split(found, db) : null;
  }
  const db = shardOrRetry(env, message.tenantId, msg);
  if (!db) return "retry" as const;
  const [found] = await outboxRowQuery(db, message.outboxId, message.tenantId);
  return found ? split(found, db) : null;
}

/** The row a legacy message names, read again in the one shard that holds it. */
function legacyOutboxRow(db: Db, outboxId: string) {
  return outboxRowQuery(db, outboxId);
}

/** Parks, claims, renders and sends one e-mail, or says why it cannot be sent. */
async function deliverEmail(d: EmailDelivery): Promise<void> {
  const { row, msg } = d;
  // 'sent' is done; 'failed' is final (expired, unrenderable, dead-lettered, or refused by the
  // queue, in which case the caller's retry queues it afresh).
  if (row.status !== "queued" && row.status !== "parked") return msg.ack();
  const now = Date.now();
  if (row.tenantId && d.tenantSuspendedAt !== null) return parkEmail(d, row.tenantId);
  if (!(await claimEmail(d, now))) return msg.retry({ delaySeconds: EMAIL_CLAIM_SECONDS });
  // A code or link past its lifetime (or already scrubbed for that reason) is worthless to the
  // recipient and must not be sent with empty data.
  if (isScrubbed(row.data) || secretExpired(row.template, row.createdAt, now)) {
    await failEmail(d.db, row, EXPIRED);
    return msg.ack();
  }
  const prepared = await prepareEmail(d);
  if (prepared) await sendEmail(d, prepared);
}

/** Parked only while the tenant is still suspended, checked in the same statement: a
 * reinstatement in between leaves the row sendable and this message retries it. */
async function parkEmail({ db, row, msg }: EmailDelivery, tenantId: string): Promise<void> {
  const parked = await db
    .update(emailOutbox)
    .set({ status: "parked", claimedUntil: null })
    .where(and(sameRow(row), inArray(emailOutbox.status, ["queued", "parked"]), tenantSuspendedSql(tenantId)))
    .returning({ id: emailOutbox.id });
  if (parked.length > 0) msg.ack();
  else msg.retry({ delaySeconds: retryDelaySeconds(msg.attempts) });
}

async function claimEmail({ db, row }: EmailDelivery, now: number): Promise<boolean> {
  const claimed = await db
    .update(emailOutbox)
    .set({ status: "queued", claimedUntil: now + EMAIL_CLAIM_SECONDS * 1000 })
    .where(
      and(
        sameRow(row),
        inArray(emailOutbox.status, ["queued", "parked"]),
        or(isNull(emailOutbox.claimedUntil), lt(emailOutbox.claimedUntil, now)),
        row.tenantId ? not(tenantSuspendedSql(row.tenantId)) : undefined,
      ),
    )
    .returning({ id: emailOutbox.id });
  return claimed.length > 0;
}

/** The rendered e-mail and its attachments, or null once the message has been answered. */
async function prepareEmail({ env, db, queue, msg, row }: EmailDelivery): Promise<{ rendered: RenderedEmail; attachments: EmailAttachment[] } | null> {
  const failForGood = async (reason: string) => {
    await failEmail(db, row, reason, { attempts: row.attempts + 1 });
    await deadLetter(env, env.EMAIL_DLQ, queue, msg, reason);
    msg.ack();
    return null;
  };
  let rendered: RenderedEmail;
  try {
    rendered = renderTemplate(row.template, row.data);
  } catch (err) {
    // Unknown template or data that does not fit it: no retry can fix that.
    return failForGood(`cannot render: ${err instanceof Error ? err.message : String(err)}`.slice(0, 500));
  }
  try {
    const loaded = await loadAttachments(env, row.tenantId, rendered);
    return loaded.ok ? { rendered, attachments: loaded.attachments } : failForGood(ATTACHMENT_FAILURES[loaded.code]);
  } catch (err) {
    // R2 unavailable for a moment: retry like a failed send.
    await db
      .update(emailOutbox)
      .set({ attempts: row.attempts + 1, error: `attachment: ${err instanceof Error ? err.message : String(err)}`.slice(0, 500), claimedUntil: null })
      .where(sameRow(row));
    msg.retry({ delaySeconds: retryDelaySeconds(msg.attempts) });
    return null;
  }
}

async function sendEmail(
  { env, db, msg, transport, row }: EmailDelivery,
  { rendered, attachments }: { rendered: RenderedEmail; attachments: EmailAttachment[] },
): Promise<void> {
  try {
    const { attachments: _refs, from, ...content } = rendered;
    await transport.send({
      ...content,
      ...(attachments.length ? { attachments } : {}),
      outboxId: row.id,
      tenantId: row.tenantId,
      to: row.toAddress,
      from: from ?? env.EMAIL_FROM,
    });
    await db
      .update(emailOutbox)
      .set({
        status: "sent",
        sentAt: Date.now(),
        transport: transport.name,
        attempts: row.attempts + 1,
        error: null,
        claimedUntil: null,
        // Codes and magic links do not linger in the outbox once delivered.
        ...(holdsSecret(row.template) ? { data: SCRUBBED } : {}),
      })
      .where(and(sameRow(row), ne(emailOutbox.status, "sent")));
    msg.ack();
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    await db
      .update(emailOutbox)
      .set({ attempts: row.attempts + 1, error: message.slice(0, 500), claimedUntil: null })
      .where(sameRow(row));
    // After max_retries the platform dead-letters it; handleEmailDeadLetters then fails the row.
    msg.retry({ delaySeconds: retryDelaySeconds(msg.attempts) });
  }
}

/**
 * Queues again every parked e-mail of a tenant that is no longer suspended (all such tenants, on
 * every shard, when none is named) and returns how many. Rows stay 'parked' until a delivery
 * claims them, so a second call only adds a message the claim turns away.
 */
export async function resumeParkedEmails(env: Env, tenantId?: string): Promise<number> {
  await loadShardRoutes(env);
  const parkedIn = (db: Db) =>
    db
      .select({ outboxId: emailOutbox.id, tenantId: emailOutbox.tenantId })
      .from(emailOutbox)
      .where(and(eq(emailOutbox.status, "parked"), tenantId ? forTenant(emailOutbox, tenantId) : undefined, not(tenantSuspendedSql(emailOutbox.tenantId))))
      .orderBy(emailOutbox.createdAt);
  const rows = tenantId ? await parkedIn(dbFor(env, tenantId)) : (await fanOut(env, parkedIn)).flatMap((s) => s.result);
  for (let i = 0; i < rows.length; i += 100) {
    await env.EMAIL.sendBatch(rows.slice(i, i + 100).map((body) => ({ body })));
  }
  return rows.length;
}

/**
 * EMAIL dead-letter consumer: records every dead letter (as for jobs) and fails the e-mail it
 * names, scrubbing any secret, so a message the platform gave up on leaves no code behind.
 */
export async function handleEmailDeadLetters(batch: MessageBatch<unknown>, env: Env): Promise<void> {
  await loadShardRoutes(env);
  for (const msg of batch.messages) {
    const parsed = emailMessageSchema.safeParse(unwrapDeadLetter(msg, batch.queue).body);
    if (!parsed.success) continue;
    const found = await findOutboxRow(env, parsed.data, msg);
    if (found && found !== "retry") await failEmail(found.db, found.row, DEAD_LETTERED);
  }
  await recordDeadLetters(env, batch);
}

type AttachmentFailure = "outside_tenant" | "not_found";

/** The reason recorded on the outbox row and the dead letter when an attachment cannot be sent. */
const ATTACHMENT_FAILURES: Record<AttachmentFailure, string> = {
  outside_tenant: "attachment outside the tenant's files",
  not_found: "attachment not found",
};

/**
 * Fetches a rendered e-mail's attachments from R2. A key outside the sending tenant's own prefix,
 * or a file that is gone, can never be sent: the e-mail fails for good instead of retrying.
 */
async function loadAttachments(
  env: Env,
  tenantId: string | null,
  rendered: RenderedEmail,
): Promise<Result<{ attachments: EmailAttachment[] }, AttachmentFailure>> {
  const out: EmailAttachment[] = [];
  for (const ref of rendered.attachments ?? []) {
    if (!tenantId || !ref.key.startsWith(`tenants/${tenantId}/`) || ref.key.includes("..")) return { ok: false, code: "outside_tenant" };
    const obj = await env.FILES.get(ref.key);
    if (!obj) return { ok: false, code: "not_found" };
    out.push({ filename: ref.filename, contentType: ref.contentType, content: new Uint8Array(await obj.arrayBuffer()) });
  }
  return { ok: true, attachments: out };
}
