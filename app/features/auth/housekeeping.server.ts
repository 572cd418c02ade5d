import { lt } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { authThrottle, loginChallenges, usedTokens } from "~/db/schema";
import { purgeExpiredSessions } from "./session.server";

const DAY = 86_400_000;

/**
 * Hourly, for the tables sign-in owns: expired sessions, spent tokens, sign-in codes and
 * throttle windows older than a day. `now` is the cron's scheduled time.
 */
export async function runAuthHousekeeping(env: Env, now = Date.now()) {
  const db = getDb(env);
  const sessions = await purgeExpiredSessions(env, now);
  const tokens = (await db.delete(usedTokens).where(lt(usedTokens.expiresAt, now))).meta.changes ?? 0;
  const challenges = (await db.delete(loginChallenges).where(lt(loginChallenges.expiresAt, now - DAY))).meta.changes ?? 0;
  const throttles = (await db.delete(authThrottle).where(lt(authThrottle.windowStartedAt, now - DAY))).meta.changes ?? 0;
  return { sessions, tokens, challenges, throttles };
}
