import { data } from "react-router";
import { requireScope } from "~/features/auth/index.server";
import { clientIp } from "~/features/platform/index.server";
import { redirectWithToast } from "~/features/platform/index.server";
import { CSV_CONTENT_TYPE } from "~/utils/csv";
import { requireModule } from "~/features/auth/index.server";
import { exportInvoices } from "../export.server";
import { invoiceListSearch } from "../list-query";
import { parseInvoiceListQuery } from "../queries.server";
import type { Route } from "./+types/export";

/**
 * A resource route (no component): POST answers with the CSV download. The list's Export
 * button posts here with reloadDocument and the list's q/status/period as hidden fields.
 */

/** An export writes an audit entry, so it is never a GET. */
export function loader() {
  throw data("Not found", { status: 404 });
}

export async function action({ request, context }: Route.ActionArgs) {
  const { env, tenant, user, actor } = await requireModule(request, context, { module: "cis", scope: "cis.io.export" });
  // Exporting invoices is reading them: both scopes, each checked on its own.
  await requireScope(request, context, user, "cis.inv.read");
  const form = await request.formData();
  const params = new URLSearchParams();
  for (const key of ["q", "status", "period"] as const) {
    const value = form.get(key);
    if (typeof value === "string") params.set(key, value);
  }
  const query = parseInvoiceListQuery(params);
  const result = await exportInvoices(env, tenant.id, query, actor, { ip: clientIp(request) });
  if (!result.ok) {
    const message =
      result.code === "empty"
        ? "No data to export"
        : `${result.total.toLocaleString("en-GB")} invoices match these filters; an export holds at most ${result.max.toLocaleString("en-GB")}. Narrow the filters and try again.`;
    return redirectWithToast(env, `/cis/invoices${invoiceListSearch(query)}`, { type: "error", title: "Export Failed", message });
  }
  return new Response(result.body, {
    headers: {
      "Content-Type": CSV_CONTENT_TYPE,
      "Content-Disposition": `attachment; filename="${result.fileName}"`,
      "Cache-Control": "no-store",
    },
  });
}
