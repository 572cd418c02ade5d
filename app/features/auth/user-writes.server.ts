import { and, eq, isNotNull, isNull, sql, type SQL } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { sessions, usedTokens, users, type Role } from "~/db/schema";
import type { TokenKind } from "./tokens.server";

/**
 * Writes to the tables sign-in owns (users, sessions, used_tokens) that other features need,
 * as statements for the caller's D1 batch: the change, its conditions and its audit entry still
 * land together, while only auth writes these tables.
 */

/** A new password for a member, from the account page. */
export function setPasswordStatement(db: Db, tenantId: string, userId: string, passwordHash: string, now: number) {
  return db
    .update(users)
    .set({ passwordHash, passwordChangedAt: now, updatedAt: now })
    .where(and(eq(users.tenantId, tenantId), eq(users.id, userId)));
}

export function setDisplayNameStatement(db: Db, tenantId: string, userId: string, displayName: string, now: number) {
  return db
    .update(users)
    .set({ displayName, updatedAt: now })
    .where(and(eq(users.tenantId, tenantId), eq(users.id, userId)));
}

/** Ends one of the person's own live staff sessions; returns the id when it matched. */
export function revokeOwnStaffSessionStatement(db: Db, tenantId: string, userId: string, idHash: string, now: number) {
  const mine = and(
    eq(sessions.idHash, idHash),
    eq(sessions.tenantId, tenantId),
    eq(sessions.userId, userId),
    eq(sessions.kind, "staff"),
    isNull(sessions.revokedAt),
  );
  return db.update(sessions).set({ revokedAt: now }).where(mine).returning({ id: sessions.idHash });
}

/** An invited (not yet active) member gets a new invite id and role, while still invited and enabled. */
export function reinviteUserStatement(db: Db, opts: { tenantId: string; userId: string; inviteId: string; role: Role; displayName?: string; now: number }) {
  const stillInvited = and(eq(users.tenantId, opts.tenantId), eq(users.id, opts.userId), isNotNull(users.inviteId), eq(users.disabled, false));
  return db
    .update(users)
    .set({ inviteId: opts.inviteId, role: opts.role, ...(opts.displayName !== undefined ? { displayName: opts.displayName } : {}), updatedAt: opts.now })
    .where(stillInvited);
}

/** The row of a newly invited member (no usable password until activation). */
export function insertUserStatement(db: Db, values: typeof users.$inferInsert) {
  return db.insert(users).values(values);
}

/** Marks a token id as used; a second burn of the same id inserts nothing (and returns no row). */
export function burnTokenStatement(db: Db, opts: { jti: string; kind: TokenKind; tenantId: string | null; usedAt: number; expiresAt: number }) {
  return db.insert(usedTokens).values(opts).onConflictDoNothing().returning({ jti: usedTokens.jti });
}

/** Activation: the invited member's password, while the invite is the one the link carried. */
export function activateUserStatement(db: Db, opts: { tenantId: string; userId: string; inviteId: string; passwordHash: string; now: number }) {
  return db
    .update(users)
    .set({ passwordHash: opts.passwordHash, passwordChangedAt: opts.now, inviteId: null, updatedAt: opts.now })
    .where(and(eq(users.tenantId, opts.tenantId), eq(users.id, opts.userId), eq(users.inviteId, opts.inviteId), eq(users.disabled, false)))
    .returning({ id: users.id });
}

/**
 * A reset password: only while the password is still the one the link was issued against and
 * the link's token was burnt in this very batch (used_at = now).
 */
export function resetPasswordStatement(
  db: Db,
  opts: { tenantId: string; userId: string; passwordChangedAt: number; jti: string; passwordHash: string; now: number },
) {
  return db
    .update(users)
    .set({ passwordHash: opts.passwordHash, passwordChangedAt: opts.now, updatedAt: opts.now })
    .where(
      and(
        eq(users.tenantId, opts.tenantId),
        eq(users.id, opts.userId),
        eq(users.passwordChangedAt, opts.passwordChangedAt),
        eq(users.disabled, false),
        isNull(users.scrubbedAt),
        sql`EXISTS (SELECT 1 FROM used_tokens WHERE jti = ${opts.jti} AND used_at = ${opts.now})`,
      ),
    )
    .returning({ id: users.id });
}

/** Ends every live session of the user, only while `userChanged` (a condition on the user's row in this batch) holds. */
function revokeSessionsIfStatement(db: Db, tenantId: string, userId: string, now: number, userChanged: SQL) {
  return db
    .update(sessions)
    .set({ revokedAt: now })
    .where(
      and(
        eq(sessions.tenantId, tenantId),
        eq(sessions.userId, userId),
        isNull(sessions.revokedAt),
        sql`EXISTS (SELECT 1 FROM users WHERE tenant_id = ${tenantId} AND id = ${userId} AND ${userChanged})`,
      ),
    );
}

/** Ends every live session of the user, only when the password was changed in this batch (at now). */
export function revokeSessionsAfterPasswordChangeStatement(db: Db, tenantId: string, userId: string, now: number) {
  return revokeSessionsIfStatement(db, tenantId, userId, now, sql`password_changed_at = ${now}`);
}

/** A member's new role, only from the role the caller read and while `keepsAdmin` holds. */
export function setUserRoleStatement(db: Db, opts: { tenantId: string; userId: string; from: Role; to: Role; now: number }, keepsAdmin: SQL) {
  return db
    .update(users)
    .set({ role: opts.to, updatedAt: opts.now })
    .where(and(eq(users.tenantId, opts.tenantId), eq(users.id, opts.userId), eq(users.role, opts.from), keepsAdmin))
    .returning({ id: users.id });
}

/** Disables or enables a (not scrubbed) member, only from the other state and while `keepsAdmin` holds. */
export function setUserDisabledStatement(db: Db, opts: { tenantId: string; userId: string; disabled: boolean; now: number }, keepsAdmin: SQL) {
  return db
    .update(users)
    .set({ disabled: opts.disabled, updatedAt: opts.now })
    .where(and(eq(users.tenantId, opts.tenantId), eq(users.id, opts.userId), eq(users.disabled, !opts.disabled), isNull(users.scrubbedAt), keepsAdmin))
    .returning({ id: users.id });
}

/** Ends every live session of the user, only when the user was disabled in this batch (at now). */
export function revokeSessionsAfterDisableStatement(db: Db, tenantId: string, userId: string, now: number) {
  return revokeSessionsIfStatement(db, tenantId, userId, now, sql`disabled = 1 AND updated_at = ${now}`);
}

/**
 * Erases a disabled member's personal data in their row: a placeholder address, no names, no
 * invite, a password that can no longer match.
 */
export function scrubUserStatement(db: Db, opts: { tenantId: string; userId: string; email: string; displayName: string; now: number }) {
  return db
    .update(users)
    .set({
      email: opts.email,
      displayName: opts.displayName,
      firstName: null,
      lastName: null,
      username: null,
      inviteId: null,
      passwordHash: "!scrubbed",
      scrubbedAt: opts.now,
      updatedAt: opts.now,
    })
    .where(and(eq(users.tenantId, opts.tenantId), eq(users.id, opts.userId), eq(users.disabled, true), isNull(users.scrubbedAt)))
    .returning({ id: users.id });
}

/** Deletes every session of the user when `onlyIf` holds. */
export function deleteUserSessionsStatement(db: Db, tenantId: string, userId: string, onlyIf: SQL) {
  return db.delete(sessions).where(and(eq(sessions.tenantId, tenantId), eq(sessions.userId, userId), onlyIf));
}
