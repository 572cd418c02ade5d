import { and, eq } from "drizzle-orm";
import type { Actor } from "./actor";
import { dbFor } from "~/db/client.server";
import { users, type ThemePreference } from "~/db/schema";
import { forTenant } from "~/db/tenancy";
import { auditInsert } from "~/features/platform/index.server";
import { hashPassword } from "./password.server";
import { revokeUserSessionsStatement } from "./session.server";

/** displayName defaults to the names given, else the e-mail, else 'Anonymous'. */
export function defaultDisplayName(u: { displayName?: string | null; firstName?: string | null; lastName?: string | null; email?: string | null }): string {
  const explicit = u.displayName?.trim();
  if (explicit) return explicit;
  const names = [u.firstName?.trim(), u.lastName?.trim()].filter(Boolean).join(" ");
  if (names) return names;
  return u.email?.trim() || "Anonymous";
}

/** Disabling a user ends their sessions in the same batch, with the audit entry. */
export async function setUserDisabled(env: Env, tenantId: string, userId: string, disabled: boolean, actor: Actor): Promise<boolean> {
  const db = dbFor(env, tenantId);
  const now = Date.now();
  const update = db
    .update(users)
    .set({ disabled, updatedAt: now })
    .where(and(eq(users.tenantId, tenantId), eq(users.id, userId)))
    .returning({ id: users.id });
  const audit = auditInsert(db, {
    tenantId,
    action: disabled ? "user.disabled" : "user.enabled",
    actorId: actor.id,
    actorEmail: actor.email,
    targetType: "user",
    targetId: userId,
  });
  const [updated] = disabled ? await db.batch([update, revokeUserSessionsStatement(env, tenantId, userId), audit]) : await db.batch([update, audit]);
  return updated.length === 1;
}

/** A new password ends every existing session of that user at once. */
export async function changePassword(env: Env, tenantId: string, userId: string, newPassword: string, actor: Actor): Promise<boolean> {
  const db = dbFor(env, tenantId);
  const now = Date.now();
  const [updated] = await db.batch([
    db
      .update(users)
      .set({ passwordHash: await hashPassword(env, newPassword), passwordChangedAt: now, updatedAt: now })
      .where(and(eq(users.tenantId, tenantId), eq(users.id, userId)))
      .returning({ id: users.id }),
    revokeUserSessionsStatement(env, tenantId, userId),
    auditInsert(db, { tenantId, action: "user.password_changed", actorId: actor.id, actorEmail: actor.email, targetType: "user", targetId: userId }),
  ]);
  return updated.length === 1;
}

/** Remembers a staff member's theme on their account, so it follows them to other devices. */
export async function saveUserTheme(env: Env, tenantId: string, userId: string, theme: ThemePreference): Promise<void> {
  await dbFor(env, tenantId)
    .update(users)
    .set({ themePreference: theme, updatedAt: Date.now() })
    .where(and(forTenant(users, tenantId), eq(users.id, userId)));
}
