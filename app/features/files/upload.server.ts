/**
 * An upload from request to record: the quota is reserved from the request's Content-Length
 * before any byte is stored, the file part streams into R2 (a single put when it fits one part,
 * an R2 multipart upload otherwise, so memory stays at one part), and the record, usage and audit
 * land in one batch. Any failure after the reservation releases it and removes what was stored.
 */
import { z } from "zod";
import { newId } from "~/utils/ids";
import { FILE_VISIBILITIES } from "~/db/schema/files";
import { MAX_UPLOAD_BYTES, storageKey, usageCategory } from "./file-rules";
import { recordUpload, releaseReservation, reserveStorage, uploadTarget, type FileErrorCode, type Viewer } from "./files.server";
import { folderExists } from "./folders.server";
import { boundaryOf, MultipartError, readMultipart } from "./multipart";
import type { Result } from "~/utils/result";

/** R2 needs every part but the last to be the same size, and at least 5 MiB. */
export const PART_SIZE = 5 * 1024 * 1024;

const fieldsSchema = z.object({
  visibility: z.enum(FILE_VISIBILITIES).default("private"),
  folderId: z.string().max(100).optional(),
  fileId: z.string().max(100).optional(),
  allowedUserIds: z.array(z.string().max(100)).max(500).default([]),
});

export type UploadResult = Result<{ fileId: string; name: string; version: number }, FileErrorCode | "cancelled">;

export type UploadOptions = { mayShare: boolean };

/** Streams the request's file into R2 and records it. */
export async function handleUpload(request: Request, env: Env, tenantId: string, viewer: Viewer, opts: UploadOptions): Promise<UploadResult> {
  const boundary = boundaryOf(request.headers.get("Content-Type"));
  const length = Number(request.headers.get("Content-Length") ?? "");
  if (!boundary || !request.body) return { ok: false, code: "missing_input" };
  if (!Number.isSafeInteger(length) || length <= 0) return { ok: false, code: "bad_request" };
  if (length > MAX_UPLOAD_BYTES) return { ok: false, code: "too_large" };

  let parsed: Awaited<ReturnType<typeof readMultipart>>;
  try {
    parsed = await readMultipart(request.body, boundary);
  } catch (e) {
    if (e instanceof MultipartError) return { ok: false, code: "bad_request" };
    throw e;
  }
  const { fields, file } = parsed;
  if (!file || !file.filename) return { ok: false, code: "missing_input" };
  const raw = fields.reduce<Record<string, string | string[]>>((acc, [k, v]) => {
    if (k === "allowedUserIds") acc[k] = [...((acc[k] as string[] | undefined) ?? []), v];
    else acc[k] = v;
    return acc;
  }, {});
  const input = fieldsSchema.safeParse({ ...raw, folderId: raw.folderId || undefined, fileId: raw.fileId || undefined });
  if (!input.success) return { ok: false, code: "bad_request" };
  const visibility = opts.mayShare ? input.data.visibility : "private";
  if (visibility === "restricted" && input.data.allowedUserIds.length === 0) return { ok: false, code: "no_recipients" };

  const target = await uploadTarget(env, tenantId, viewer, input.data.fileId ?? null);
  if ("ok" in target) return target;

  // Content-Length bounds the file's size from above: reserve it, settle on the real size.
  const reservation = await reserveStorage(env, tenantId, viewer, length);
  if (!reservation.ok) return reservation;

  const name = target.kind === "version" ? target.name : cleanName(file.filename);
  const mimeType = cleanMime(file.contentType);
  // A new file's id is fresh, so its key is its own. Two uploads of the same next version would
  // share a key (and the loser's clean-up would delete the winner's bytes): those carry a token.
  const key = storageKey(tenantId, target.fileId, target.version, file.filename, target.kind === "new" ? "original" : `original-${newId(6)}`);
  let size: number;
  try {
    size = await streamToR2(env.FILES, key, file.stream, length, mimeType);
  } catch (e) {
    await releaseReservation(env, tenantId, reservation.reservationId);
    if (e instanceof MultipartError) return { ok: false, code: "bad_request" };
    if (isAbort(e)) return { ok: false, code: "cancelled" };
    return { ok: false, code: "storage_failed" };
  }

  try {
    const recorded = await recordUpload(env, tenantId, viewer, {
      reservationId: reservation.reservationId,
      target,
      name,
      mimeType,
      category: target.kind === "version" ? target.category : usageCategory(mimeType, name),
      size,
      storageKey: key,
      visibility,
      allowedUserIds: input.data.allowedUserIds,
      folderId: target.kind === "new" ? await folderOrNull(env, tenantId, input.data.folderId) : null,
    });
    if (!recorded.ok) {
      await cleanUp(env, tenantId, reservation.reservationId, key);
      return recorded;
    }
    return { ok: true, fileId: recorded.fileId, name, version: target.version };
  } catch (e) {
    await cleanUp(env, tenantId, reservation.reservationId, key);
    throw e;
  }
}

async function cleanUp(env: Env, tenantId: string, reservationId: string, key: string) {
  await releaseReservation(env, tenantId, reservationId);
  await env.FILES.delete(key);
}

export async function folderOrNull(env: Env, tenantId: string, folderId: string | undefined): Promise<string | null> {
  if (!folderId) return null;
  return (await folderExists(env, tenantId, folderId)) ? folderId : null;
}

export function isAbort(e: unknown): boolean {
  return e instanceof Error && /abort|disconnect|closed/i.test(`${e.name} ${e.message}`);
}

export function cleanName(name: string): string {
  // Browsers send only the base name; older ones sent a path.
  const base = name.split(/[\\/]/).pop() ?? name;
  const printable = [...base].filter((c) => c.charCodeAt(0) >= 0x20 && c.charCodeAt(0) !== 0x7f).join("");
  return (printable.trim() || "file").slice(0, 255);
}

export function cleanMime(type: string): string {
  const t = type.toLowerCase().split(";")[0].trim();
  return /^[a-z0-9.+-]+\/[a-z0-9.+-]+$/.test(t) ? t : "application/octet-stream";
}

/**
 * Writes the chunks to R2 holding at most one part in memory; returns the byte count. More than
 * `maxBytes` (the request's own length) cannot arrive from a well-formed body; it is refused.
 */
export async function streamToR2(bucket: R2Bucket, key: string, chunks: AsyncIterable<Uint8Array>, maxBytes: number, contentType: string): Promise<number> {
  // A file is never longer than its request, so a small upload gets a small buffer.
  let part = new Uint8Array(Math.min(PART_SIZE, maxBytes));
  let fill = 0;
  let total = 0;
  let upload: R2MultipartUpload | null = null;
  const parts: R2UploadedPart[] = [];
  try {
    for await (const chunk of chunks) {
      total += chunk.length;
      if (total > maxBytes) throw new MultipartError("body longer than its Content-Length");
      let offset = 0;
      while (offset < chunk.length) {
        const n = Math.min(part.length - fill, chunk.length - offset);
        part.set(chunk.subarray(offset, offset + n), fill);
        fill += n;
        offset += n;
        if (fill === PART_SIZE) {
          upload ??= await bucket.createMultipartUpload(key, { httpMetadata: { contentType } });
          parts.push(await upload.uploadPart(parts.length + 1, part));
          part = new Uint8Array(PART_SIZE);
          fill = 0;
        }
      }
    }
    if (!upload) {
      await bucket.put(key, part.subarray(0, fill), { httpMetadata: { contentType } });
      return total;
    }
    if (fill > 0) parts.push(await upload.uploadPart(parts.length + 1, part.subarray(0, fill)));
    await upload.complete(parts);
    return total;
  } catch (e) {
    if (upload) await upload.abort().catch(() => undefined);
    throw e;
  }
}
