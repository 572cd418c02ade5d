import { and, eq, isNull, lt, ne, or, sql } from "drizzle-orm";
import { sumOverShards, type Db } from "~/db/client.server";
import { emailOutbox } from "~/db/schema";
import { isTemplateName, SENSITIVE_TEMPLATES, TEMPLATES } from "./templates";

/** What a scrubbed row's data becomes: the secret is gone, the row stays for the record. */
export const SCRUBBED = { scrubbed: true } as const;

/** Why an e-mail was never sent, as recorded in `error`. */
export const EXPIRED = "expired";
export const DEAD_LETTERED = "dead-lettered";

export function isScrubbed(data: unknown): boolean {
  return typeof data === "object" && data !== null && (data as { scrubbed?: unknown }).scrubbed === true;
}

/** An unknown template may hold anything: treat it as holding a secret. */
export function holdsSecret(template: string): boolean {
  return !isTemplateName(template) || TEMPLATES[template].secretLifetimeMs !== null;
}

/** Has the secret in this e-mail expired, so that sending it would only leak a dead code? */
export function secretExpired(template: string, createdAt: number, now: number): boolean {
  if (!isTemplateName(template)) return false;
  const lifetime = TEMPLATES[template].secretLifetimeMs;
  return lifetime !== null && createdAt + lifetime <= now;
}

/**
 * Marks an unsent e-mail failed for good, dropping its data when it may hold a secret. Never
 * touches a row already sent (a stray late copy of the message) and keeps the first reason
 * recorded for a row already failed this way.
 */
export async function failEmail(
  db: Db,
  row: { id: string; tenantId: string | null; template: string },
  reason: string,
  opts: { attempts?: number } = {},
): Promise<void> {
  await db
    .update(emailOutbox)
    .set({
      status: "failed",
      error: reason.slice(0, 500),
      claimedUntil: null,
      ...(holdsSecret(row.template) ? { data: SCRUBBED } : {}),
      ...(opts.attempts === undefined ? {} : { attempts: opts.attempts }),
    })
    .where(
      and(
        eq(emailOutbox.id, row.id),
        row.tenantId === null ? isNull(emailOutbox.tenantId) : eq(emailOutbox.tenantId, row.tenantId),
        eq(emailOutbox.status, "queued"),
      ),
    );
}

/**
 * Hourly: scrubs the data of every e-mail whose secret has outlived its lifetime, sent or not.
 * An unsent one is failed as expired, so neither the consumer nor a caller's retry sends it.
 */
export async function scrubExpiredEmailSecrets(env: Env, now: number): Promise<number> {
  if (SENSITIVE_TEMPLATES.length === 0) return 0;
  const expired = SENSITIVE_TEMPLATES.map(({ name, secretLifetimeMs }) =>
    and(eq(emailOutbox.template, name), lt(emailOutbox.createdAt, now - secretLifetimeMs)),
  );
  return sumOverShards(env, async function scrubExpiredEmailSecretsIn(db) {
    const res = await db
      .update(emailOutbox)
      .set({
        data: SCRUBBED,
        status: sql`CASE WHEN ${emailOutbox.status} = 'sent' THEN 'sent' ELSE 'failed' END`,
        error: sql`CASE WHEN ${emailOutbox.status} = 'sent' THEN ${emailOutbox.error} ELSE ${EXPIRED} END`,
        claimedUntil: null,
      })
      .where(and(or(...expired), sql`coalesce(json_extract(${emailOutbox.data}, '$.scrubbed'), 0) != 1`));
    return res.meta.changes ?? 0;
  });
}

/**
 * Hourly: outbox rows are a delivery record, not an archive; after `olderThan` they go, whatever
 * their status, except parked ones, which wait (unsent) for their tenant's reinstatement.
 */
export async function purgeEmailOutbox(env: Env, olderThan: number): Promise<number> {
  return sumOverShards(env, async function purgeEmailOutboxIn(db) {
    const res = await db.delete(emailOutbox).where(and(lt(emailOutbox.createdAt, olderThan), ne(emailOutbox.status, "parked")));
    return res.meta.changes ?? 0;
  });
}
