import { eq, sql, type SQL } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { tenants } from "~/db/schema";
import { devToolsEnabled } from "~/features/platform/index.server";
import { tenantOrigin } from "~/features/platform";

/** Who acted, as the audit entries record them: a staff member or a platform operator. */

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
