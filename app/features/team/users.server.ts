import { forTenant } from "~/db/tenancy";
import type { Actor } from "~/features/auth";
import type { SubmissionClaim } from "~/features/platform/index.server";
import { and, asc, eq, or, sql } from "drizzle-orm";
import { dbFor } from "~/db/client.server";
import {
  deleteUserSessionsStatement,
  revokeSessionsAfterDisableStatement,
  scrubUserStatement,
  setUserDisabledStatement,
  setUserRoleStatement,
} from "~/features/auth/index.server";
import { users, type Role } from "~/db/schema";
import { inviteUser, type InviteResult } from "./invitations.server";
import { afterPersonDisabled, auditInsertWhere, erasureStatements } from "~/features/platform/index.server";
import { anotherActiveAdmin } from "./team.server";
import { FORMER_USER, type MemberStatus } from "./codes";
import type { Result } from "~/utils/result";
import { teamAndSiteNamesOfUsers } from "~/features/schedule/index.server";

/** The most people one page lists; a search narrows it down. */
export const USERS_PAGE_LIMIT = 200;

export type MemberRow = {
  id: string;
  email: string;
  displayName: string;
  role: Role;
  status: MemberStatus;
  scrubbed: boolean;
  createdAt: number;
  /** The person's teams and sites (the calendar's), comma separated; null when none. */
  teams: string | null;
  sites: string | null;
};

function statusOf(u: { disabled: boolean; inviteId: string | null }): MemberStatus {
  if (u.disabled) return "disabled";
  return u.inviteId ? "invited" : "active";
}

/** The tenant's people by display name; `q` matches name or e-mail. One query. */
export async function listMembers(env: Env, tenantId: string, q: string): Promise<MemberRow[]> {
  const pattern = `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const rows = await dbFor(env, tenantId)
    .select({
      id: users.id,
      email: users.email,
      displayName: users.displayName,
      role: users.role,
      disabled: users.disabled,
      inviteId: users.inviteId,
      scrubbedAt: users.scrubbedAt,
      createdAt: users.createdAt,
      ...teamAndSiteNamesOfUsers(),
    })
    .from(users)
    .where(
      and(
        forTenant(users, tenantId),
        q ? or(sql`${users.displayName} LIKE ${pattern} ESCAPE '\\'`, sql`${users.email} LIKE ${pattern} ESCAPE '\\'`) : undefined,
      ),
    )
    .orderBy(asc(sql`lower(${users.displayName})`), asc(users.email))
    .limit(USERS_PAGE_LIMIT);
  return rows.map((r) => ({
    id: r.id,
    // A scrubbed account's placeholder address is not shown: it would only look like an address.
    email: r.scrubbedAt ? "" : r.email,
    displayName: r.displayName,
    role: r.role,
    status: statusOf(r),
    scrubbed: r.scrubbedAt !== null,
    createdAt: r.createdAt,
    teams: r.teams,
    sites: r.sites,
  }));
}

type Target = {
  id: string;
  email: string;
  role: Role;
  disabled: boolean;
  inviteId: string | null;
  scrubbedAt: number | null;
  displayName: string;
  firstName: string | null;
  lastName: string | null;
};

async function target(env: Env, tenantId: string, userId: string): Promise<Target | null> {
  const [row] = await dbFor(env, tenantId)
    .select({
      id: users.id,
      email: users.email,
      role: users.role,
      disabled: users.disabled,
      inviteId: users.inviteId,
      scrubbedAt: users.scrubbedAt,
      displayName: users.displayName,
      firstName: users.firstName,
      lastName: users.lastName,
    })
    .from(users)
    .where(and(forTenant(users, tenantId), eq(users.id, userId)))
    .limit(1);
  return row ?? null;
}

/** One member as the confirm step names them; null when not in this tenant. */
export async function getMember(env: Env, tenantId: string, userId: string): Promise<{ id: string; displayName: string; email: string } | null> {
  const t = await target(env, tenantId, userId);
  return t ? { id: t.id, displayName: t.displayName, email: t.scrubbedAt ? "" : t.email } : null;
}

export type ChangeError = "not_found" | "self" | "last_admin" | "scrubbed" | "not_disabled" | "not_active" | "not_invited";
export type ChangeResult = Result<void, ChangeError>;

/** `claim`: the form's one-time submission key, for the changes that send e-mail. */
type ChangeOpts = { actor: Actor; ip: string | null; claim?: SubmissionClaim };

/**
 * A new role. Never one's own (an admin cannot demote themselves by mistake), and never the
 * last active admin's away from admin: the UPDATE itself requires another active admin, so two
 * admins demoting each other at once cannot both succeed.
 */
export async function changeRole(env: Env, tenantId: string, userId: string, role: Role, opts: ChangeOpts): Promise<ChangeResult> {
  if (userId === opts.actor.id) return { ok: false, code: "self" };
  const t = await target(env, tenantId, userId);
  if (!t) return { ok: false, code: "not_found" };
  if (t.scrubbedAt) return { ok: false, code: "scrubbed" };
  if (t.role === role) return { ok: true };
  const db = dbFor(env, tenantId);
  const keepsAdmin = role === "admin" ? sql`1` : sql`(role != 'admin' OR ${anotherActiveAdmin(tenantId, userId)})`;
  const cond = sql`EXISTS (SELECT 1 FROM users WHERE tenant_id = ${tenantId} AND id = ${userId} AND role = ${t.role} AND ${keepsAdmin})`;
  const now = Date.now();
  const [, updated] = await db.batch([
    auditInsertWhere(
      db,
      {
        tenantId,
        action: "user.role_changed",
        actorId: opts.actor.id,
        actorEmail: opts.actor.email,
        targetType: "user",
        targetId: userId,
        payload: { from: t.role, to: role },
        ip: opts.ip,
      },
      cond,
      { now },
    ),
    setUserRoleStatement(db, { tenantId, userId, from: t.role, to: role, now }, keepsAdmin),
  ]);
  return updated.length === 1 ? { ok: true } : { ok: false, code: "last_admin" };
}

/**
 * Disables or enables a member. Disabling ends every session of theirs in the same batch (the
 * session check also refuses a disabled user) and is refused for oneself and for the last
 * active admin.
 */
export async function setMemberDisabled(env: Env, tenantId: string, userId: string, disabled: boolean, opts: ChangeOpts): Promise<ChangeResult> {
  if (userId === opts.actor.id) return { ok: false, code: "self" };
  const t = await target(env, tenantId, userId);
  if (!t) return { ok: false, code: "not_found" };
  if (t.scrubbedAt) return { ok: false, code: "scrubbed" };
  if (t.disabled === disabled) return { ok: true };
  const db = dbFor(env, tenantId);
  const now = Date.now();
  const keepsAdmin = disabled ? sql`(role != 'admin' OR ${anotherActiveAdmin(tenantId, userId)})` : sql`1`;
  const cond = sql`EXISTS (SELECT 1 FROM users WHERE tenant_id = ${tenantId} AND id = ${userId} AND disabled = ${disabled ? 0 : 1} AND scrubbed_at IS NULL AND ${keepsAdmin})`;
  const audit = auditInsertWhere(
    db,
    {
      tenantId,
      action: disabled ? "user.disabled" : "user.enabled",
      actorId: opts.actor.id,
      actorEmail: opts.actor.email,
      targetType: "user",
      targetId: userId,
      ip: opts.ip,
    },
    cond,
    { now },
  );
  const update = setUserDisabledStatement(db, { tenantId, userId, disabled, now }, keepsAdmin);
  // Sessions end only when the UPDATE before them matched: a refused disable signs no one out.
  const endSessions = revokeSessionsAfterDisableStatement(db, tenantId, userId, now);
  const [, updated] = disabled ? await db.batch([audit, update, endSessions]) : await db.batch([audit, update]);
  if (updated.length !== 1) return { ok: false, code: "last_admin" };
  // What other features end at once for a disabled person (their live chat sockets).
  if (disabled) await afterPersonDisabled(env, tenantId, userId);
  return { ok: true };
}

/** Sends an invited member a fresh activation link (the earlier one stops working). */
export async function reinviteMember(env: Env, tenantId: string, userId: string, opts: ChangeOpts): Promise<ChangeResult | InviteResult> {
  const t = await target(env, tenantId, userId);
  if (!t) return { ok: false, code: "not_found" };
  if (!t.inviteId || t.disabled) return { ok: false, code: "not_invited" };
  return inviteUser(env, { tenantId, email: t.email, role: t.role, actor: opts.actor, claim: opts.claim });
}

/** The address a scrubbed account keeps: unique in the tenant, saying nothing about the person. */
export function scrubbedEmail(userId: string): string {
  return `former-user-${userId}@scrubbed.invalid`;
}

/**
 * Erases a departed (disabled) member's personal data: the e-mail becomes a placeholder, the
 * names go, the display name becomes 'Former user', the sessions are deleted and the password
 * can no longer match. The row and the audit entries stay, keyed by the user id, so the trail
 * still reads; the audit entries lose the e-mail they recorded, the outbox rows their address and
 * the activity log the name; every other copy of the e-mail and name goes in the same batch, by
 * the statements each feature registers for its own tables (platform's `erasureStatements`).
 */
export async function scrubMember(env: Env, tenantId: string, userId: string, opts: ChangeOpts): Promise<ChangeResult> {
  if (userId === opts.actor.id) return { ok: false, code: "self" };
  const t = await target(env, tenantId, userId);
  if (!t) return { ok: false, code: "not_found" };
  if (t.scrubbedAt) return { ok: true };
  if (!t.disabled) return { ok: false, code: "not_disabled" };
  const db = dbFor(env, tenantId);
  const now = Date.now();
  const placeholder = scrubbedEmail(userId);
  const cond = sql`EXISTS (SELECT 1 FROM users WHERE tenant_id = ${tenantId} AND id = ${userId} AND disabled = 1 AND scrubbed_at IS NULL)`;
  const done = sql`EXISTS (SELECT 1 FROM users WHERE tenant_id = ${tenantId} AND id = ${userId} AND scrubbed_at = ${now})`;
  const [, updated] = await db.batch([
    auditInsertWhere(
      db,
      { tenantId, action: "user.scrubbed", actorId: opts.actor.id, actorEmail: opts.actor.email, targetType: "user", targetId: userId, ip: opts.ip },
      cond,
      { now },
    ),
    scrubUserStatement(db, { tenantId, userId, email: placeholder, displayName: FORMER_USER, now }),
    deleteUserSessionsStatement(db, tenantId, userId, done),
    // Every feature erases its own copies of the person (each registers an eraser at start-up).
    ...erasureStatements(db, {
      tenantId,
      userId,
      email: t.email,
      placeholder,
      displayName: t.displayName,
      firstName: t.firstName,
      lastName: t.lastName,
      done,
    }),
  ]);
  return updated.length === 1 ? { ok: true } : { ok: false, code: "not_disabled" };
}
