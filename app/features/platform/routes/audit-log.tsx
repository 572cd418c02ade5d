import { requireTenant, requireUserWithScope } from "~/features/auth/middleware.server";
import { cloudflareContext } from "~/context";
import { formatDateTime } from "~/utils/dates";
import { AppShell } from "../components/app-shell";
import { listAudit } from "../audit.server";
import type { Route } from "./+types/audit-log";

/** The tenant's audit trail, newest first: who did what, when, from where. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { env } = context.get(cloudflareContext);
  const tenant = requireTenant(context);
  await requireUserWithScope(request, context, "tenant.view_settings");
  const rows = await listAudit(env, tenant.id, 100);
  return { rows: rows.map((r) => ({ id: r.id, action: r.action, actor: r.actorEmail ?? r.actorId ?? "system", target: r.targetType ? `${r.targetType}${r.targetId ? ` ${r.targetId}` : ""}` : "", ip: r.ip, at: r.createdAt })) };
}

export default function AuditLog({ loaderData }: Route.ComponentProps) {
  return (
    <AppShell>
      <main className="mx-auto max-w-6xl px-6 py-10">
        <h1 className="text-2xl font-bold">Audit log</h1>
        <p className="text-sm opacity-70">The latest 100 events in this workspace. Times are London time.</p>
        {loaderData.rows.length === 0 ? (
          <p className="mt-8 opacity-70">No events yet.</p>
        ) : (
          <div className="mt-6 overflow-x-auto">
            <table className="w-full text-left text-sm">
              <thead>
                <tr className="border-b border-line">
                  <th scope="col" className="py-2 pr-4">When</th>
                  <th scope="col" className="py-2 pr-4">Action</th>
                  <th scope="col" className="py-2 pr-4">Who</th>
                  <th scope="col" className="py-2 pr-4">Target</th>
                  <th scope="col" className="py-2">IP</th>
                </tr>
              </thead>
              <tbody>
                {loaderData.rows.map((r) => (
                  <tr key={r.id} className="border-b border-line">
                    <td className="py-2 pr-4 whitespace-nowrap">{formatDateTime(r.at)}</td>
                    <td className="py-2 pr-4 font-mono text-xs">{r.action}</td>
                    <td className="py-2 pr-4">{r.actor}</td>
                    <td className="py-2 pr-4 text-xs">{r.target}</td>
                    <td className="py-2 text-xs">{r.ip ?? "N/A"}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </main>
    </AppShell>
  );
}

export function meta() {
  return [{ title: "Audit log" }];
}
