import { and, eq } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { cisSettings, notifications, roleBundles, tenantModules, tenants, users } from "~/db/schema";
import { scopeGrants } from "~/features/auth/scopes";
import { formatLongDate } from "~/utils/dates";
import { nextDeadlines, type DeadlineAlert } from "./domain";
import { DEADLINE_LABELS } from "./dashboard.server";

export const DEADLINE_NOTIFICATION_TYPE = "cis.deadline";

/** One notification per tenant, tax month, deadline and user: the same run twice creates nothing new. */
export function deadlineNotificationId(tenantId: string, taxMonth: string, kind: string, userId: string): string {
  return `cis-deadline:${tenantId}:${taxMonth}:${kind}:${userId}`;
}

export type DeadlineAlertRun = { tenants: number; alerts: number; created: number; failures: { tenantId: string; error: string }[] };

/** Tenants whose CIS module is switched on (and allowed) and whose settings are saved as active. */
async function activeCisTenants(env: Env) {
  const rows = await getDb(env)
    .select({ id: tenants.id, availableModules: tenants.availableModules, warningDays: cisSettings.warningDays })
    .from(cisSettings)
    .innerJoin(tenants, eq(tenants.id, cisSettings.tenantId))
    .innerJoin(tenantModules, and(eq(tenantModules.tenantId, cisSettings.tenantId), eq(tenantModules.moduleId, "cis"), eq(tenantModules.enabled, true)))
    .where(eq(cisSettings.active, true));
  return rows.filter((r) => !r.availableModules || r.availableModules.includes("cis"));
}

/** Enabled users of the tenant whose role bundle, as it stands now, grants cis.read. */
async function cisReaders(env: Env, tenantId: string): Promise<string[]> {
  const rows = await getDb(env)
    .select({ id: users.id, scopes: roleBundles.scopes })
    .from(users)
    .innerJoin(roleBundles, and(eq(roleBundles.tenantId, users.tenantId), eq(roleBundles.name, users.role)))
    .where(and(eq(users.tenantId, tenantId), eq(users.disabled, false)));
  return rows.filter((r) => scopeGrants(r.scopes ?? [], "cis.read")).map((r) => r.id);
}

function titleOf(alert: DeadlineAlert): string {
  return `CIS ${DEADLINE_LABELS[alert.kind].toLowerCase()}: ${formatLongDate(alert.deadline)}`;
}

const CHUNK = 50;

/**
 * The daily cron job: for every tenant with active CIS settings, the deadlines within its
 * warningDays become in-app notifications for each user who can read CIS. Notification ids are
 * deterministic and inserted with INSERT OR IGNORE, so reruns (or two runs a day) add nothing.
 * A failing tenant does not stop the others; failures are reported at the end.
 */
export async function runCisDeadlineAlerts(env: Env, now: Date | number = Date.now()): Promise<DeadlineAlertRun> {
  const at = now instanceof Date ? now : new Date(now);
  const db = getDb(env);
  const result: DeadlineAlertRun = { tenants: 0, alerts: 0, created: 0, failures: [] };
  for (const tenant of await activeCisTenants(env)) {
    result.tenants += 1;
    try {
      const warningDays = Math.min(30, Math.max(0, Math.trunc(tenant.warningDays)));
      const alerts = nextDeadlines(at, warningDays);
      if (alerts.length === 0) continue;
      result.alerts += alerts.length;
      const readers = await cisReaders(env, tenant.id);
      const inserts = alerts.flatMap((alert) =>
        readers.map((userId) =>
          db
            .insert(notifications)
            .values({
              id: deadlineNotificationId(tenant.id, alert.taxMonth, alert.kind, userId),
              tenantId: tenant.id,
              targetUserId: userId,
              type: DEADLINE_NOTIFICATION_TYPE,
              title: titleOf(alert),
              message: alert.message,
              link: "/cis",
              subjectType: "cis_tax_month",
              subjectId: alert.taxMonth,
              createdAt: at.getTime(),
            })
            .onConflictDoNothing(),
        ),
      );
      for (let i = 0; i < inserts.length; i += CHUNK) {
        const chunk = inserts.slice(i, i + CHUNK);
        const res = await db.batch(chunk as [(typeof chunk)[0], ...typeof chunk]);
        for (const r of res as unknown as { meta?: { changes?: number } }[]) result.created += r?.meta?.changes ?? 0;
      }
    } catch (err) {
      console.error(`CIS deadline alerts failed for tenant ${tenant.id}`, err);
      result.failures.push({ tenantId: tenant.id, error: err instanceof Error ? err.message : String(err) });
    }
  }
  if (result.failures.length)
    throw new Error(`CIS deadline alerts failed for ${result.failures.length} tenant(s): ${result.failures.map((f) => f.tenantId).join(", ")}`);
  return result;
}
