import { and, asc, eq, gt, isNull, lt, lte, sql } from "drizzle-orm";
import { dbFor, fanOut, globalDb, loadShardRoutes, type Db } from "~/db/client.server";
import { loginChallenges, platformAdmins, tenants, users } from "~/db/schema";
import { queueEmail } from "~/features/platform/index.server";
import { writeAudit } from "~/features/platform/index.server";
import { errorReference } from "~/features/platform";
import { newId, sha256Hex, timingSafeEqual } from "~/utils/ids";
import { burnPasswordCheck, hashPassword, needsRehash, verifyPassword } from "./password.server";
import { clearThrottle, codeFailureKey, codesSentKey, countAttempt, lockedFor, refundAttempt, type CodeSubject } from "./throttle.server";
import type { Err, Ok, Result } from "~/utils/result";

export const CODE_TTL_MS = 10 * 60_000;
export const CODE_MAX_ATTEMPTS = 5;
/**
 * Tenant accounts one e-mail can open from the bare domain. Every bare-domain attempt spends
 * one derivation for the platform slot and one per account slot, used or not, so the time
 * taken says nothing about who owns the e-mail. Accounts beyond this sign in on their
 * workspace's own address.
 */
export const BARE_DOMAIN_ACCOUNT_SLOTS = 5;

type UserRow = typeof users.$inferSelect;
type AdminRow = typeof platformAdmins.$inferSelect;
type TenantSummary = { id: string; slug: string; name: string };
export type AccountMatch = { user: UserRow; tenant: TenantSummary };

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

async function rehashUser(env: Env, user: UserRow, password: string) {
  if (!needsRehash(env, user.passwordHash)) return;
  await dbFor(env, user.tenantId)
    .update(users)
    .set({ passwordHash: await hashPassword(env, password) })
    .where(and(eq(users.tenantId, user.tenantId), eq(users.id, user.id)));
}

/**
 * Tells the owner of an e-mail that its sign-in is locked everywhere (once per lock: the caller
 * passes only the attempt that closed it). Sent only when the address has an account, so
 * failing sign-ins for a stranger's address sends them nothing.
 */
export async function announceAccountLock(env: Env, email: string, lockedUntil: number, ip: string | null): Promise<void> {
  await loadShardRoutes(env);
  // Accounts of every workspace, on every shard, and the platform's admins.
  const [userHits, [admin]] = await Promise.all([
    fanOut(env, async function accountWithEmailIn(db) {
      return await db.select({ id: users.id }).from(users).where(eq(users.email, email)).limit(1);
    }),
    globalDb(env).select({ id: platformAdmins.id }).from(platformAdmins).where(eq(platformAdmins.email, email)).limit(1),
  ]);
  if (!userHits.some((h) => h.result.length > 0) && !admin) return;
  const minutes = Math.max(1, Math.round((lockedUntil - Date.now()) / 60_000));
  try {
    await queueEmail(env, {
      tenantId: null,
      to: email,
      template: "auth.account-locked",
      data: { lockedMinutes: minutes },
      // The address is hashed: the key outlives an erasure of the person.
      idempotencyKey: `account-locked:${await sha256Hex(email)}:${lockedUntil}`,
    });
  } catch (err) {
    // The lock stands whether or not the warning could be queued.
    console.error(`[ref ${errorReference()}] Account lock notice could not be queued`, err);
  }
  await writeAudit(env, { tenantId: null, action: "auth.login.account_locked", payload: { lockedUntil }, ip });
}

/** Checks a password for one tenant: one derivation whether or not the e-mail is known. */
export async function checkTenantCredentials(env: Env, tenantId: string, email: string, password: string): Promise<UserRow | null> {
  const [user] = await dbFor(env, tenantId)
    .select()
    .from(users)
    .where(and(eq(users.tenantId, tenantId), eq(users.email, email)))
    .limit(1);
  if (!user) {
    await burnPasswordCheck(env, password);
    return null;
  }
  const ok = await verifyPassword(env, password, user.passwordHash);
  if (!ok || user.disabled) return null;
  await rehashUser(env, user, password);
  return user;
}

/**
 * The accounts with this e-mail in every active workspace, on every shard, by workspace slug, at
 * most BARE_DOMAIN_ACCOUNT_SLOTS of them.
 */
async function accountsByEmail(env: Env, email: string) {
  await loadShardRoutes(env);
  const perShard = await fanOut(env, (db) =>
    db
      .select({ user: users, tenant: { id: tenants.id, slug: tenants.slug, name: tenants.name } })
      .from(users)
      // A suspended workspace's accounts cannot sign in.
      .innerJoin(tenants, and(eq(tenants.id, users.tenantId), isNull(tenants.suspendedAt)))
      .where(eq(users.email, email))
      .orderBy(asc(tenants.slug))
      .limit(BARE_DOMAIN_ACCOUNT_SLOTS),
  );
  return perShard
    .flatMap((s) => s.result)
    .sort((a, b) => (a.tenant.slug < b.tenant.slug ? -1 : a.tenant.slug > b.tenant.slug ? 1 : 0))
    .slice(0, BARE_DOMAIN_ACCOUNT_SLOTS);
}

/**
 * Bare-domain sign-in: the platform admin with this e-mail (if the password is theirs) and
 * every tenant account with this e-mail whose password matches. Always spends exactly
 * 1 + BARE_DOMAIN_ACCOUNT_SLOTS derivations (empty slots are burnt), whether the e-mail
 * belongs to a platform admin, tenant users, both or nobody.
 */
export async function checkBareDomainCredentials(env: Env, email: string, password: string): Promise<{ admin: AdminRow | null; accounts: AccountMatch[] }> {
  const db = globalDb(env);
  const [[admin], candidates] = await Promise.all([
    db.select().from(platformAdmins).where(eq(platformAdmins.email, email)).limit(1),
    accountsByEmail(env, email),
  ]);
  const slot = (hash: string | undefined) => (hash ? verifyPassword(env, password, hash) : burnPasswordCheck(env, password).then(() => false));
  const [adminOk, ...accountOk] = await Promise.all([
    slot(admin?.passwordHash),
    ...Array.from({ length: BARE_DOMAIN_ACCOUNT_SLOTS }, (_, i) => slot(candidates[i]?.user.passwordHash)),
  ]);
  const matchedAdmin = admin && adminOk && !admin.disabled ? admin : null;
  const accounts = candidates.filter((c, i) => accountOk[i] && !c.user.disabled);
  if (matchedAdmin && needsRehash(env, matchedAdmin.passwordHash)) {
    await db
      .update(platformAdmins)
      .set({ passwordHash: await hashPassword(env, password) })
      .where(eq(platformAdmins.id, matchedAdmin.id));
  }
  for (const a of accounts) await rehashUser(env, a.user, password);
  return { admin: matchedAdmin, accounts };
}

export function needsTwoFactor(opts: { toggle: boolean; userRequired: boolean; tenantRequired: boolean }): boolean {
  // The toggle can add the second step but never switch off a requirement.
  return opts.toggle || opts.userRequired || opts.tenantRequired;
}

export function challengeSubject(c: { kind: "staff" | "platform"; tenantId: string | null; userId: string }): CodeSubject | null {
  if (c.kind === "platform") return { kind: "platform", adminId: c.userId };
  return c.tenantId ? { kind: "staff", tenantId: c.tenantId, userId: c.userId } : null;
}

export type StartChallengeResult = Result<{ challengeId: string }, "send_failed"> | Err<"codes_exhausted" | "code_step_locked", { waitMs: number }>;

/**
 * Creates a challenge bound to this sign-in attempt and e-mails its code through the EMAIL
 * queue. Refused while the user's code step is locked by wrong codes, and once the user has
 * been sent the window's quota of codes (a right password alone must not buy unlimited
 * guesses). If the mail cannot be queued the challenge is deleted and the code given back.
 */
export async function startChallenge(
  env: Env,
  opts: { subject: CodeSubject; email: string; placeName: string; redirectTo: string | null; ip: string | null },
): Promise<StartChallengeResult> {
  const { subject } = opts;
  const tenantId = subject.kind === "staff" ? subject.tenantId : null;
  const actorId = subject.kind === "staff" ? subject.userId : subject.adminId;
  const locked = await lockedFor(env, codeFailureKey(subject));
  if (locked > 0) {
    await writeAudit(env, { tenantId, action: "auth.code.locked", actorId, actorEmail: opts.email, ip: opts.ip });
    return { ok: false, code: "code_step_locked", waitMs: locked };
  }
  const wait = await countAttempt(env, [codesSentKey(subject)]);
  if (wait > 0) {
    await writeAudit(env, { tenantId, action: "auth.code.refused", actorId, actorEmail: opts.email, payload: { reason: "too_many_codes" }, ip: opts.ip });
    return { ok: false, code: "codes_exhausted", waitMs: wait };
  }
  const db = dbFor(env, tenantId);
  const id = newId();
  const code = generateCode();
  const now = Date.now();
  await db.insert(loginChallenges).values({
    id,
    kind: subject.kind,
    tenantId,
    userId: actorId,
    codeHash: await codeHash(id, code),
    redirectTo: opts.redirectTo,
    createdAt: now,
    expiresAt: now + CODE_TTL_MS,
  });
  try {
    await queueEmail(env, {
      tenantId,
      to: opts.email,
      template: "auth.login-code",
      data: { code, tenantName: opts.placeName, expiresInMinutes: CODE_TTL_MS / 60_000 },
      idempotencyKey: `login-code:${id}`,
    });
  } catch (err) {
    // Tenant admins read the audit log: it gets the reference, the log gets the detail.
    const reference = errorReference();
    console.error(`[ref ${reference}] Login code could not be queued`, err);
    await db.delete(loginChallenges).where(eq(loginChallenges.id, id));
    await refundAttempt(env, [codesSentKey(subject)]);
    await writeAudit(env, {
      tenantId,
      action: "auth.code.failed",
      actorId,
      actorEmail: opts.email,
      payload: { reason: "send_failed", reference },
      ip: opts.ip,
    });
    return { ok: false, code: "send_failed" };
  }
  await writeAudit(env, { tenantId, action: "auth.code.sent", actorId, actorEmail: opts.email, targetType: "login_challenge", targetId: id, ip: opts.ip });
  return { ok: true, challengeId: id };
}

function live(now: number) {
  return and(isNull(loginChallenges.consumedAt), gt(loginChallenges.expiresAt, now));
}

/**
 * The live sign-in challenge with this id. A tenant host looks in its tenant's database only (a
 * challenge of another tenant cannot be finished there anyway); the bare domain looks in every
 * shard, since it finishes platform and staff challenges alike.
 */
export async function getLiveChallenge(env: Env, challengeId: string, hostTenantId: string | null) {
  const liveChallengeIn = async (db: Db) =>
    (
      await db
        .select()
        .from(loginChallenges)
        .where(and(eq(loginChallenges.id, challengeId), live(Date.now()), lt(loginChallenges.attempts, CODE_MAX_ATTEMPTS)))
        .limit(1)
    )[0];
  if (hostTenantId !== null) return (await liveChallengeIn(dbFor(env, hostTenantId))) ?? null;
  await loadShardRoutes(env);
  return (await fanOut(env, liveChallengeIn)).find((s) => s.result)?.result ?? null;
}

/** Which challenges a host may finish: a tenant host only its own staff ones; the bare domain any. */
export function challengeBelongsHere(challenge: { kind: "staff" | "platform"; tenantId: string | null }, tenantId: string | null): boolean {
  if (tenantId === null) return true;
  return challenge.kind === "staff" && challenge.tenantId === tenantId;
}

type Challenge = typeof loginChallenges.$inferSelect;
export type VerifyCodeResult =
  Ok<{ challenge: Challenge }> | Err<"invalid", { challenge: Challenge | null }> | Err<"code_step_locked", { waitMs: number; challenge: Challenge }>;

/**
 * Verifies a code: single use, valid 10 minutes, 5 tries per challenge and the user's window
 * quota of wrong codes across challenges. Both counts are taken before the comparison, so
 * parallel guesses cannot all slip under them; a right code clears the user's code counters.
 */
export async function verifyChallengeCode(env: Env, challengeId: string, code: string, hostTenantId: string | null): Promise<VerifyCodeResult> {
  const pending = await getLiveChallenge(env, challengeId, hostTenantId);
  const subject = pending ? challengeSubject(pending) : null;
  if (!pending || !subject || !challengeBelongsHere(pending, hostTenantId)) return { ok: false, code: "invalid", challenge: null };
  const db = dbFor(env, pending.tenantId);
  const wait = await countAttempt(env, [codeFailureKey(subject)]);
  if (wait > 0) return { ok: false, code: "code_step_locked", waitMs: wait, challenge: pending };
  const [counted] = await db
    .update(loginChallenges)
    .set({ attempts: sql`${loginChallenges.attempts} + 1` })
    .where(and(eq(loginChallenges.id, challengeId), live(Date.now()), lt(loginChallenges.attempts, CODE_MAX_ATTEMPTS)))
    .returning();
  if (!counted) return { ok: false, code: "invalid", challenge: pending };
  if (!timingSafeEqual(await codeHash(challengeId, code), counted.codeHash)) return { ok: false, code: "invalid", challenge: pending };
  const [consumed] = await db
    .update(loginChallenges)
    .set({ consumedAt: Date.now() })
    .where(and(eq(loginChallenges.id, challengeId), live(Date.now()), lte(loginChallenges.attempts, CODE_MAX_ATTEMPTS)))
    .returning();
  if (!consumed) return { ok: false, code: "invalid", challenge: pending };
  await clearThrottle(env, [codeFailureKey(subject), codesSentKey(subject)]);
  return { ok: true, challenge: consumed };
}

export async function getUserForSession(env: Env, tenantId: string, userId: string) {
  const [row] = await dbFor(env, tenantId)
    .select({ user: users, tenant: { id: tenants.id, slug: tenants.slug, name: tenants.name, requireTwoFactor: tenants.requireTwoFactor } })
    .from(users)
    .innerJoin(tenants, and(eq(tenants.id, users.tenantId), isNull(tenants.suspendedAt)))
    .where(and(eq(users.tenantId, tenantId), eq(users.id, userId)))
    .limit(1);
  return row && !row.user.disabled ? row : null;
}

export async function getActivePlatformAdmin(env: Env, adminId: string): Promise<AdminRow | null> {
  const [admin] = await globalDb(env).select().from(platformAdmins).where(eq(platformAdmins.id, adminId)).limit(1);
  return admin && !admin.disabled ? admin : null;
}

export async function findTenantIdBySlug(env: Env, slug: string): Promise<string | null> {
  if (!slug) return null;
  const [t] = await globalDb(env).select({ id: tenants.id }).from(tenants).where(eq(tenants.slug, slug)).limit(1);
  return t?.id ?? null;
}
