import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import { dbFor, fanOut, loadShardRoutes } from "~/db/client.server";
import { cisInvoices, cisReturns, cisSettings, cisStatements, notifications, roleBundles, tenantModules, tenants, users } from "~/db/schema";
import { scopeGrants, type Scope } from "~/features/auth";
import { queueEmail } from "~/features/platform/index.server";
import { devToolsEnabled } from "~/features/platform/index.server";
import { tenantOrigin } from "~/features/platform";
import { formatInTimeZone } from "date-fns-tz";
import { formatLongDate, LONDON } from "~/utils/dates";
import { nextDeadlines, paymentsByMonth, returnNeed, type DeadlineAlert, type DeadlineKind, type ReturnNeed } from "../domain";
import { toNotices } from "../returns/notices.server";
import { overdueReturnsQueries } from "../returns/returns.server";
import { DEADLINE_LABELS } from "./dashboard.server";
import { overdueAlerts } from "./overdue-alerts.server";
import { pendingInvoices } from "../statements/statements.server";

export const DEADLINE_NOTIFICATION_TYPE = "cis.deadline";

/** One notification per tenant, tax month, deadline and user: the same run twice creates nothing new. */
export function deadlineNotificationId(tenantId: string, taxMonth: string, kind: string, userId: string): string {
  return `cis-deadline:${tenantId}:${taxMonth}:${kind}:${userId}`;
}

/** One digest per user and London day: a rerun that day finds the outbox row and sends nothing. */
export function deadlineDigestKey(londonDay: string, userId: string): string {
  return `cis-deadline-digest:${londonDay}:${userId}`;
}

/** Who can do what a deadline asks: file (and pay for) the return, or issue the statements. */
export const DEADLINE_ACTOR_SCOPE: Readonly<Record<DeadlineKind, Scope>> = {
  statements: "cis.stmt.issue",
  filing: "cis.ret.submit",
  payment: "cis.ret.submit",
};

/** The page where the deadline is met. */
export function deadlineLink(alert: Pick<DeadlineAlert, "kind" | "taxMonth">): string {
  return alert.kind === "statements" ? `/cis/statements?month=${alert.taxMonth}` : `/cis/returns?month=${alert.taxMonth}`;
}

export type DeadlineAlertRun = {
  tenants: number;
  alerts: number;
  /** Overdue returns found (each notified once per penalty step). */
  overdue: number;
  /** Deadlines left out because they are already met (return submitted, statements issued, nothing to pay). */
  suppressed: number;
  created: number;
  /** Digests addressed this run, including those a rerun found already queued today (not sent again). */
  digests: number;
  failures: { tenantId: string; error: string }[];
};

/**
 * Tenants whose CIS module is switched on (and allowed) and whose settings are saved as active.
 * A suspended tenant is left out: nobody can act on its alerts, and its people get no mail.
 */
async function activeCisTenants(env: Env) {
  await loadShardRoutes(env);
  // Each shard joins its tenants' settings and module switches with its own copy of their rows.
  const perShard = await fanOut(env, (db) =>
    db
      .select({ id: tenants.id, slug: tenants.slug, name: tenants.name, availableModules: tenants.availableModules, warningDays: cisSettings.warningDays })
      .from(cisSettings)
      .innerJoin(tenants, eq(tenants.id, cisSettings.tenantId))
      .innerJoin(tenantModules, and(eq(tenantModules.tenantId, cisSettings.tenantId), eq(tenantModules.moduleId, "cis"), eq(tenantModules.enabled, true)))
      .where(and(eq(cisSettings.active, true), isNull(tenants.suspendedAt))),
  );
  return perShard.flatMap((s) => s.result).filter((r) => !r.availableModules || r.availableModules.includes("cis"));
}

type TenantUser = { id: string; email: string; displayName: string; scopes: string[] };

/** Enabled users of the tenant with their role bundle's scopes as they stand now. */
async function tenantUsers(env: Env, tenantId: string): Promise<TenantUser[]> {
  const rows = await dbFor(env, tenantId)
    .select({ id: users.id, email: users.email, displayName: users.displayName, scopes: roleBundles.scopes })
    .from(users)
    .innerJoin(roleBundles, and(eq(roleBundles.tenantId, users.tenantId), eq(roleBundles.name, users.role)))
    .where(and(eq(users.tenantId, tenantId), eq(users.disabled, false)));
  return rows.map((r) => ({ ...r, scopes: r.scopes ?? [] }));
}

type MonthState = {
  returnSubmitted: boolean;
  nothingToPay: boolean;
  statementsPending: boolean;
  /** What the month needs by law: a return, a nil return, or nothing (a notice covers it, or nil returns were optional). */
  need: ReturnNeed;
};

/**
 * What each tax month of the alerts still needs, in one D1 batch: its returns (a locked one was
 * accepted by HMRC; an open amendment leaves the original submitted), whether any statement
 * is still to be issued (invoices waiting for one, or statements generated but not issued), and
 * whether a month without payments needs a nil return (notices of no payments).
 */
async function monthStates(env: Env, tenantId: string, taxMonths: string[], at: Date): Promise<Map<string, MonthState>> {
  const db = dbFor(env, tenantId);
  const returnsQuery = db
    .select({
      taxMonth: cisReturns.taxMonth,
      locked: cisReturns.locked,
      status: cisReturns.status,
      cisDeductedP: cisReturns.cisDeductedP,
      lockedAt: cisReturns.lockedAt,
    })
    .from(cisReturns)
    .where(and(eq(cisReturns.tenantId, tenantId), inArray(cisReturns.taxMonth, taxMonths)));
  const pendingQueries = taxMonths.map((month) =>
    db
      .select({ pending: sql<number>`1` })
      .from(cisInvoices)
      .where(pendingInvoices(tenantId, month))
      .union(
        db
          .select({ pending: sql<number>`1` })
          .from(cisStatements)
          .where(and(eq(cisStatements.tenantId, tenantId), eq(cisStatements.taxMonth, month), eq(cisStatements.status, "generated"))),
      )
      .limit(1),
  );
  // The overdue list's reads of paid invoices and notices decide which months need a nil return.
  const [, paidQuery, , noticeRows] = overdueReturnsQueries(db, tenantId, at);
  const [returns, paid, notices, ...pending] = await db.batch([returnsQuery, paidQuery, noticeRows, ...pendingQueries]);
  const payments = paymentsByMonth(paid);
  const states = new Map<string, MonthState>();
  taxMonths.forEach((month, i) => {
    const submitted = returns
      .filter((r) => r.taxMonth === month && (r.locked || r.status === "submitted"))
      .sort((a, b) => (a.lockedAt ?? 0) - (b.lockedAt ?? 0));
    const latest = submitted.at(-1);
    states.set(month, {
      returnSubmitted: submitted.length > 0,
      // What the latest submitted return says was deducted is what HMRC is owed.
      nothingToPay: latest !== undefined && latest.cisDeductedP === 0,
      statementsPending: (pending[i]?.length ?? 0) > 0,
      need: returnNeed(month, payments.get(month) ?? 0, toNotices(notices)),
    });
  });
  return states;
}

/** Whether the deadline still asks something of the contractor. */
export function deadlineStillDue(kind: DeadlineKind, state: MonthState): boolean {
  // No payments and a notice given in time (or a month before nil returns were due): nothing to file or pay.
  if ((kind === "filing" || kind === "payment") && (state.need === "none_notice_given" || state.need === "none_optional")) return false;
  switch (kind) {
    case "filing":
      return !state.returnSubmitted;
    case "statements":
      return state.statementsPending;
    case "payment":
      // Nothing in the product records a payment to HMRC, so the reminder stands unless the
      // return filed for the month deducted nothing.
      return !state.nothingToPay;
  }
}

/** A filing alert for a month without payments: what is due is a nil return. */
export function nilReturnMessage(message: string): string {
  return `${message}. No payments to subcontractors were recorded in it: file a nil return`;
}

function titleOf(alert: DeadlineAlert): string {
  return `CIS ${DEADLINE_LABELS[alert.kind].toLowerCase()}: ${formatLongDate(alert.deadline)}`;
}

const CHUNK = 50;

/** A notification the run writes: an upcoming deadline, or an overdue return at its latest penalty step. */
type AlertItem = { taxMonth: string; kind: string; title: string; message: string; link: string };

function upcomingItem(alert: DeadlineAlert): AlertItem {
  return { taxMonth: alert.taxMonth, kind: alert.kind, title: titleOf(alert), message: alert.message, link: deadlineLink(alert) };
}

/** The tenant's deadlines within warningDays that are still to be met, and how many were left out as met. */
async function upcomingAlerts(env: Env, tenant: { id: string; warningDays: number }, at: Date): Promise<{ alerts: DeadlineAlert[]; suppressed: number }> {
  const warningDays = Math.min(30, Math.max(0, Math.trunc(tenant.warningDays)));
  const candidates = nextDeadlines(at, warningDays);
  if (candidates.length === 0) return { alerts: [], suppressed: 0 };
  const states = await monthStates(env, tenant.id, [...new Set(candidates.map((a) => a.taxMonth))], at);
  const alerts = candidates
    .filter((a) => {
      const state = states.get(a.taxMonth);
      return state === undefined || deadlineStillDue(a.kind, state);
    })
    .map((a) => (a.kind === "filing" && states.get(a.taxMonth)?.need === "nil_return" ? { ...a, message: nilReturnMessage(a.message) } : a));
  return { alerts, suppressed: candidates.length - alerts.length };
}

/**
 * Each item for each reader, INSERT OR IGNORE on its deterministic id, in chunks. Returns the ids
 * this run created (a rerun creates none).
 */
async function insertNotifications(env: Env, tenantId: string, items: AlertItem[], readers: TenantUser[], at: Date): Promise<Set<string>> {
  const db = dbFor(env, tenantId);
  const inserts = items.flatMap((item) =>
    readers.map((user) =>
      db
        .insert(notifications)
        .values({
          id: deadlineNotificationId(tenantId, item.taxMonth, item.kind, user.id),
          tenantId,
          targetUserId: user.id,
          type: DEADLINE_NOTIFICATION_TYPE,
          title: item.title,
          message: item.message,
          link: item.link,
          subjectType: "cis_tax_month",
          subjectId: item.taxMonth,
          createdAt: at.getTime(),
        })
        .onConflictDoNothing()
        .returning({ id: notifications.id }),
    ),
  );
  const created = new Set<string>();
  for (let i = 0; i < inserts.length; i += CHUNK) {
    const chunk = inserts.slice(i, i + CHUNK);
    const res = await db.batch(chunk as [(typeof chunk)[0], ...typeof chunk]);
    for (const rows of res) for (const r of rows) created.add(r.id);
  }
  return created;
}

/**
 * The daily cron job: for every tenant with active CIS settings, the deadlines within its
 * warningDays that are still to be met, and the returns already overdue (nil returns included once
 * due), become in-app notifications for each user who can read CIS, and one digest e-mail per user
 * who can act on at least one of them. Notification ids are deterministic (an overdue month's name
 * its latest penalty step) and inserted with INSERT OR IGNORE, and a digest's outbox key names the
 * user and the London day, so reruns add and send nothing; an overdue month is in a person's digest
 * only on the run that first notified them of its step. A failing tenant does not stop the others;
 * failures are reported at the end.
 */
export async function runCisDeadlineAlerts(env: Env, now: Date | number = Date.now()): Promise<DeadlineAlertRun> {
  const at = now instanceof Date ? now : new Date(now);
  const londonDay = formatInTimeZone(at, LONDON, "yyyy-MM-dd");
  const result: DeadlineAlertRun = { tenants: 0, alerts: 0, overdue: 0, suppressed: 0, created: 0, digests: 0, failures: [] };
  for (const tenant of await activeCisTenants(env)) {
    result.tenants += 1;
    try {
      await alertTenant(env, tenant, at, londonDay, result);
    } catch (err) {
      console.error(`CIS deadline alerts failed for tenant ${tenant.id}`, err);
      result.failures.push({ tenantId: tenant.id, error: err instanceof Error ? err.message : String(err) });
    }
  }
  if (result.failures.length)
    throw new Error(`CIS deadline alerts failed for ${result.failures.length} tenant(s): ${result.failures.map((f) => f.tenantId).join(", ")}`);
  return result;
}

type AlertTenant = { id: string; slug: string; name: string; warningDays: number };

async function alertTenant(env: Env, tenant: AlertTenant, at: Date, londonDay: string, result: DeadlineAlertRun): Promise<void> {
  const { alerts, suppressed } = await upcomingAlerts(env, tenant, at);
  const overdue = await overdueAlerts(env, tenant.id, at);
  result.suppressed += suppressed;
  result.alerts += alerts.length;
  result.overdue += overdue.length;
  if (alerts.length === 0 && overdue.length === 0) return;
  const people = await tenantUsers(env, tenant.id);
  const readers = people.filter((p) => scopeGrants(p.scopes, "cis.read"));
  const created = await insertNotifications(env, tenant.id, [...alerts.map(upcomingItem), ...overdue], readers, at);
  result.created += created.size;
  const digest = (person: TenantUser): AlertItem[] => [
    ...alerts
      .filter((a) => scopeGrants(person.scopes, DEADLINE_ACTOR_SCOPE[a.kind]))
      .map((a) => ({ ...upcomingItem(a), title: `${DEADLINE_LABELS[a.kind]}: ${formatLongDate(a.deadline)}` })),
    // Filing is what ends an overdue month; each step reaches the digest once, with its notification.
    ...(scopeGrants(person.scopes, DEADLINE_ACTOR_SCOPE.filing)
      ? overdue.filter((o) => created.has(deadlineNotificationId(tenant.id, o.taxMonth, o.kind, person.id)))
      : []),
  ];
  result.digests += await sendDigests(env, tenant, digest, people, londonDay);
}

/** One e-mail per person with at least one item to act on, listing just those. */
async function sendDigests(
  env: Env,
  tenant: { id: string; slug: string; name: string },
  itemsFor: (person: TenantUser) => AlertItem[],
  people: TenantUser[],
  londonDay: string,
): Promise<number> {
  const origin = tenantOrigin(tenant.slug, env.APP_DOMAIN, devToolsEnabled(env) ? "http:" : "https:");
  let sent = 0;
  for (const person of people) {
    // The template takes ten at most: the most pressing (overdue, then upcoming) first.
    const theirs = itemsFor(person)
      .sort((a, b) => Number(b.kind.startsWith("overdue-")) - Number(a.kind.startsWith("overdue-")))
      .slice(0, 10);
    if (theirs.length === 0) continue;
    await queueEmail(env, {
      tenantId: tenant.id,
      to: person.email,
      template: "cis.deadline-digest",
      idempotencyKey: deadlineDigestKey(londonDay, person.id),
      data: {
        workspaceName: tenant.name,
        recipientName: person.displayName,
        overdue: theirs.some((i) => i.kind.startsWith("overdue-")),
        deadlines: theirs.map((i) => ({ title: i.title, message: i.message, link: `${origin}${i.link}` })),
      },
    });
    sent += 1;
  }
  return sent;
}
