import { and, desc, eq, gt, isNull, sql } from "drizzle-orm";
import { dbFor } from "~/db/client.server";
import { forTenant } from "~/db/tenancy";
import { sessions, users } from "~/db/schema";
import { hashPassword, verifyPassword } from "~/features/auth/index.server";
import {
  newSession,
  revokeOwnStaffSessionStatement,
  revokeUserSessionsStatement,
  setDisplayNameStatement,
  setPasswordStatement,
} from "~/features/auth/index.server";
import { isStrongPassword, type PasswordContext } from "~/features/auth/index.server";
import { countAttempt, refundAttempt } from "~/features/auth/index.server";
import { auditInsert, auditInsertWhere } from "~/features/platform/index.server";
import type { Result } from "~/utils/result";

export type OwnSession = { id: string; createdAt: number; lastSeenAt: number; ip: string | null; current: boolean };

/** The person's live sessions in this tenant, most recently used first. One query. */
export async function listOwnSessions(env: Env, tenantId: string, userId: string, currentIdHash: string): Promise<OwnSession[]> {
  const now = Date.now();
  const rows = await dbFor(env, tenantId)
    .select({ idHash: sessions.idHash, createdAt: sessions.createdAt, lastSeenAt: sessions.lastSeenAt, ip: sessions.ip })
    .from(sessions)
    .where(
      and(
        forTenant(sessions, tenantId),
        eq(sessions.userId, userId),
        eq(sessions.kind, "staff"),
        isNull(sessions.revokedAt),
        gt(sessions.idleExpiresAt, now),
        gt(sessions.absoluteExpiresAt, now),
        // Sessions from before the last password change no longer count.
        sql`${sessions.createdAt} >= (SELECT password_changed_at FROM users WHERE tenant_id = ${tenantId} AND id = ${userId})`,
      ),
    )
    .orderBy(desc(sessions.lastSeenAt))
    .limit(50);
  return rows.map((r) => ({ id: r.idHash, createdAt: r.createdAt, lastSeenAt: r.lastSeenAt, ip: r.ip, current: r.idHash === currentIdHash }));
}

/** Wrong current passwords per person in the throttle's window, counted before the check. */
export const PASSWORD_CHANGE_ATTEMPTS = 5;

export type OwnPasswordResult = Result<{ setCookie: string }, "wrong_password" | "throttled" | "weak_password", { waitMs?: number }>;

/**
 * Changes one's own password. The current password is checked (the attempt counted first); then
 * the new hash, the end of every session (this one included) and a fresh session for this
 * browser are one batch, so the person stays signed in here and nowhere else.
 */
export async function changeOwnPassword(
  env: Env,
  tenantId: string,
  opts: { userId: string; email: string; current: string; password: string; ip: string | null; person: PasswordContext },
): Promise<OwnPasswordResult> {
  const keys = [{ key: `pwchange:${tenantId}:${opts.userId}`, limit: PASSWORD_CHANGE_ATTEMPTS }];
  const wait = await countAttempt(env, keys);
  if (wait > 0) return { ok: false, code: "throttled", waitMs: wait };
  const db = dbFor(env, tenantId);
  const [u] = await db
    .select({ passwordHash: users.passwordHash })
    .from(users)
    .where(and(forTenant(users, tenantId), eq(users.id, opts.userId)))
    .limit(1);
  if (!u || !(await verifyPassword(env, opts.current, u.passwordHash))) return { ok: false, code: "wrong_password" };
  await refundAttempt(env, keys);
  // Checked once the current password is known to be right: only the account's owner learns the verdict.
  if (!(await isStrongPassword(opts.password, opts.person))) return { ok: false, code: "weak_password" };
  const hash = await hashPassword(env, opts.password);
  const now = Date.now();
  const fresh = await newSession(env, { kind: "staff", tenantId, userId: opts.userId, ip: opts.ip });
  await db.batch([
    setPasswordStatement(db, tenantId, opts.userId, hash, now),
    revokeUserSessionsStatement(env, tenantId, opts.userId),
    fresh.insert,
    auditInsert(
      db,
      { tenantId, action: "user.password_changed", actorId: opts.userId, actorEmail: opts.email, targetType: "user", targetId: opts.userId, ip: opts.ip },
      now,
    ),
  ]);
  return { ok: true, setCookie: fresh.setCookie };
}

export async function setOwnDisplayName(
  env: Env,
  tenantId: string,
  opts: { userId: string; email: string; displayName: string; ip: string | null },
): Promise<void> {
  const db = dbFor(env, tenantId);
  const now = Date.now();
  await db.batch([
    setDisplayNameStatement(db, tenantId, opts.userId, opts.displayName, now),
    auditInsert(
      db,
      { tenantId, action: "user.display_name_changed", actorId: opts.userId, actorEmail: opts.email, targetType: "user", targetId: opts.userId, ip: opts.ip },
      now,
    ),
  ]);
}

/** Ends one of the person's own sessions; another person's session id matches nothing. */
export async function revokeOwnSession(
  env: Env,
  tenantId: string,
  opts: { userId: string; email: string; idHash: string; ip: string | null },
): Promise<boolean> {
  const db = dbFor(env, tenantId);
  const now = Date.now();
  const [, updated] = await db.batch([
    auditInsertWhere(
      db,
      // A prefix of the hash names the session in the trail without storing its key.
      {
        tenantId,
        action: "user.session_revoked",
        actorId: opts.userId,
        actorEmail: opts.email,
        targetType: "user",
        targetId: opts.userId,
        payload: { session: opts.idHash.slice(0, 12) },
        ip: opts.ip,
      },
      sql`EXISTS (SELECT 1 FROM sessions WHERE id_hash = ${opts.idHash} AND tenant_id = ${tenantId} AND user_id = ${opts.userId} AND kind = 'staff' AND revoked_at IS NULL)`,
      { now },
    ),
    revokeOwnStaffSessionStatement(db, tenantId, opts.userId, opts.idHash, now),
  ]);
  return updated.length === 1;
}
