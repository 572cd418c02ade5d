import { data } from "react-router";
import { requireScope } from "~/features/auth/index.server";
import { clientIp } from "~/features/platform/index.server";
import { redirectWithToast } from "~/features/platform/index.server";
import { CSV_CONTENT_TYPE } from "~/utils/csv";
import { requireModule } from "~/features/auth/index.server";
import { exportReturnCsv, RETURN_ERROR_MESSAGES, RETURNS_READ_SCOPES } from "../returns.server";
import { returnExportSchema } from "../schemas";
import type { Route } from "./+types/export";

/** A resource route (no component): POST answers with CIS_Return_{id}.csv. An export is audited, so it is never a GET. */
export function loader() {
  throw data("Not found", { status: 404 });
}

export async function action({ request, context }: Route.ActionArgs) {
  const { env, tenant, user, actor } = await requireModule(request, context, { module: "cis", scope: "cis.io.export" });
  // Exporting a return is reading it: both, each checked on its own.
  await requireScope(request, context, user, RETURNS_READ_SCOPES);
  const form = await request.formData();
  const parsed = returnExportSchema.safeParse({ id: form.get("id") });
  if (!parsed.success) throw data("Not found", { status: 404 });
  const result = await exportReturnCsv(env, tenant.id, parsed.data.id, actor, { ip: clientIp(request) });
  if (!result.ok) {
    if (result.code === "not_found") throw data("Not found", { status: 404 });
    const month = parsed.data.id.slice(0, 7);
    const { title, message } = RETURN_ERROR_MESSAGES.empty;
    return redirectWithToast(env, `/cis/returns?month=${encodeURIComponent(month)}`, { type: "error", title, message });
  }
  return new Response(result.body, {
    headers: {
      "Content-Type": CSV_CONTENT_TYPE,
      "Content-Disposition": `attachment; filename="${result.fileName}"`,
      "Cache-Control": "no-store",
    },
  });
}
