import { eq, sql, type SQL } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { auditEvents, tenants } from "~/db/schema";
import { insertWhere } from "~/db/insert-where.server";
import type { AuditEntry } from "~/features/platform/index.server";
import { devToolsEnabled } from "~/features/platform/index.server";
import { tenantOrigin } from "~/features/platform";
import { newId } from "~/utils/ids";

/** Who acted, as the audit entries record them: a staff member or a platform operator. */
export type Actor = { id: string; email: string };

/**
 * An audit entry that lands only while `where` holds. Placed in a batch BEFORE the UPDATE that
 * has the same condition, both see the same state (D1 runs a batch as one transaction): the
 * entry records exactly the changes that happened.
 */
export function auditWhere(db: Db, entry: AuditEntry, where: SQL, now = Date.now()) {
  return insertWhere(
    db,
    auditEvents,
    {
      id: newId(),
      tenantId: entry.tenantId,
      action: entry.action,
      actorId: entry.actorId ?? null,
      actorEmail: entry.actorEmail ?? null,
      targetType: entry.targetType ?? null,
      targetId: entry.targetId ?? null,
      payload: JSON.stringify(entry.payload ?? {}),
      ip: entry.ip ?? null,
      createdAt: now,
    },
    where,
  );
}

/** The tenant's own origin for links in e-mails (plain http only where developer tools run). */
export function linkOrigin(env: Env, slug: string): string {
  return tenantOrigin(slug, env.APP_DOMAIN, devToolsEnabled(env) ? "http:" : "https:");
}

/** Tokens of this feature are bound to one tenant, whatever host or scheme presents them. */
export function tokenAudience(tenantId: string): string {
  return `tenant:${tenantId}`;
}

export function tenantStatement(db: Db, tenantId: string) {
  return db.select({ slug: tenants.slug, name: tenants.name }).from(tenants).where(eq(tenants.id, tenantId)).limit(1);
}

/** SQL: true when this tenant keeps at least one active admin other than `exceptUserId`. */
export function anotherActiveAdmin(tenantId: string, exceptUserId: string): SQL {
  return sql`EXISTS (SELECT 1 FROM users WHERE tenant_id = ${tenantId} AND role = 'admin' AND disabled = 0 AND invite_id IS NULL AND id != ${exceptUserId})`;
}
