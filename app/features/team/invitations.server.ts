import { forTenant } from "~/db/tenancy";
import type { Actor } from "~/features/auth";
import { claimSubmission, type SubmissionClaim } from "~/features/platform/index.server";
import { and, eq, sql } from "drizzle-orm";
import { dbFor, type Db } from "~/db/client.server";
import { tenants, users, type Role } from "~/db/schema";
import { hashPassword } from "~/features/auth/index.server";
import { isStrongPassword, type PasswordContext } from "~/features/auth/index.server";
import { countAttempt } from "~/features/auth/index.server";
import { signToken, verifyToken } from "~/features/auth/index.server";
import {
  activateUserStatement,
  burnTokenStatement,
  insertUserStatement,
  reinviteUserStatement,
  staffSignInStatementsWhere,
} from "~/features/auth/index.server";
import { defaultDisplayName } from "~/features/auth/index.server";
import { auditInsert, auditInsertWhere, type AuditEntry } from "~/features/platform/index.server";
import { queueEmail, queueEmailIf } from "~/features/platform/index.server";
import { newId } from "~/utils/ids";
import { emailField } from "./schemas";
import { linkOrigin, tenantStatement, tokenAudience } from "./team.server";
import type { Result } from "~/utils/result";

/** An invitation link lasts 7 days (people are invited ahead of their start date) and works once. */
export const INVITE_TTL_SECONDS = 7 * 24 * 60 * 60;
export const INVITE_EXPIRES_IN = "7 days";
/** Not a hash any password can match: an invited person cannot sign in until they choose one. */
export const NO_PASSWORD = "!invited";

export type InviteResult = Result<{ userId: string }, "email_taken" | "invalid_email">;

/**
 * Invites a person to a tenant: the user row (invited, no usable password), its `user.invited`
 * audit entry and the activation e-mail's outbox row land in one D1 batch. Inviting an e-mail
 * that is still only invited sends a fresh link and voids the earlier one (the row keeps the id
 * of the one link that works); any other existing account with that e-mail is `email_taken`.
 */
export async function inviteUser(
  env: Env,
  input: { tenantId: string; email: string; role: Role; displayName?: string; actor: Actor; claim?: SubmissionClaim },
): Promise<InviteResult> {
  const parsed = emailField.safeParse(input.email);
  if (!parsed.success) return { ok: false, code: "invalid_email" };
  const email = parsed.data;
  const { tenantId, actor } = input;
  const db = dbFor(env, tenantId);
  const [[tenant], [existing]] = await db.batch([
    tenantStatement(db, tenantId),
    db
      .select({ id: users.id, inviteId: users.inviteId, disabled: users.disabled })
      .from(users)
      .where(and(forTenant(users, tenantId), eq(users.email, email)))
      .limit(1),
  ]);
  if (!tenant) throw new Error("inviteUser: unknown tenant");
  if (existing && (existing.inviteId === null || existing.disabled)) return { ok: false, code: "email_taken" };

  const userId = existing?.id ?? newId();
  const { token, jti, expiresAt } = await signToken(env, {
    kind: "user-invite",
    subject: userId,
    audience: tokenAudience(tenantId),
    ttlSeconds: INVITE_TTL_SECONDS,
  });
  const now = Date.now();
  const displayName = defaultDisplayName({ displayName: input.displayName, email });
  const mail = {
    tenantId,
    to: email,
    template: "team.invite" as const,
    data: {
      workspaceName: tenant.name,
      activationLink: `${linkOrigin(env, tenant.slug)}/activate?token=${encodeURIComponent(token)}`,
      expiresIn: INVITE_EXPIRES_IN,
    },
    idempotencyKey: `team-invite:${jti}`,
  };
  // The id of the link, never the link: the audit log must not hand out accounts.
  const audit: AuditEntry = {
    tenantId,
    action: "user.invited",
    actorId: actor.id,
    actorEmail: actor.email,
    targetType: "user",
    targetId: userId,
    payload: { role: input.role, inviteId: jti, expiresAt, again: Boolean(existing) },
  };

  const draft: InviteDraft = { tenantId, userId, email, displayName, inviteId: jti, audit, now, input };
  return existing ? reinvite(env, mail, draft) : inviteNew(env, db, mail, draft);
}

type InviteMail = Parameters<typeof queueEmail<"team.invite">>[1];
type InviteDraft = {
  tenantId: string;
  userId: string;
  email: string;
  displayName: string;
  inviteId: string;
  audit: AuditEntry;
  now: number;
  input: { role: Role; displayName?: string; claim?: SubmissionClaim };
};

/** A fresh link for someone still only invited: written only while the row is still an open invitation. */
async function reinvite(env: Env, mail: InviteMail, d: InviteDraft): Promise<InviteResult> {
  const { tenantId, userId, input, now } = d;
  const stillInvitedSql = sql`EXISTS (SELECT 1 FROM users WHERE tenant_id = ${tenantId} AND id = ${userId} AND invite_id IS NOT NULL AND disabled = 0)`;
  const { outboxId } = await queueEmailIf(env, {
    ...mail,
    onlyIf: stillInvitedSql,
    alongside: (b) => [
      auditInsertWhere(b, d.audit, stillInvitedSql, { now }),
      reinviteUserStatement(b, {
        tenantId,
        userId,
        inviteId: d.inviteId,
        role: input.role,
        displayName: input.displayName?.trim() ? d.displayName : undefined,
        now,
      }),
      ...(input.claim ? [claimSubmission(b, input.claim)] : []),
    ],
  });
  // Activated or disabled in the meantime: the address now belongs to an account.
  return outboxId ? { ok: true, userId } : { ok: false, code: "email_taken" };
}

/** A new invited user row with its audit entry and e-mail; a racing invitation of the same address is `email_taken`. */
async function inviteNew(env: Env, db: Db, mail: InviteMail, d: InviteDraft): Promise<InviteResult> {
  const { tenantId, userId, email, input, now } = d;
  try {
    await queueEmail(env, {
      ...mail,
      alongside: (b) => [
        insertUserStatement(b, {
          id: userId,
          tenantId,
          email,
          displayName: d.displayName,
          role: input.role,
          inviteId: d.inviteId,
          passwordHash: NO_PASSWORD,
          passwordChangedAt: now,
          createdAt: now,
          updatedAt: now,
        }),
        auditInsert(b, d.audit, now),
        ...(input.claim ? [claimSubmission(b, input.claim)] : []),
      ],
    });
  } catch (err) {
    // Invited by someone else at the same moment: the unique index refused the whole batch.
    const [taken] = await db
      .select({ id: users.id })
      .from(users)
      .where(and(forTenant(users, tenantId), eq(users.email, email)))
      .limit(1);
    if (taken) return { ok: false, code: "email_taken" };
    throw err;
  }
  return { ok: true, userId };
}

export type LinkProblem = "invalid" | "expired" | "used";
/** `person` is what a new password must not be built from: the e-mail, names and workspace. */
export type LinkCheck = Result<{ userId: string; jti: string; email: string; person: PasswordContext }, LinkProblem>;

/** The columns a new password is checked against (select them joined with `tenants`). */
export const personColumns = {
  email: users.email,
  displayName: users.displayName,
  firstName: users.firstName,
  lastName: users.lastName,
  workspace: tenants.name,
};

export function personOf(row: { email: string; displayName: string; firstName: string | null; lastName: string | null; workspace: string }): PasswordContext {
  return { email: row.email, names: [row.displayName, row.firstName, row.lastName], workspace: row.workspace };
}

/**
 * Whether an activation link still works, without using it. A link replaced by a newer
 * invitation, or whose account is already active, counts as used.
 */
export async function checkActivationLink(env: Env, tenantId: string, token: string): Promise<LinkCheck> {
  const verified = await verifyToken(env, token, { kind: "user-invite", audience: tokenAudience(tenantId) });
  if (!verified.ok) return { ok: false, code: verified.code };
  const { subject: userId, jti } = verified.value;
  const [row] = await dbFor(env, tenantId)
    .select({ ...personColumns, inviteId: users.inviteId, disabled: users.disabled })
    .from(users)
    .innerJoin(tenants, eq(tenants.id, users.tenantId))
    .where(and(forTenant(users, tenantId), eq(users.id, userId)))
    .limit(1);
  if (!row) return { ok: false, code: "invalid" };
  if (row.inviteId !== jti || row.disabled) return { ok: false, code: "used" };
  return { ok: true, userId, jti, email: row.email, person: personOf(row) };
}

/** Attempts at links per client address in the throttle's window, counted before any check. */
export const LINK_ATTEMPTS_PER_IP = 20;

export function linkThrottleKeys(ip: string | null, kind: "activate" | "reset") {
  return [{ key: `${kind}:ip:${ip ?? "unknown"}`, limit: LINK_ATTEMPTS_PER_IP }];
}

export type ActivateResult = Result<{ email: string; setCookie: string }, LinkProblem | "throttled" | "weak_password", { waitMs?: number }>;

/**
 * Sets the first password from an activation link and signs the person in. The attempt is
 * counted before the token or the password is checked; the password, the end of the invitation
 * (which makes the link single use), the burnt token id, `user.activated` and the sign-in (the
 * browser's old session revoked, the new session row, `auth.login.success`) are one batch, each
 * conditional on the row still naming this link. `setCookie` carries the new session.
 */
export async function activateAccount(
  env: Env,
  request: Request,
  tenantId: string,
  opts: { token: string; password: string; ip: string | null },
): Promise<ActivateResult> {
  const wait = await countAttempt(env, linkThrottleKeys(opts.ip, "activate"));
  if (wait > 0) return { ok: false, code: "throttled", waitMs: wait };
  const link = await checkActivationLink(env, tenantId, opts.token);
  if (!link.ok) return link;
  if (!(await isStrongPassword(opts.password, link.person))) return { ok: false, code: "weak_password" };
  const hash = await hashPassword(env, opts.password);
  const db = dbFor(env, tenantId);
  const now = Date.now();
  const invited = sql`EXISTS (SELECT 1 FROM users WHERE tenant_id = ${tenantId} AND id = ${link.userId} AND invite_id = ${link.jti} AND disabled = 0)`;
  const signIn = await staffSignInStatementsWhere(
    env,
    request,
    { tenantId, userId: link.userId, email: link.email, ip: opts.ip, method: "activation", now },
    invited,
  );
  const results = await db.batch([
    burnTokenStatement(db, { jti: link.jti, kind: "user-invite", tenantId, usedAt: now, expiresAt: now + INVITE_TTL_SECONDS * 1000 }),
    auditInsertWhere(
      db,
      {
        tenantId,
        action: "user.activated",
        actorId: link.userId,
        actorEmail: link.email,
        targetType: "user",
        targetId: link.userId,
        payload: { inviteId: link.jti },
        ip: opts.ip,
      },
      invited,
      { now },
    ),
    // The sign-in before the activation, under the same condition: it still sees the invitation.
    ...signIn.statements,
    activateUserStatement(db, { tenantId, userId: link.userId, inviteId: link.jti, passwordHash: hash, now }),
  ]);
  const updated = results[results.length - 1] as unknown[];
  if (updated.length !== 1) return { ok: false, code: "used" };
  return { ok: true, email: link.email, setCookie: signIn.setCookie };
}
