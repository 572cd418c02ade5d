import { FILE_ERRORS, FILE_MESSAGES } from "../file-rules";
import { requireModule } from "~/features/auth/index.server";
import { filePerms, viewerOf } from "../module.server";
import { startMultipartSchema, startMultipartUpload } from "../multipart-upload.server";
import type { Route } from "./+types/upload-multipart";

/** The declaration is a small JSON object; anything longer is not one. */
const MAX_DECLARATION_BYTES = 64 * 1024;

/**
 * POST (JSON: name, size, type, the form's fields): starts a file larger than one request may
 * carry. Answers the upload's id, part size and part count; the parts go to
 * /files/upload/multipart/{id}?part=N. The same-origin check on every POST covers it.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const { env, tenant, user } = await requireModule(request, context, { module: "files", scope: "files.upload", message: FILE_MESSAGES.noUploadPermission });
  const viewer = viewerOf(user);
  if (request.method !== "POST") return new Response(null, { status: 405, headers: { Allow: "POST" } });
  const length = Number(request.headers.get("Content-Length") ?? "");
  if (!Number.isSafeInteger(length) || length <= 0 || length > MAX_DECLARATION_BYTES) return fail("bad_request");
  let raw: unknown;
  try {
    raw = await request.json();
  } catch {
    return fail("bad_request");
  }
  const input = startMultipartSchema.safeParse(raw);
  if (!input.success) return fail("bad_request");
  const result = await startMultipartUpload(env, tenant.id, viewer, input.data, { mayShare: filePerms(user).share });
  if (!result.ok) return fail(result.code);
  return Response.json(result);
}

function fail(code: keyof typeof FILE_ERRORS) {
  const err = FILE_ERRORS[code];
  return Response.json({ ok: false, code, message: err.message }, { status: err.status });
}
