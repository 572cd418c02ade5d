import { and, eq, inArray, or, sql, type SQL } from "drizzle-orm";
import { globalDb, type Db } from "~/db/client.server";
import { authThrottle } from "~/db/schema";

/**
 * Sign-in throttling, kept in D1 so it holds across isolates. Every attempt is counted with
 * one conditional upsert BEFORE the slow check it guards, so parallel attempts cannot all
 * pass a read-then-check gate: each sees its own count and the ones over the limit are
 * refused. A right answer gives its own attempt back (refund); the count is cleared only
 * when the whole sign-in has succeeded.
 *
 * Password keys: the account from one client address (a few tries, then that address is paused),
 * the account from anywhere (a much higher count, so strangers cannot keep the owner out by
 * sending a handful of wrong passwords; shared by the bare domain and every tenant host), and
 * the client address across accounts. Code keys: per user, the codes sent and the wrong codes.
 */
export const THROTTLE = {
  windowMs: 15 * 60_000,
  lockMs: 15 * 60_000,
  /** Wrong passwords for one account from one client address per window. */
  accountLimit: 5,
  /** Wrong passwords for one account from every address together per hour: then a lock everywhere. */
  accountGlobalLimit: 50,
  accountGlobalWindowMs: 60 * 60_000,
  accountGlobalLockMs: 60 * 60_000,
  ipLimit: 25,
  /** Sign-in codes e-mailed to one user per window. */
  codesSentLimit: 5,
  /** Wrong codes per user per window, across all of that user's challenges. */
  codeFailureLimit: 10,
} as const;

/** A counter: at most `limit` attempts per `windowMs` (default 15 minutes), then locked for `lockMs` (default 15). */
export type ThrottleKey = { key: string; limit: number; windowMs?: number; lockMs?: number };

export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** The account's lock everywhere: its key is the e-mail, so the person can be told when it closes. */
export function accountGlobalKey(email: string): ThrottleKey {
  return {
    key: `acct:${normaliseEmail(email)}`,
    limit: THROTTLE.accountGlobalLimit,
    windowMs: THROTTLE.accountGlobalWindowMs,
    lockMs: THROTTLE.accountGlobalLockMs,
  };
}

/** The account as tried from one client address (requests without an address share one counter). */
export function accountAddressKey(email: string, ip: string | null): ThrottleKey {
  return { key: `acct-ip:${normaliseEmail(email)}|${ip ?? "unknown"}`, limit: THROTTLE.accountLimit };
}

/** The keys a password attempt counts on, before the password is checked. */
export function passwordThrottleKeys(email: string, ip: string | null): ThrottleKey[] {
  const keys: ThrottleKey[] = [accountAddressKey(email, ip), accountGlobalKey(email)];
  if (ip) keys.push({ key: `ip:${ip}`, limit: THROTTLE.ipLimit });
  return keys;
}

/** What a finished sign-in clears: the account's counters, from this address and from everywhere. */
export function accountThrottleKeys(email: string, ip: string | null): ThrottleKey[] {
  return [accountAddressKey(email, ip), accountGlobalKey(email)];
}

/** Who a second step belongs to: a tenant user or a platform admin. */
export type CodeSubject = { kind: "staff"; tenantId: string; userId: string } | { kind: "platform"; adminId: string };

function subjectId(s: CodeSubject): string {
  return s.kind === "staff" ? `user:${s.tenantId}:${s.userId}` : `platform:${s.adminId}`;
}

export function codesSentKey(s: CodeSubject): ThrottleKey {
  return { key: `code-sent:${subjectId(s)}`, limit: THROTTLE.codesSentLimit };
}

export function codeFailureKey(s: CodeSubject): ThrottleKey {
  return { key: `code-fail:${subjectId(s)}`, limit: THROTTLE.codeFailureLimit };
}

/**
 * Counts one attempt on every key (one statement per key: a new window when the old one is
 * over or its lock has run out, otherwise +1, and a lock once the count passes the limit).
 * Returns how long the caller must wait, or 0 when every key is still within its limit.
 */
export async function countAttempt(env: Env, keys: ThrottleKey[], now = Date.now()): Promise<number> {
  return (await countAttemptDetailed(env, keys, now)).wait;
}

/**
 * countAttempt, also naming the keys this very attempt locked. The count only grows within a
 * window, so exactly one attempt sees `limit + 1`: parallel requests cannot both claim the lock.
 */
export async function countAttemptDetailed(
  env: Env,
  keys: ThrottleKey[],
  now = Date.now(),
): Promise<{ wait: number; newlyLocked: { key: string; lockedUntil: number }[] }> {
  const db = globalDb(env);
  let wait = 0;
  const newlyLocked: { key: string; lockedUntil: number }[] = [];
  for (const { key, limit, windowMs = THROTTLE.windowMs, lockMs = THROTTLE.lockMs } of keys) {
    const fresh = sql`(${authThrottle.windowStartedAt} < ${now - windowMs} OR (${authThrottle.lockedUntil} IS NOT NULL AND ${authThrottle.lockedUntil} <= ${now}))`;
    const counted = sql`(CASE WHEN ${fresh} THEN 1 ELSE ${authThrottle.failures} + 1 END)`;
    const [row] = await db
      .insert(authThrottle)
      .values({ key, failures: 1, windowStartedAt: now, lockedUntil: limit < 1 ? now + lockMs : null })
      .onConflictDoUpdate({
        target: authThrottle.key,
        set: {
          failures: counted,
          windowStartedAt: sql`CASE WHEN ${fresh} THEN ${now} ELSE ${authThrottle.windowStartedAt} END`,
          lockedUntil: sql`CASE WHEN ${authThrottle.lockedUntil} > ${now} THEN ${authThrottle.lockedUntil} WHEN ${counted} > ${limit} THEN ${now + lockMs} ELSE NULL END`,
        },
      })
      .returning({ lockedUntil: authThrottle.lockedUntil, failures: authThrottle.failures });
    if (row?.lockedUntil && row.lockedUntil > now) {
      wait = Math.max(wait, row.lockedUntil - now);
      if (row.failures === limit + 1) newlyLocked.push({ key, lockedUntil: row.lockedUntil });
    }
  }
  return { wait, newlyLocked };
}

/** Milliseconds until the key's lock ends, or 0; counts nothing. */
export async function lockedFor(env: Env, key: ThrottleKey, now = Date.now()): Promise<number> {
  const [row] = await globalDb(env).select({ lockedUntil: authThrottle.lockedUntil }).from(authThrottle).where(eq(authThrottle.key, key.key)).limit(1);
  return row?.lockedUntil && row.lockedUntil > now ? row.lockedUntil - now : 0;
}

/** Gives back the attempt a right answer spent, without forgiving the failures before it. */
export async function refundAttempt(env: Env, keys: ThrottleKey[]): Promise<void> {
  if (keys.length === 0) return;
  await globalDb(env)
    .update(authThrottle)
    .set({ failures: sql`MAX(${authThrottle.failures} - 1, 0)` })
    .where(
      inArray(
        authThrottle.key,
        keys.map((k) => k.key),
      ),
    );
}

export async function clearThrottle(env: Env, keys: ThrottleKey[]): Promise<void> {
  if (keys.length === 0) return;
  await globalDb(env)
    .delete(authThrottle)
    .where(
      inArray(
        authThrottle.key,
        keys.map((k) => k.key),
      ),
    );
}

/**
 * For an erasure's batch: deletes the sign-in counters kept under an address (the account's own
 * and the account-from-one-address ones), only while `when` holds.
 */
export function forgetAddressThrottleStatement(db: Db, email: string, when: SQL) {
  const perAddress = `acct-ip:${email}|`;
  return db
    .delete(authThrottle)
    .where(and(or(eq(authThrottle.key, `acct:${email}`), sql`substr(${authThrottle.key}, 1, ${perAddress.length}) = ${perAddress}`), when));
}

function minutes(waitMs: number): string {
  const m = Math.max(1, Math.ceil(waitMs / 60_000));
  return `${m} minute${m === 1 ? "" : "s"}`;
}

export function throttleMessage(waitMs: number): string {
  return `Too many failed sign-in attempts. For your security, sign-in is paused for ${minutes(waitMs)}. Please try again later.`;
}

export function codesSentMessage(waitMs: number): string {
  return `Too many sign-in codes requested. For your security, no new code can be sent for ${minutes(waitMs)}. Please try again later.`;
}

export function codeFailuresMessage(waitMs: number): string {
  return `Too many wrong codes. For your security, code sign-in is paused for ${minutes(waitMs)}. Please try again later.`;
}
