import { forTenant } from "~/db/tenancy";
import type { Actor } from "~/features/auth";
import { claimSubmission, type SubmissionClaim } from "~/features/platform/index.server";
import { and, eq, sql } from "drizzle-orm";
import { dbFor } from "~/db/client.server";
import { tenants, usedTokens, users } from "~/db/schema";
import { hashPassword } from "~/features/auth/index.server";
import { isStrongPassword, type PasswordContext } from "~/features/auth/index.server";
import { countAttempt } from "~/features/auth/index.server";
import { signToken, verifyToken } from "~/features/auth/index.server";
import { burnTokenStatement, resetPasswordStatement, revokeSessionsAfterPasswordChangeStatement } from "~/features/auth/index.server";
import { auditInsertWhere } from "~/features/platform/index.server";
import { queueEmailIf } from "~/features/platform/index.server";
import { linkThrottleKeys, personColumns, personOf, type LinkProblem } from "./invitations.server";
import { linkOrigin, tenantStatement, tokenAudience } from "./team.server";
import type { ChangeResult } from "./users.server";
import type { Result } from "~/utils/result";

/** A reset link works for an hour, once: it hands over an account already in use. */
export const RESET_TTL_SECONDS = 60 * 60;
export const RESET_EXPIRES_IN = "1 hour";

const activeMember = (tenantId: string, userId: string) =>
  sql`EXISTS (SELECT 1 FROM users WHERE tenant_id = ${tenantId} AND id = ${userId} AND disabled = 0 AND invite_id IS NULL AND scrubbed_at IS NULL)`;

/**
 * E-mails an active member a link to set a new password. The link is bound to the password it
 * replaces (`pca`, when that was set), so it stops working once any new password is set.
 */
export async function sendPasswordReset(
  env: Env,
  tenantId: string,
  userId: string,
  opts: { actor: Actor; ip: string | null; claim?: SubmissionClaim },
): Promise<ChangeResult> {
  const db = dbFor(env, tenantId);
  const [[tenant], [u]] = await db.batch([
    tenantStatement(db, tenantId),
    db
      .select({
        email: users.email,
        disabled: users.disabled,
        inviteId: users.inviteId,
        scrubbedAt: users.scrubbedAt,
        passwordChangedAt: users.passwordChangedAt,
      })
      .from(users)
      .where(and(forTenant(users, tenantId), eq(users.id, userId)))
      .limit(1),
  ]);
  if (!tenant || !u) return { ok: false, code: "not_found" };
  if (u.disabled || u.inviteId || u.scrubbedAt) return { ok: false, code: "not_active" };
  const { token, jti, expiresAt } = await signToken(env, {
    kind: "password-reset",
    subject: userId,
    audience: tokenAudience(tenantId),
    ttlSeconds: RESET_TTL_SECONDS,
    claims: { pca: u.passwordChangedAt },
  });
  const now = Date.now();
  const cond = activeMember(tenantId, userId);
  const { outboxId } = await queueEmailIf(env, {
    tenantId,
    to: u.email,
    template: "team.password-reset",
    data: {
      workspaceName: tenant.name,
      resetLink: `${linkOrigin(env, tenant.slug)}/reset-password?token=${encodeURIComponent(token)}`,
      expiresIn: RESET_EXPIRES_IN,
    },
    idempotencyKey: `team-reset:${jti}`,
    onlyIf: cond,
    alongside: (d) => [
      auditInsertWhere(
        d,
        {
          tenantId,
          action: "user.password_reset_sent",
          actorId: opts.actor.id,
          actorEmail: opts.actor.email,
          targetType: "user",
          targetId: userId,
          payload: { linkId: jti, expiresAt },
          ip: opts.ip,
        },
        cond,
        { now },
      ),
      ...(opts.claim ? [claimSubmission(d, opts.claim)] : []),
    ],
  });
  return outboxId ? { ok: true } : { ok: false, code: "not_active" };
}

export type ResetLinkCheck = Result<{ userId: string; jti: string; email: string; pca: number; expiresAt: number; person: PasswordContext }, LinkProblem>;

/** Whether a reset link still works, without using it. */
export async function checkResetLink(env: Env, tenantId: string, token: string): Promise<ResetLinkCheck> {
  const verified = await verifyToken(env, token, { kind: "password-reset", audience: tokenAudience(tenantId) });
  if (!verified.ok) return { ok: false, code: verified.code };
  const { subject: userId, jti, claims, expiresAt } = verified.value;
  if (typeof claims.pca !== "number") return { ok: false, code: "invalid" };
  const db = dbFor(env, tenantId);
  const [[u], [burnt]] = await db.batch([
    db
      .select({
        ...personColumns,
        disabled: users.disabled,
        inviteId: users.inviteId,
        scrubbedAt: users.scrubbedAt,
        passwordChangedAt: users.passwordChangedAt,
      })
      .from(users)
      .innerJoin(tenants, eq(tenants.id, users.tenantId))
      .where(and(forTenant(users, tenantId), eq(users.id, userId)))
      .limit(1),
    db.select({ jti: usedTokens.jti }).from(usedTokens).where(eq(usedTokens.jti, jti)).limit(1),
  ]);
  if (!u) return { ok: false, code: "invalid" };
  if (burnt || u.passwordChangedAt !== claims.pca || u.disabled || u.inviteId || u.scrubbedAt) return { ok: false, code: "used" };
  return { ok: true, userId, jti, email: u.email, pca: claims.pca, expiresAt, person: personOf(u) };
}

export type ResetResult = Result<void, LinkProblem | "throttled" | "weak_password", { waitMs?: number }>;

/**
 * Sets a new password from a reset link: counted before any check; then the burnt token id, the
 * audit entry, the password and the end of every session in one batch, each conditional on the
 * password still being the one the link was issued against.
 */
export async function resetPassword(env: Env, tenantId: string, opts: { token: string; password: string; ip: string | null }): Promise<ResetResult> {
  const wait = await countAttempt(env, linkThrottleKeys(opts.ip, "reset"));
  if (wait > 0) return { ok: false, code: "throttled", waitMs: wait };
  const link = await checkResetLink(env, tenantId, opts.token);
  if (!link.ok) return link;
  if (!(await isStrongPassword(opts.password, link.person))) return { ok: false, code: "weak_password" };
  const hash = await hashPassword(env, opts.password);
  const db = dbFor(env, tenantId);
  const now = Date.now();
  const unchanged = sql`EXISTS (SELECT 1 FROM users WHERE tenant_id = ${tenantId} AND id = ${link.userId} AND password_changed_at = ${link.pca} AND disabled = 0 AND scrubbed_at IS NULL)`;
  const [burnt, , updated] = await db.batch([
    burnTokenStatement(db, { jti: link.jti, kind: "password-reset", tenantId, usedAt: now, expiresAt: link.expiresAt }),
    auditInsertWhere(
      db,
      {
        tenantId,
        action: "user.password_reset",
        actorId: link.userId,
        actorEmail: link.email,
        targetType: "user",
        targetId: link.userId,
        payload: { linkId: link.jti },
        ip: opts.ip,
      },
      sql`${unchanged} AND EXISTS (SELECT 1 FROM used_tokens WHERE jti = ${link.jti} AND used_at = ${now})`,
      { now },
    ),
    resetPasswordStatement(db, { tenantId, userId: link.userId, passwordChangedAt: link.pca, jti: link.jti, passwordHash: hash, now }),
    // Only once the new password is in: a refused reset signs no one out.
    revokeSessionsAfterPasswordChangeStatement(db, tenantId, link.userId, now),
  ]);
  if (burnt.length !== 1 || updated.length !== 1) return { ok: false, code: "used" };
  return { ok: true };
}
