import { lt } from "drizzle-orm";
import { globalDb, sumOverShards } from "~/db/client.server";
import { authThrottle, loginChallenges, usedTokens } from "~/db/schema";
import { purgeExpiredSessions } from "./session.server";

const DAY = 86_400_000;

/**
 * Hourly, for the tables sign-in owns: expired sessions, spent tokens, sign-in codes and
 * throttle windows older than a day. `now` is the cron's scheduled time.
 */
export async function runAuthHousekeeping(env: Env, now = Date.now()) {
  const sessions = await purgeExpiredSessions(env, now);
  // Burnt tokens and sign-in codes are tenants' rows, in every shard; throttling is the platform's.
  const tokens = await sumOverShards(env, async function purgeUsedTokensIn(db) {
    return (await db.delete(usedTokens).where(lt(usedTokens.expiresAt, now))).meta.changes ?? 0;
  });
  const challenges = await sumOverShards(env, async function purgeLoginChallengesIn(db) {
    return (await db.delete(loginChallenges).where(lt(loginChallenges.expiresAt, now - DAY))).meta.changes ?? 0;
  });
  const throttles =
    (
      await globalDb(env)
        .delete(authThrottle)
        .where(lt(authThrottle.windowStartedAt, now - DAY))
    ).meta.changes ?? 0;
  return { sessions, tokens, challenges, throttles };
}
