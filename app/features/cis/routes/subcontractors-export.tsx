import { data } from "react-router";
import { clientIp } from "~/features/platform/index.server";
import { redirectWithToast } from "~/features/platform/index.server";
import { CSV_CONTENT_TYPE } from "~/utils/csv";
import { exportSubcontractors } from "../subcontractors/export.server";
import { requireModule } from "~/features/auth/index.server";
import { parseListQuery } from "../subcontractors/subcontractors.server";
import type { Route } from "./+types/subcontractors-export";

/**
 * A resource route (no component): POST answers with the CSV download. The list page's
 * Export button posts here with reloadDocument and the list's q/status/type as hidden fields.
 */

/** An export writes an audit entry, so it is never a GET. */
export function loader() {
  throw data("Not found", { status: 404 });
}

export async function action({ request, context }: Route.ActionArgs) {
  const { env, tenant, actor } = await requireModule(request, context, { module: "cis", scope: "cis.io.export" });
  const form = await request.formData();
  const params = new URLSearchParams();
  for (const key of ["q", "status", "type"] as const) {
    const value = form.get(key);
    if (typeof value === "string") params.set(key, value);
  }
  const query = parseListQuery(params);
  const result = await exportSubcontractors(env, tenant.id, query, actor, { ip: clientIp(request) });
  if (!result) {
    const back = new URLSearchParams();
    if (query.q) back.set("q", query.q);
    if (query.status !== "all") back.set("status", query.status);
    if (query.type !== "all") back.set("type", query.type);
    const qs = back.toString();
    return redirectWithToast(env, `/cis/subcontractors${qs ? `?${qs}` : ""}`, { type: "error", title: "Export Failed", message: "No data to export" });
  }
  return new Response(result.body, {
    headers: {
      "Content-Type": CSV_CONTENT_TYPE,
      "Content-Disposition": `attachment; filename="${result.fileName}"`,
      // Masked, but still personal data: keep it out of shared caches.
      "Cache-Control": "no-store",
    },
  });
}
