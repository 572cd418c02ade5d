import { FILE_ERRORS, FILE_MESSAGES } from "../file-rules";
import { requireModule } from "~/features/auth/index.server";
import { filePerms, viewerOf } from "../module.server";
import { handleUpload } from "../upload.server";
import type { Route } from "./+types/upload-xhr";

/**
 * The upload screen's script posts the same multipart form here to watch its progress; the
 * answer is JSON. The form itself (no JavaScript) posts to /files/upload.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const { env, tenant, user } = await requireModule(request, context, { module: "files", scope: "files.upload", message: FILE_MESSAGES.noUploadPermission });
  const viewer = viewerOf(user);
  const perms = filePerms(user);
  const result = await handleUpload(request, env, tenant.id, viewer, { mayShare: perms.share });
  if (result.ok) return Response.json({ ok: true, fileId: result.fileId, redirectTo: "/files/all" });
  const err = FILE_ERRORS[result.code];
  return Response.json({ ok: false, code: result.code, message: err.message }, { status: err.status });
}
