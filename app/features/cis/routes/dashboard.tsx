import { Link } from "react-router";
import { buttonClass } from "~/components/ui/button";
import { DeadlineAlerts, QuickActions, RecentActivity, SetupRequired, StatCards, TaxMonthOverview } from "../dashboard/components/dashboard-panels";
import { canManageSettings, getDashboardData, quickActionsFor } from "../dashboard/dashboard.server";
import { formatPence } from "../domain/money";
import { requireModule } from "~/features/auth/index.server";
import { OverdueReturns } from "../returns/components/overdue-returns";
import type { Route } from "./+types/dashboard";

export async function loader({ request, context }: Route.LoaderArgs) {
  const { env, tenant, user } = await requireModule(request, context, { module: "cis", scope: "cis.read" });
  const dash = await getDashboardData(env, tenant.id, { now: new Date(), viewer: user });
  if (!dash.active) return { active: false as const, canManage: canManageSettings(user) };
  return {
    active: true as const,
    alerts: dash.alerts,
    stats: { ...dash.stats, currentMonthCis: formatPence(dash.stats.currentMonthCisP) },
    taxMonth: dash.taxMonth,
    activity: dash.activity,
    overdueReturns: dash.overdueReturns,
    actions: quickActionsFor(user),
  };
}

export default function CisDashboard({ loaderData }: Route.ComponentProps) {
  if (!loaderData.active) return <SetupRequired canManage={loaderData.canManage} />;
  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-center justify-between gap-4">
        <h2 className="text-2xl font-bold">CIS Dashboard</h2>
        <Link to="/cis/analytics" className={buttonClass("secondary")}>
          Analytics
        </Link>
      </div>
      <OverdueReturns items={loaderData.overdueReturns} />
      <DeadlineAlerts alerts={loaderData.alerts} />
      <StatCards stats={loaderData.stats} />
      <div className="grid gap-6 lg:grid-cols-3">
        <QuickActions actions={loaderData.actions} />
        <TaxMonthOverview taxMonth={loaderData.taxMonth} />
        <RecentActivity activity={loaderData.activity} />
      </div>
    </div>
  );
}

export function meta() {
  return [{ title: "CIS Dashboard" }];
}
