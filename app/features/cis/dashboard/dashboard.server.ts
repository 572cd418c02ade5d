import { eq } from "drizzle-orm";
import { dbFor } from "~/db/client.server";
import { preparedStatement, type Placeholders } from "~/db/prepared.server";
import { cisSettings } from "~/db/schema";
import { can, type ScopeHolder } from "~/features/auth";
import { formatLongDate, formatRelative } from "~/utils/dates";
import { activitySentence, activityText, visibleActivityActions, type ActivityAction, type ActivityItem } from "./activity";
import { recentCisActivityQuery, toActivityRows } from "./activity.server";
import {
  currentTaxMonth,
  deadlineIndicator,
  DEFAULT_CIS_SETTINGS,
  nextDeadlines,
  DEADLINE_KINDS,
  type DeadlineKind,
  type DeadlineSeverity,
  type DeadlineState,
} from "../domain";
import { statsQuery, toInvoiceStats } from "../invoices/queries.server";
import { latestReturnStatusQuery, NOT_COMPILED, overdueReturnsQueries, RETURN_STATUS_LABELS, toOverdueReturns } from "../returns/returns.server";
import { overdueReturnView, type OverdueReturnView } from "../returns/view.server";
import { summaryQuery, toSummary } from "../subcontractors/subcontractors.server";

export const DEADLINE_LABELS: Readonly<Record<DeadlineKind, string>> = {
  statements: "Statements deadline",
  filing: "Filing deadline",
  payment: "Payment deadline",
};

export type DashboardAlert = { kind: DeadlineKind; label: string; severity: DeadlineSeverity; taxMonth: string; message: string };
export type DashboardDeadline = { kind: DeadlineKind; label: string; date: string; state: DeadlineState; indicator: string };
/** One Recent Activity sentence, with its relative time and the whole sentence as text. */
export type DashboardActivity = ActivityItem & { when: string; text: string };

export type DashboardStats = {
  activeSubcontractors: number;
  /** Drafts and portal submissions awaiting approval. */
  draftInvoices: number;
  /**
   * Statements the current tax month still needs generated: what the statements screen shows as
   * Pending Generation for the same month (`pendingStatementsMonth`).
   */
  pendingStatements: number;
  /** The tax month the Pending Statements card counts: 'YYYY-MM' and its display label. */
  pendingStatementsMonth: { label: string; displayLabel: string };
  /** Deductions of approved and paid invoices in the current London tax month. */
  currentMonthCisP: number;
};

export type DashboardData = {
  alerts: DashboardAlert[];
  stats: DashboardStats;
  taxMonth: { label: string; displayLabel: string; deadlines: DashboardDeadline[]; returnStatus: string };
  activity: DashboardActivity[];
  /** Returns whose filing deadline has passed unfiled, newest first. */
  overdueReturns: OverdueReturnView[];
};

/** Deadline alerts for the dashboard: deadlines within warningDays London calendar days of now. */
export function dashboardAlerts(now: Date, warningDays: number): DashboardAlert[] {
  return nextDeadlines(now, warningDays).map((a) => ({
    kind: a.kind,
    label: DEADLINE_LABELS[a.kind],
    severity: a.severity,
    taxMonth: a.taxMonth,
    message: a.message,
  }));
}

// The dashboard's reads, built once per database and bound to each view's values (ADR 0077). The
// activity a viewer may see depends on their scopes: one statement per set of visible actions.
type DashboardValues = { tenantId: string; month: string; actions: readonly ActivityAction[] };
const dashboard = {
  settings: preparedStatement((db, p: Placeholders<DashboardValues>) =>
    db.select({ active: cisSettings.active, warningDays: cisSettings.warningDays }).from(cisSettings).where(eq(cisSettings.tenantId, p.tenantId)).limit(1),
  ),
  summary: preparedStatement((db, p: Placeholders<DashboardValues>) => summaryQuery(db, p.tenantId)),
  invoices: preparedStatement((db, p: Placeholders<DashboardValues>) => statsQuery(db, p.tenantId, p.month)),
  activity: preparedStatement(
    (db, p: Placeholders<DashboardValues>, v) => recentCisActivityQuery(db, p.tenantId, v.actions),
    (v) => v.actions.join(","),
  ),
  currentReturn: preparedStatement((db, p: Placeholders<DashboardValues>) => latestReturnStatusQuery(db, p.tenantId, p.month)),
};

/**
 * Everything the dashboard shows, from the tenant's real data, in ONE D1 round trip: whether the
 * settings are active (and their warningDays), the active subcontractors, the invoice figures
 * (the invoice list's own stats query, so Draft Invoices and Current Month CIS are the list's Draft
 * and This Month CIS), the statements the current tax month still needs generated (the statements
 * screen's own definition, so the card agrees with that screen's Pending Generation for the month)
 * and the recent activity from the audit log (only the entries `viewer` may see). Returns
 * { active: false } while the settings are missing or not saved as active. The return status is
 * the current tax month's latest return, or 'Not compiled'.
 */
export async function getDashboardData(
  env: Env,
  tenantId: string,
  opts: { now: Date; viewer: ScopeHolder },
): Promise<({ active: true } & DashboardData) | { active: false }> {
  const { now } = opts;
  const db = dbFor(env, tenantId);
  const tm = currentTaxMonth(now);
  const values = { tenantId, month: tm.label, actions: visibleActivityActions((scope) => can(opts.viewer, scope)) };
  const [[settings], [summary], [invoices], activity, [currentReturn], ...overdueResults] = await db.batch([
    dashboard.settings(db, values),
    dashboard.summary(db, values),
    dashboard.invoices(db, values),
    dashboard.activity(db, values),
    dashboard.currentReturn(db, values),
    ...overdueReturnsQueries(db, tenantId, now),
  ]);
  if (!settings?.active) return { active: false };
  const warningDays = settings.warningDays ?? DEFAULT_CIS_SETTINGS.warningDays;
  const stats = toInvoiceStats(invoices, now);
  return {
    active: true,
    alerts: dashboardAlerts(now, warningDays),
    stats: {
      activeSubcontractors: toSummary(summary).active,
      draftInvoices: stats.draft,
      pendingStatements: stats.pendingStatements,
      pendingStatementsMonth: stats.pendingStatementsMonth,
      currentMonthCisP: stats.thisMonthCisP,
    },
    taxMonth: {
      label: tm.label,
      displayLabel: tm.displayLabel,
      deadlines: DEADLINE_KINDS.map((kind) => {
        const ind = deadlineIndicator(tm.deadlines[kind], now);
        return { kind, label: DEADLINE_LABELS[kind], date: formatLongDate(tm.deadlines[kind]), state: ind.state, indicator: ind.text };
      }),
      returnStatus: currentReturn ? RETURN_STATUS_LABELS[currentReturn.status] : NOT_COMPILED,
    },
    activity: toActivityRows(activity).flatMap((row) => {
      const item = activitySentence(row);
      return item ? [{ ...item, when: formatRelative(item.at, now), text: activityText(item) }] : [];
    }),
    overdueReturns: toOverdueReturns(now, overdueResults).map((d) => overdueReturnView(d, now)),
  };
}

export type QuickAction = { key: string; label: string; to: string };

/**
 * New Invoice and Add Subcontractor need write, Generate Statements the statement scope (generating
 * is a statement action) and the invoice read that opens the statements screen, Compile Return
 * the compile scope, Configure Settings manage.
 */
export function quickActionsFor(user: ScopeHolder): QuickAction[] {
  const all: (QuickAction & { allowed: boolean })[] = [
    { key: "new-invoice", label: "New Invoice", to: "/cis/invoices/new", allowed: can(user, "cis.inv.write") },
    { key: "add-subcontractor", label: "Add Subcontractor", to: "/cis/subcontractors/new", allowed: can(user, "cis.sub.write") },
    {
      key: "generate-statements",
      label: "Generate Statements",
      to: "/cis/statements",
      allowed: can(user, "cis.stmt.issue") && can(user, "cis.inv.read"),
    },
    { key: "compile-return", label: "Compile Return", to: "/cis/returns", allowed: can(user, "cis.ret.compile") },
    { key: "configure-settings", label: "Configure Settings", to: "/cis/settings", allowed: canManageSettings(user) },
  ];
  return all.filter((a) => a.allowed).map(({ allowed: _allowed, ...a }) => a);
}

/** 'Manage' for the dashboard: the same scopes that open the settings screen. */
export function canManageSettings(user: ScopeHolder): boolean {
  return can(user, "cis.manage") || can(user, "cis.settings.write");
}
