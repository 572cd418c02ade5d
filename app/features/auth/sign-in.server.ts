import { and, eq, gt, isNull, lt, sql } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { loginChallenges, platformAdmins, tenants, users } from "~/db/schema";
import { queueEmail } from "~/features/platform/email/send.server";
import { writeAudit } from "~/features/platform/audit.server";
import { newId, sha256Hex, timingSafeEqual } from "~/utils/ids";
import { burnPasswordCheck, hashPassword, needsRehash, verifyPassword } from "./password.server";

export const CODE_TTL_MS = 10 * 60_000;
export const CODE_MAX_ATTEMPTS = 5;

type UserRow = typeof users.$inferSelect;

/** A uniformly random 6-digit code (rejection sampling, no modulo bias). */
export function generateCode(): string {
  const buf = new Uint32Array(1);
  const limit = Math.floor(0xffffffff / 1_000_000) * 1_000_000;
  for (;;) {
    crypto.getRandomValues(buf);
    if (buf[0] < limit) return String(buf[0] % 1_000_000).padStart(6, "0");
  }
}

async function codeHash(challengeId: string, code: string): Promise<string> {
  return sha256Hex(`${challengeId}:${code}`);
}

/** Checks a password for one tenant; an unknown e-mail spends the same time as a known one. */
export async function checkTenantCredentials(env: Env, tenantId: string, email: string, password: string): Promise<UserRow | null> {
  const db = getDb(env);
  const [user] = await db.select().from(users).where(and(eq(users.tenantId, tenantId), eq(users.email, email))).limit(1);
  if (!user) {
    await burnPasswordCheck(password);
    return null;
  }
  const ok = await verifyPassword(password, user.passwordHash);
  if (!ok || user.disabled) return null;
  if (needsRehash(user.passwordHash)) {
    await db.update(users).set({ passwordHash: await hashPassword(password) }).where(and(eq(users.tenantId, tenantId), eq(users.id, user.id)));
  }
  return user;
}

/** Bare-domain sign-in: every tenant account with this e-mail whose password matches. */
export async function checkCredentialsAcrossTenants(env: Env, email: string, password: string) {
  const db = getDb(env);
  const candidates = await db
    .select({ user: users, tenant: { id: tenants.id, slug: tenants.slug, name: tenants.name } })
    .from(users)
    .innerJoin(tenants, eq(tenants.id, users.tenantId))
    .where(eq(users.email, email))
    .limit(20);
  if (candidates.length === 0) {
    await burnPasswordCheck(password);
    return [];
  }
  const matches = [];
  for (const c of candidates) {
    if (!c.user.disabled && (await verifyPassword(password, c.user.passwordHash))) matches.push(c);
  }
  return matches;
}

export async function checkPlatformCredentials(env: Env, email: string, password: string) {
  const [admin] = await getDb(env).select().from(platformAdmins).where(eq(platformAdmins.email, email)).limit(1);
  if (!admin) return null;
  const ok = await verifyPassword(password, admin.passwordHash);
  return ok && !admin.disabled ? admin : null;
}

export function needsTwoFactor(opts: { toggle: boolean; userRequired: boolean; tenantRequired: boolean }): boolean {
  // The toggle can add the second step but never switch off a requirement.
  return opts.toggle || opts.userRequired || opts.tenantRequired;
}

/**
 * Creates a challenge bound to this sign-in attempt and e-mails its code through the EMAIL
 * queue. If the mail cannot be queued the challenge is deleted and the caller shows
 * 'Failed to send verification code. Please try again.'
 */
export async function startChallenge(
  env: Env,
  opts: { user: UserRow; tenantName: string; redirectTo: string | null; ip: string | null },
): Promise<{ ok: true; challengeId: string } | { ok: false }> {
  const db = getDb(env);
  const id = newId();
  const code = generateCode();
  const now = Date.now();
  await db.insert(loginChallenges).values({
    id,
    tenantId: opts.user.tenantId,
    userId: opts.user.id,
    codeHash: await codeHash(id, code),
    redirectTo: opts.redirectTo,
    createdAt: now,
    expiresAt: now + CODE_TTL_MS,
  });
  try {
    await queueEmail(env, {
      tenantId: opts.user.tenantId,
      to: opts.user.email,
      template: "auth.login-code",
      data: { code, tenantName: opts.tenantName, expiresInMinutes: CODE_TTL_MS / 60_000 },
      idempotencyKey: `login-code:${id}`,
    });
  } catch (err) {
    await db.delete(loginChallenges).where(eq(loginChallenges.id, id));
    await writeAudit(env, {
      tenantId: opts.user.tenantId,
      action: "auth.code.failed",
      actorId: opts.user.id,
      actorEmail: opts.user.email,
      payload: { reason: err instanceof Error ? err.message.slice(0, 200) : "unknown" },
      ip: opts.ip,
    });
    return { ok: false };
  }
  await writeAudit(env, { tenantId: opts.user.tenantId, action: "auth.code.sent", actorId: opts.user.id, actorEmail: opts.user.email, targetType: "login_challenge", targetId: id, ip: opts.ip });
  return { ok: true, challengeId: id };
}

export async function getLiveChallenge(env: Env, challengeId: string) {
  const [row] = await getDb(env)
    .select()
    .from(loginChallenges)
    .where(and(eq(loginChallenges.id, challengeId), isNull(loginChallenges.consumedAt), gt(loginChallenges.expiresAt, Date.now()), lt(loginChallenges.attempts, CODE_MAX_ATTEMPTS)))
    .limit(1);
  return row ?? null;
}

/**
 * Verifies a code: single use (consumed with a conditional update), valid 10 minutes,
 * dead after 5 wrong tries. Returns the challenge when the code is right.
 */
export async function verifyChallengeCode(env: Env, challengeId: string, code: string) {
  const db = getDb(env);
  const challenge = await getLiveChallenge(env, challengeId);
  if (!challenge) return null;
  const expected = await codeHash(challengeId, code);
  if (!timingSafeEqual(expected, challenge.codeHash)) {
    await db
      .update(loginChallenges)
      .set({ attempts: sql`${loginChallenges.attempts} + 1` })
      .where(eq(loginChallenges.id, challengeId));
    return null;
  }
  const consumed = await db
    .update(loginChallenges)
    .set({ consumedAt: Date.now() })
    .where(and(eq(loginChallenges.id, challengeId), isNull(loginChallenges.consumedAt), gt(loginChallenges.expiresAt, Date.now()), lt(loginChallenges.attempts, CODE_MAX_ATTEMPTS)))
    .returning();
  return consumed[0] ?? null;
}

export async function getUserForSession(env: Env, tenantId: string, userId: string) {
  const [row] = await getDb(env)
    .select({ user: users, tenant: { id: tenants.id, slug: tenants.slug, name: tenants.name, requireTwoFactor: tenants.requireTwoFactor } })
    .from(users)
    .innerJoin(tenants, eq(tenants.id, users.tenantId))
    .where(and(eq(users.tenantId, tenantId), eq(users.id, userId)))
    .limit(1);
  return row && !row.user.disabled ? row : null;
}

export async function findTenantIdBySlug(env: Env, slug: string): Promise<string | null> {
  if (!slug) return null;
  const [t] = await getDb(env).select({ id: tenants.id }).from(tenants).where(eq(tenants.slug, slug)).limit(1);
  return t?.id ?? null;
}
