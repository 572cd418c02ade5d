import { env } from "cloudflare:workers";
import { and, eq } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { auditEvents } from "~/db/schema";

/** A tenant's audit entries with `action` (about `targetId`, when given), as stored. */
export async function audits(tenantId: string, action: string, targetId?: string) {
  return getDb(env)
    .select()
    .from(auditEvents)
    .where(and(eq(auditEvents.tenantId, tenantId), eq(auditEvents.action, action), targetId === undefined ? undefined : eq(auditEvents.targetId, targetId)));
}
