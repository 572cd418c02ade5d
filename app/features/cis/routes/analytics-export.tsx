import { data } from "react-router";
import { requireScope } from "~/features/auth/index.server";
import { clientIp } from "~/features/platform/index.server";
import { redirectWithToast } from "~/features/platform/index.server";
import { CSV_CONTENT_TYPE } from "~/utils/csv";
import { exportSubcontractorAnalytics } from "../analytics/analytics.server";
import { requireModule } from "~/features/auth/index.server";
import type { Route } from "./+types/analytics-export";

/** A resource route (no component): POST answers with the by-subcontractor figures as CSV. An export is audited, so it is never a GET. */
export function loader() {
  throw data("Not found", { status: 404 });
}

export async function action({ request, context }: Route.ActionArgs) {
  const { env, tenant, user, actor } = await requireModule(request, context, { module: "cis", scope: "cis.io.export" });
  // The figures are read off the invoices: exporting them needs both scopes, each checked on its own.
  await requireScope(request, context, user, "cis.inv.read");
  const result = await exportSubcontractorAnalytics(env, tenant.id, actor, { ip: clientIp(request) });
  if (!result.ok) return redirectWithToast(env, "/cis/analytics", { type: "error", title: "Export Failed", message: "No data to export" });
  return new Response(result.body, {
    headers: {
      "Content-Type": CSV_CONTENT_TYPE,
      "Content-Disposition": `attachment; filename="${result.fileName}"`,
      "Cache-Control": "no-store",
    },
  });
}
