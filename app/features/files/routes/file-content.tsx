import { data } from "react-router";
import { auditDownload, fileForDownload } from "../downloads.server";
import { downloadSignalHeader } from "../download-signal";
import { requireModule } from "~/features/auth/index.server";
import { viewerOf } from "../module.server";
import { fileResponseHeaders } from "../serve.server";
import { fileParamsSchema, fileVersionQuerySchema } from "../schemas";
import type { Route } from "./+types/file-content";

/**
 * GET /files/file/:id/download (attachment, audited) and /files/file/:id/content (inline for the
 * preview when the type is safe to show). Visibility is checked here as in the list; a file the
 * person cannot see, or another tenant's, is 404.
 */
export async function loader({ request, context, params: raw }: Route.LoaderArgs) {
  const { env, tenant, user } = await requireModule(request, context, { module: "files" });
  const viewer = viewerOf(user);
  const { id } = fileParamsSchema.parse(raw);
  const url = new URL(request.url);
  const { v } = fileVersionQuerySchema.catch({}).parse(Object.fromEntries(url.searchParams));
  const found = await fileForDownload(env, tenant.id, viewer, id, v);
  if (!found.ok) throw data("File not found", { status: 404 });
  const { file } = found;
  const object = await env.FILES.get(file.storageKey);
  if (!object) throw data("Unable to load file", { status: 404 });
  const download = url.pathname.endsWith("/download");
  if (download) await auditDownload(env, tenant.id, viewer, file.id, file.name);
  const headers = fileResponseHeaders({ ...file, size: object.size }, download ? "attachment" : "inline");
  // With JavaScript the page asked to be told when the download begins (see download-signal.ts).
  const signal = download ? downloadSignalHeader(url) : null;
  if (signal) headers.append("Set-Cookie", signal);
  return new Response(object.body, { headers });
}
