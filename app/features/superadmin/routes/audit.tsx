import { Form, Link } from "react-router";
import { buttonClass } from "~/components/ui/button";
import { inputClass } from "~/components/ui/field";
import { Pager } from "~/components/ui/pager";
import { EmptyRow, TBody, TD, TH, THead, TR, Table } from "~/components/ui/table";
import { requireConsole } from "~/features/auth/index.server";
import { AppShell } from "~/features/platform";
import { formatDateTime } from "~/utils/dates";
import { platformAuditPage } from "../console.server";
import { AUDIT_PAGE_SIZE, auditFilterSchema } from "../schemas";
import type { Route } from "./+types/audit";

export async function loader({ request, context }: Route.LoaderArgs) {
  const { env } = await requireConsole(request, context);
  const url = new URL(request.url);
  const filter = auditFilterSchema.parse({
    tenant: url.searchParams.get("tenant") || undefined,
    action: url.searchParams.get("action") || undefined,
    page: url.searchParams.get("page") ?? undefined,
  });
  const page = await platformAuditPage(env, filter);
  return { ...page, filter, pageCount: Math.max(1, Math.ceil(page.total / AUDIT_PAGE_SIZE)) };
}

// eslint-disable-next-line max-lines-per-function -- one page read top to bottom, a little over the limit; a split would only pass the loader data through props
export default function PlatformAudit({ loaderData }: Route.ComponentProps) {
  const { rows, total, tenants, filter, pageCount } = loaderData;
  const href = (page: number) => {
    const params = new URLSearchParams();
    if (filter.tenant) params.set("tenant", filter.tenant);
    if (filter.action) params.set("action", filter.action);
    params.set("page", String(page));
    return `/superadmin/audit?${params}`;
  };
  return (
    <AppShell>
      <div className="mx-auto max-w-7xl px-6 py-10">
        <div className="flex flex-wrap items-baseline justify-between gap-4">
          <h1 className="text-2xl font-bold">Platform audit log</h1>
          <Link to="/superadmin" className={buttonClass("secondary")}>
            Back to tenants
          </Link>
        </div>
        <Form method="get" className="mt-6 flex flex-wrap items-end gap-4" aria-label="Filter the audit log">
          <div className="space-y-1">
            <label htmlFor="audit-tenant" className="block text-sm font-medium">
              Tenant
            </label>
            <select id="audit-tenant" name="tenant" defaultValue={filter.tenant ?? ""} className={inputClass}>
              <option value="">All tenants and the platform</option>
              <option value="platform">Platform only</option>
              {tenants.map((t) => (
                <option key={t.id} value={t.id}>
                  {t.name} ({t.slug})
                </option>
              ))}
            </select>
          </div>
          <div className="space-y-1">
            <label htmlFor="audit-action" className="block text-sm font-medium">
              Action
            </label>
            <input
              id="audit-action"
              name="action"
              type="text"
              defaultValue={filter.action ?? ""}
              className={inputClass}
              placeholder="e.g. superadmin.tenant.created"
            />
          </div>
          <button type="submit" className={buttonClass("primary")}>
            Filter
          </button>
          <Link to="/superadmin/audit" className={buttonClass("ghost")}>
            Clear
          </Link>
        </Form>
        <p className="mt-4 text-sm opacity-70">{total === 1 ? "1 event" : `${total.toLocaleString("en-GB")} events`}</p>
        <Table caption="Audit events, newest first" scrollClassName="mt-2 overflow-x-auto">
          <THead>
            <TH>When</TH>
            <TH>Tenant</TH>
            <TH>Action</TH>
            <TH>Who</TH>
            <TH>Target</TH>
            <TH>Details</TH>
          </THead>
          <TBody>
            {rows.length === 0 ? <EmptyRow colSpan={6}>No audit events match.</EmptyRow> : null}
            {rows.map((r) => (
              <TR key={r.id} data-action={r.action}>
                <TD>{formatDateTime(r.createdAt)}</TD>
                <TD>{r.tenantSlug ?? (r.tenantId ? r.tenantId : "Platform")}</TD>
                <TD className="font-mono text-xs">{r.action}</TD>
                <TD>{r.actorEmail ?? "N/A"}</TD>
                <TD className="text-xs">{r.targetType ? `${r.targetType}: ${r.targetId ?? "N/A"}` : "N/A"}</TD>
                <TD className="max-w-md break-words font-mono text-xs">{JSON.stringify(r.payload)}</TD>
              </TR>
            ))}
          </TBody>
        </Table>
        <div className="mt-4">
          <Pager page={filter.page} pageCount={pageCount} href={href} />
        </div>
      </div>
    </AppShell>
  );
}

export function meta() {
  return [{ title: "Platform audit log" }];
}
