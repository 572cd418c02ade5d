import type { ReactNode } from "react";
import { Link } from "react-router";
import { buttonClass } from "~/components/ui/button";

const panelClass = "rounded-brand border border-line bg-elevated p-5";

type AlertView = { kind: string; label: string; severity: "high" | "critical"; taxMonth: string; message: string };

/** Deadlines within the tenant's warningDays (statements high, filing and payment critical). */
export function DeadlineAlerts({ alerts }: { alerts: AlertView[] }) {
  if (alerts.length === 0) return null;
  return (
    <section aria-labelledby="cis-alerts-heading" className="space-y-2" data-testid="deadline-alerts">
      <h3 id="cis-alerts-heading" className="sr-only">
        Deadline alerts
      </h3>
      {alerts.map((a) => (
        <div
          key={`${a.taxMonth}-${a.kind}`}
          data-severity={a.severity}
          className={`rounded-brand border-l-4 p-4 ${a.severity === "critical" ? "border-danger bg-danger/10" : "border-amber-500 bg-amber-500/10"}`}
        >
          <p className="font-semibold">
            {a.label} <span className="ml-2 rounded-full border border-current px-2 text-xs uppercase">{a.severity}</span>
          </p>
          <p className="text-sm">{a.message}</p>
        </div>
      ))}
    </section>
  );
}

/** Shown while the module's settings are not saved as active. */
export function SetupRequired({ canManage }: { canManage: boolean }) {
  return (
    <section aria-labelledby="cis-setup-heading" className={`${panelClass} text-center`} data-testid="setup-required">
      <h3 id="cis-setup-heading" className="text-xl font-semibold">
        Setup Required
      </h3>
      <p className="mt-2 opacity-80">The Construction Industry Scheme module is not active yet. Its settings need to be completed and saved as active.</p>
      {canManage ? (
        <Link to="/cis/settings" className={buttonClass("primary", "mt-4")}>
          Configure Settings
        </Link>
      ) : (
        <p className="mt-4 text-sm opacity-70">Ask a CIS administrator to configure the settings.</p>
      )}
    </section>
  );
}

type StatsView = {
  activeSubcontractors: number;
  draftInvoices: number;
  pendingStatements: number;
  pendingStatementsMonth: { label: string; displayLabel: string };
  currentMonthCis: string;
};

function StatCard({ label, value, testId, note }: { label: string; value: string | number; testId: string; note?: ReactNode }) {
  return (
    <div className={panelClass} data-testid={testId}>
      <dt className="text-sm opacity-70">{label}</dt>
      <dd className="mt-1 text-2xl font-bold">{value}</dd>
      {note ? <dd className="mt-1 text-xs opacity-70">{note}</dd> : null}
    </div>
  );
}

export function StatCards({ stats }: { stats: StatsView }) {
  return (
    <dl className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4" aria-label="CIS figures">
      <StatCard label="Active Subcontractors" value={stats.activeSubcontractors} testId="stat-active-subcontractors" />
      <StatCard label="Draft Invoices" value={stats.draftInvoices} testId="stat-draft-invoices" />
      <StatCard
        label="Pending Statements"
        value={stats.pendingStatements}
        testId="stat-pending-statements"
        note={
          <Link to={`/cis/statements?month=${stats.pendingStatementsMonth.label}`} data-month={stats.pendingStatementsMonth.label}>
            Tax month {stats.pendingStatementsMonth.displayLabel}
          </Link>
        }
      />
      <StatCard label="Current Month CIS" value={stats.currentMonthCis} testId="stat-current-month-cis" />
    </dl>
  );
}

type QuickActionView = { key: string; label: string; to: string };

/** Only the actions the user's scopes allow, each a link to its page. */
export function QuickActions({ actions }: { actions: QuickActionView[] }) {
  return (
    <section aria-labelledby="cis-quick-heading" className={panelClass} data-testid="quick-actions">
      <h3 id="cis-quick-heading" className="font-semibold">
        Quick Actions
      </h3>
      {actions.length === 0 ? (
        <p className="mt-2 text-sm opacity-70">No quick actions are available for your role.</p>
      ) : (
        <ul className="mt-3 grid gap-2">
          {actions.map((a) => (
            <li key={a.key} data-action={a.key}>
              <Link to={a.to} className={buttonClass("secondary", "w-full justify-start")}>
                {a.label}
              </Link>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

type TaxMonthView = {
  label: string;
  displayLabel: string;
  deadlines: { kind: string; label: string; date: string; state: "overdue" | "urgent" | "pending"; indicator: string }[];
  returnStatus: string;
};

const STATE_CLASS = { overdue: "text-danger", urgent: "text-amber-800 dark:text-amber-400", pending: "opacity-70" } as const;

export function TaxMonthOverview({ taxMonth }: { taxMonth: TaxMonthView }) {
  return (
    <section aria-labelledby="cis-taxmonth-heading" className={panelClass} data-testid="tax-month-overview">
      <h3 id="cis-taxmonth-heading" className="font-semibold">
        Tax Month Overview
      </h3>
      <p className="mt-1 text-lg">{taxMonth.displayLabel}</p>
      <dl className="mt-3 space-y-2 text-sm">
        {taxMonth.deadlines.map((d) => (
          <div key={d.kind} data-deadline={d.kind}>
            <dt className="opacity-70">{d.label}</dt>
            <dd className="font-medium">
              {d.date} <span className={STATE_CLASS[d.state]}>({d.indicator})</span>
            </dd>
          </div>
        ))}
        <div className="flex justify-between gap-2 border-t border-line pt-2">
          <dt>Return status</dt>
          <dd data-testid="return-status">{taxMonth.returnStatus}</dd>
        </div>
      </dl>
    </section>
  );
}

type ActivityView = {
  id: string;
  actor: string;
  verb: string;
  object: { label: string; href: string | null } | null;
  rest: string;
  when: string;
};

export function RecentActivity({ activity }: { activity: ActivityView[] }) {
  return (
    <section aria-labelledby="cis-activity-heading" className={panelClass} data-testid="recent-activity">
      <h3 id="cis-activity-heading" className="font-semibold">
        Recent Activity
      </h3>
      {activity.length === 0 ? (
        <p className="mt-2 text-sm opacity-70">No recent activity</p>
      ) : (
        <ul className="mt-3 divide-y divide-line text-sm">
          {activity.map((a) => (
            <li key={a.id} className="flex flex-wrap justify-between gap-2 py-2" data-activity>
              <span>
                <span className="font-medium">{a.actor}</span> {a.verb}
                {a.object ? (
                  <>
                    {" "}
                    {a.object.href ? (
                      <Link to={a.object.href} className="text-accent-ink underline underline-offset-2">
                        {a.object.label}
                      </Link>
                    ) : (
                      a.object.label
                    )}
                  </>
                ) : null}
                {a.rest}
              </span>
              <span className="opacity-60">{a.when}</span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
