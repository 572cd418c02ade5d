import { data } from "react-router";
import { clientIp } from "~/features/platform/index.server";
import { toCsv, CSV_CONTENT_TYPE } from "~/utils/csv";
import { formatDateTime } from "~/utils/dates";
import { EXPORT_HEADER, exportFileList } from "../listing.server";
import { parseListQuery } from "../list-query.server";
import { requireModule } from "~/features/auth/index.server";
import { viewerOf } from "../module.server";
import type { Route } from "./+types/export";

/** A resource route: POST answers with the file list as CSV. An export is audited, so it is never a GET. */
export function loader() {
  throw data("Not found", { status: 404 });
}

export async function action({ request, context }: Route.ActionArgs) {
  const { env, tenant, user } = await requireModule(request, context, { module: "files" });
  const viewer = viewerOf(user);
  const form = await request.formData();
  const params = new URLSearchParams();
  for (const key of ["filter", "q", "sort", "dir"]) {
    const value = form.get(key);
    if (typeof value === "string") params.set(key, value);
  }
  const result = await exportFileList(env, tenant.id, viewer, parseListQuery(params), { ip: clientIp(request), formatDate: formatDateTime });
  const day = new Date().toISOString().slice(0, 10);
  return new Response(toCsv(EXPORT_HEADER, result.rows), {
    headers: {
      "Content-Type": CSV_CONTENT_TYPE,
      "Content-Disposition": `attachment; filename="Files_${day}.csv"`,
      "Cache-Control": "no-store",
      ...(result.truncated ? { "X-Export-Truncated": "true" } : {}),
    },
  });
}
