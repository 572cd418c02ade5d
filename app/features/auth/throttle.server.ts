import { eq, sql } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { authThrottle } from "~/db/schema";

/**
 * Failed sign-in throttling, kept in D1 so it holds across isolates. Per account
 * (tenant + e-mail, or the e-mail on the bare domain) and per client address.
 */
export const THROTTLE = {
  windowMs: 15 * 60_000,
  lockMs: 15 * 60_000,
  accountLimit: 5,
  ipLimit: 25,
} as const;

export function throttleKeys(scope: string, email: string, ip: string | null): { key: string; limit: number }[] {
  const keys: { key: string; limit: number }[] = [{ key: `acct:${scope}:${email.trim().toLowerCase()}`, limit: THROTTLE.accountLimit }];
  if (ip) keys.push({ key: `ip:${ip}`, limit: THROTTLE.ipLimit });
  return keys;
}

/** Milliseconds until sign-in may be tried again, or 0. */
export async function throttledFor(env: Env, keys: { key: string }[], now = Date.now()): Promise<number> {
  let wait = 0;
  for (const { key } of keys) {
    const [row] = await getDb(env).select().from(authThrottle).where(eq(authThrottle.key, key)).limit(1);
    if (row?.lockedUntil && row.lockedUntil > now) wait = Math.max(wait, row.lockedUntil - now);
  }
  return wait;
}

export async function recordFailure(env: Env, keys: { key: string; limit: number }[], now = Date.now()): Promise<void> {
  const db = getDb(env);
  for (const { key, limit } of keys) {
    // One statement: start a new window when the old one is over, otherwise count, and lock at the limit.
    await db
      .insert(authThrottle)
      .values({ key, failures: 1, windowStartedAt: now, lockedUntil: limit <= 1 ? now + THROTTLE.lockMs : null })
      .onConflictDoUpdate({
        target: authThrottle.key,
        set: {
          failures: sql`CASE WHEN ${authThrottle.windowStartedAt} < ${now - THROTTLE.windowMs} THEN 1 ELSE ${authThrottle.failures} + 1 END`,
          windowStartedAt: sql`CASE WHEN ${authThrottle.windowStartedAt} < ${now - THROTTLE.windowMs} THEN ${now} ELSE ${authThrottle.windowStartedAt} END`,
          lockedUntil: sql`CASE WHEN ${authThrottle.windowStartedAt} >= ${now - THROTTLE.windowMs} AND ${authThrottle.failures} + 1 >= ${limit} THEN ${now + THROTTLE.lockMs} ELSE ${authThrottle.lockedUntil} END`,
        },
      });
  }
}

export async function clearFailures(env: Env, key: string): Promise<void> {
  await getDb(env).delete(authThrottle).where(eq(authThrottle.key, key));
}

export function throttleMessage(waitMs: number): string {
  const minutes = Math.max(1, Math.ceil(waitMs / 60_000));
  return `Too many failed sign-in attempts. For your security, sign-in is paused for ${minutes} minute${minutes === 1 ? "" : "s"}. Please try again later.`;
}
