import { requireTenant, requireUserWithScope } from "~/features/auth/index.server";
import { EmptyRow, TBody, TD, TH, THead, TR, Table } from "~/components/ui/table";
import { cloudflareContext } from "~/context";
import { formatDateTime } from "~/utils/dates";
import { AppShell } from "~/features/platform";
import { auditSentence, listAudit } from "~/features/platform/index.server";
import type { Route } from "./+types/audit-log";

/**
 * The tenant's audit trail, newest first: what happened as a sentence with names ("Alice Admin
 * approved invoice HAR-202611-045"), the stored action in small print, when and from where.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { env } = context.get(cloudflareContext);
  const tenant = requireTenant(context);
  await requireUserWithScope(request, context, "tenant.view_settings");
  const rows = await listAudit(env, tenant.id, 100);
  return {
    rows: rows.map((r) => ({
      id: r.id,
      action: r.action,
      sentence: auditSentence(r.action, {
        actor: r.actorErased ? "Former user" : (r.actorName ?? r.actorEmail),
        target: r.targetName,
        payload: r.payload,
      }),
      ip: r.ip,
      at: r.createdAt,
    })),
  };
}

export default function AuditLog({ loaderData }: Route.ComponentProps) {
  return (
    <AppShell>
      <div className="mx-auto max-w-6xl px-6 py-10">
        <h1 className="text-2xl font-bold">Audit log</h1>
        <p className="text-sm opacity-70">The latest 100 events in this workspace. Times are London time.</p>
        <Table caption="Audit events, newest first" scrollClassName="mt-6 overflow-x-auto">
          <THead>
            <TH>When</TH>
            <TH>What happened</TH>
            <TH>IP</TH>
          </THead>
          <TBody>
            {loaderData.rows.length === 0 ? (
              <EmptyRow colSpan={3}>No events yet.</EmptyRow>
            ) : (
              loaderData.rows.map((r) => (
                <TR key={r.id}>
                  <TD className="whitespace-nowrap">{formatDateTime(r.at)}</TD>
                  <TD>
                    <span className="block" data-audit-sentence>
                      {r.sentence}
                    </span>
                    <span className="block font-mono text-xs opacity-70">{r.action}</span>
                  </TD>
                  <TD className="text-xs">{r.ip ?? "N/A"}</TD>
                </TR>
              ))
            )}
          </TBody>
        </Table>
      </div>
    </AppShell>
  );
}

export function meta() {
  return [{ title: "Audit log" }];
}
