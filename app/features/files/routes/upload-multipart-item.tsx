import { FILE_ERRORS, FILE_MESSAGES } from "../file-rules";
import { requireModule } from "~/features/auth/index.server";
import { viewerOf } from "../module.server";
import { abortMultipartUpload, completeMultipartUpload, uploadPart } from "../multipart-upload.server";
import { multipartIntentSchema, multipartPartSchema, multipartUploadParamsSchema } from "../schemas";
import type { Route } from "./+types/upload-multipart-item";

/**
 * One upload in parts, found by tenant, person and id (anyone else's is a 404):
 * PUT ?part=N with the part's bytes; POST {"intent":"complete"} or {"intent":"abort"}.
 */
export async function action({ request, context, params }: Route.ActionArgs) {
  const { env, tenant, user } = await requireModule(request, context, { module: "files", scope: "files.upload", message: FILE_MESSAGES.noUploadPermission });
  const viewer = viewerOf(user);
  const parsed = multipartUploadParamsSchema.safeParse(params);
  if (!parsed.success) return fail("not_found");
  const { uploadId } = parsed.data;

  if (request.method === "PUT") {
    const part = multipartPartSchema.safeParse(new URL(request.url).searchParams.get("part"));
    const length = Number(request.headers.get("Content-Length") ?? "");
    if (!part.success || !Number.isSafeInteger(length)) return fail("bad_request");
    const result = await uploadPart(env, tenant.id, viewer, uploadId, part.data, request.body, length);
    return result.ok ? Response.json(result) : fail(result.code);
  }
  if (request.method !== "POST") return new Response(null, { status: 405, headers: { Allow: "PUT, POST" } });
  const length = Number(request.headers.get("Content-Length") ?? "");
  if (!Number.isSafeInteger(length) || length <= 0 || length > 1024) return fail("bad_request");
  let raw: unknown;
  try {
    raw = await request.json();
  } catch {
    return fail("bad_request");
  }
  const intent = multipartIntentSchema.safeParse(raw);
  if (!intent.success) return fail("bad_request");
  if (intent.data.intent === "abort") {
    const result = await abortMultipartUpload(env, tenant.id, viewer, uploadId);
    return result.ok ? Response.json(result) : fail(result.code);
  }
  const result = await completeMultipartUpload(env, tenant.id, viewer, uploadId);
  if (!result.ok) return fail(result.code);
  return Response.json({ ok: true, fileId: result.fileId, version: result.version, redirectTo: "/files/all" });
}

function fail(code: keyof typeof FILE_ERRORS) {
  const err = FILE_ERRORS[code];
  return Response.json({ ok: false, code, message: err.message }, { status: err.status });
}
