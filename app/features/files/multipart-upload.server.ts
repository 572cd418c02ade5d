/**
 * Files larger than one request may carry go up from the browser in parts: an R2 multipart
 * upload driven through the Worker (create, one request per part, complete or abort). The R2
 * upload id never leaves the server: the browser holds only our row's id, and every step looks
 * the row up by tenant, person and id, so another person's or tenant's upload is a 404. The quota
 * is reserved for the declared size when the upload is created (the same conditional insert as a
 * single upload, sharing the row's id); completion records the file only if R2's object has
 * exactly that size.
 */
import { and, asc, eq, lte, sql } from "drizzle-orm";
import { z } from "zod";
import { dbFor, sumOverShards, type Db } from "~/db/client.server";
import { FILE_VISIBILITIES, fileMultipartParts, fileMultipartUploads, fileVersions, storageReservations } from "~/db/schema";
import { newId } from "~/utils/ids";
import { DEFAULT_PART_BYTES, MAX_MULTIPART_BYTES, MAX_PART_BYTES, MAX_PARTS, MIN_PART_BYTES, partCount, storageKey, usageCategory } from "./file-rules";
import { RESERVATION_TTL_MS, recordUpload, releaseReservation, reserveStorage, uploadTarget, type Fail, type Viewer } from "./files.server";
import { cleanMime, cleanName, folderOrNull, isAbort } from "./upload.server";
import type { Err, Ok } from "~/utils/result";

type UploadRow = typeof fileMultipartUploads.$inferSelect;

/** What the browser declares when it starts: the file's name, size and type, and the form's fields. */
export const startMultipartSchema = z.object({
  name: z.string().min(1).max(1000),
  size: z.number().int().positive(),
  type: z.string().max(255).default(""),
  partSize: z.number().int().min(MIN_PART_BYTES).max(MAX_PART_BYTES).default(DEFAULT_PART_BYTES),
  visibility: z.enum(FILE_VISIBILITIES).default("private"),
  folderId: z.string().max(100).optional(),
  fileId: z.string().max(100).optional(),
  allowedUserIds: z.array(z.string().max(100)).max(500).default([]),
});
export type StartMultipart = z.infer<typeof startMultipartSchema>;

export type Started = Ok<{ uploadId: string; partSize: number; partCount: number }>;

/** Reserves the declared size, opens the R2 upload and records who it belongs to. */
export async function startMultipartUpload(
  env: Env,
  tenantId: string,
  viewer: Viewer,
  input: StartMultipart,
  opts: { mayShare: boolean },
  now = Date.now(),
): Promise<Started | Fail> {
  const parts = partCount(input.size, input.partSize);
  if (input.size > MAX_MULTIPART_BYTES || parts > MAX_PARTS) return { ok: false, code: "too_large" };
  const visibility = opts.mayShare ? input.visibility : "private";
  if (visibility === "restricted" && input.allowedUserIds.length === 0) return { ok: false, code: "no_recipients" };

  const target = await uploadTarget(env, tenantId, viewer, input.fileId || null);
  if ("ok" in target) return target;
  const reservation = await reserveStorage(env, tenantId, viewer, input.size, now);
  if (!reservation.ok) return reservation;

  const name = target.kind === "version" ? target.name : cleanName(input.name);
  const mimeType = cleanMime(input.type);
  const key = storageKey(tenantId, target.fileId, target.version, name, target.kind === "new" ? "original" : `original-${newId(6)}`);
  let r2: R2MultipartUpload;
  try {
    r2 = await env.FILES.createMultipartUpload(key, { httpMetadata: { contentType: mimeType } });
  } catch {
    await releaseReservation(env, tenantId, reservation.reservationId);
    return { ok: false, code: "storage_failed" };
  }
  try {
    await dbFor(env, tenantId)
      .insert(fileMultipartUploads)
      .values({
        id: reservation.reservationId,
        tenantId,
        userId: viewer.id,
        storageKey: key,
        r2UploadId: r2.uploadId,
        fileId: target.fileId,
        version: target.version,
        name,
        mimeType,
        category: target.kind === "version" ? target.category : usageCategory(mimeType, name),
        size: input.size,
        partSize: input.partSize,
        visibility,
        folderId: target.kind === "new" ? await folderOrNull(env, tenantId, input.folderId) : null,
        allowedUserIds: visibility === "restricted" ? input.allowedUserIds : [],
        createdAt: now,
        touchedAt: now,
      });
  } catch (e) {
    await r2.abort().catch(() => undefined);
    await releaseReservation(env, tenantId, reservation.reservationId);
    throw e;
  }
  return { ok: true, uploadId: reservation.reservationId, partSize: input.partSize, partCount: parts };
}

function mine(tenantId: string, userId: string, uploadId: string) {
  return and(eq(fileMultipartUploads.tenantId, tenantId), eq(fileMultipartUploads.id, uploadId), eq(fileMultipartUploads.userId, userId));
}

function live(now: number) {
  return and(eq(fileMultipartUploads.state, "open"), sql`${fileMultipartUploads.touchedAt} > ${now - RESERVATION_TTL_MS}`);
}

/** Keeps an upload and its reservation alive: a reservation counts for an hour after its last touch. */
function touch(db: Db, tenantId: string, uploadId: string, now: number) {
  return db
    .update(storageReservations)
    .set({ createdAt: now })
    .where(and(eq(storageReservations.tenantId, tenantId), eq(storageReservations.id, uploadId)));
}

/**
 * Stores one part. Every part but the last is exactly the upload's part size and the last is the
 * remainder, so the parts can only add up to the declared size; the body is held to its length by
 * a FixedLengthStream on its way to R2. Sending a part again replaces it.
 */
export async function uploadPart(
  env: Env,
  tenantId: string,
  viewer: Viewer,
  uploadId: string,
  partNumber: number,
  body: ReadableStream<Uint8Array> | null,
  contentLength: number,
  now = Date.now(),
): Promise<Ok<{ partNumber: number }> | Fail | Err<"cancelled">> {
  const db = dbFor(env, tenantId);
  const [rows] = await db.batch([
    db
      .update(fileMultipartUploads)
      .set({ touchedAt: now })
      .where(and(mine(tenantId, viewer.id, uploadId), live(now)))
      .returning(),
    touch(db, tenantId, uploadId, now),
  ]);
  const row = rows[0];
  if (!row) return { ok: false, code: "not_found" };
  const count = partCount(row.size, row.partSize);
  if (!Number.isSafeInteger(partNumber) || partNumber < 1 || partNumber > count) return { ok: false, code: "bad_request" };
  const expected = partNumber < count ? row.partSize : row.size - (count - 1) * row.partSize;
  if (!body || contentLength !== expected) return { ok: false, code: "size_mismatch" };

  const { readable, writable } = new FixedLengthStream(expected);
  const piping = body.pipeTo(writable).catch((e: unknown) => e);
  let etag: string;
  try {
    const part = await env.FILES.resumeMultipartUpload(row.storageKey, row.r2UploadId).uploadPart(partNumber, readable);
    etag = part.etag;
  } catch (e) {
    const cause = await piping;
    if (isAbort(e) || isAbort(cause)) return { ok: false, code: "cancelled" };
    return { ok: false, code: "storage_failed" };
  }
  // Only while the upload is still open: an abort or completion meanwhile has removed its parts.
  await db.run(sql`INSERT INTO ${fileMultipartParts} (tenant_id, upload_id, part_number, etag, size)
    SELECT ${tenantId}, ${uploadId}, ${partNumber}, ${etag}, ${expected}
    WHERE EXISTS (SELECT 1 FROM ${fileMultipartUploads} WHERE ${mine(tenantId, viewer.id, uploadId)} AND ${fileMultipartUploads.state} = 'open')
    ON CONFLICT (upload_id, part_number) DO UPDATE SET etag = excluded.etag, size = excluded.size`);
  return { ok: true, partNumber };
}

export type Completed = Ok<{ fileId: string; name: string; version: number }>;

/**
 * Completes the R2 upload and records the file exactly as a single upload does. One call wins
 * the open → completing change; the parts must be all there and add up to the declared size, and
 * R2's object must have that size, or the upload is aborted, removed and its reservation released.
 */
export async function completeMultipartUpload(env: Env, tenantId: string, viewer: Viewer, uploadId: string, now = Date.now()): Promise<Completed | Fail> {
  const db = dbFor(env, tenantId);
  const [claimed, , parts] = await db.batch([
    db
      .update(fileMultipartUploads)
      .set({ state: "completing", touchedAt: now })
      .where(and(mine(tenantId, viewer.id, uploadId), live(now)))
      .returning(),
    touch(db, tenantId, uploadId, now),
    db
      .select({ partNumber: fileMultipartParts.partNumber, etag: fileMultipartParts.etag, size: fileMultipartParts.size })
      .from(fileMultipartParts)
      .where(and(eq(fileMultipartParts.tenantId, tenantId), eq(fileMultipartParts.uploadId, uploadId)))
      .orderBy(asc(fileMultipartParts.partNumber)),
  ]);
  const row = claimed[0];
  if (!row) return { ok: false, code: "not_found" };

  const r2 = env.FILES.resumeMultipartUpload(row.storageKey, row.r2UploadId);
  const count = partCount(row.size, row.partSize);
  const sum = parts.reduce((n, p) => n + p.size, 0);
  if (parts.length !== count || sum !== row.size || parts.some((p, i) => p.partNumber !== i + 1)) {
    await r2.abort().catch(() => undefined);
    await discard(db, row);
    return { ok: false, code: "size_mismatch" };
  }
  let object: R2Object;
  try {
    object = await r2.complete(parts.map((p) => ({ partNumber: p.partNumber, etag: p.etag })));
  } catch {
    await r2.abort().catch(() => undefined);
    await discard(db, row);
    return { ok: false, code: "storage_failed" };
  }
  if (object.size !== row.size) {
    await env.FILES.delete(row.storageKey);
    await discard(db, row);
    return { ok: false, code: "size_mismatch" };
  }

  const target =
    row.version === 1
      ? { kind: "new" as const, fileId: row.fileId, version: 1 as const }
      : { kind: "version" as const, fileId: row.fileId, version: row.version, name: row.name, ownerId: viewer.id, category: row.category };
  try {
    const recorded = await recordUpload(
      env,
      tenantId,
      viewer,
      {
        reservationId: row.id,
        target,
        name: row.name,
        mimeType: row.mimeType,
        category: row.category,
        size: row.size,
        storageKey: row.storageKey,
        visibility: row.visibility,
        allowedUserIds: row.allowedUserIds,
        folderId: row.folderId,
        alongside: removal(db, row),
      },
      now,
    );
    if (!recorded.ok) {
      await env.FILES.delete(row.storageKey);
      await discard(db, row);
      return recorded;
    }
    return { ok: true, fileId: recorded.fileId, name: row.name, version: row.version };
  } catch (e) {
    await env.FILES.delete(row.storageKey);
    await discard(db, row);
    throw e;
  }
}

/** Cancels an upload: R2 drops its parts and the reservation goes. */
export async function abortMultipartUpload(env: Env, tenantId: string, viewer: Viewer, uploadId: string): Promise<Ok | Fail> {
  const db = dbFor(env, tenantId);
  const gone = await db
    .delete(fileMultipartUploads)
    .where(and(mine(tenantId, viewer.id, uploadId), eq(fileMultipartUploads.state, "open")))
    .returning();
  const row = gone[0];
  if (!row) return { ok: false, code: "not_found" };
  await env.FILES.resumeMultipartUpload(row.storageKey, row.r2UploadId)
    .abort()
    .catch(() => undefined);
  await discard(db, row);
  return { ok: true };
}

function removal(db: Db, row: UploadRow) {
  return [
    db.delete(fileMultipartParts).where(and(eq(fileMultipartParts.tenantId, row.tenantId), eq(fileMultipartParts.uploadId, row.id))),
    db.delete(fileMultipartUploads).where(and(eq(fileMultipartUploads.tenantId, row.tenantId), eq(fileMultipartUploads.id, row.id))),
  ] as const;
}

async function discard(db: Db, row: UploadRow) {
  const [parts, upload] = removal(db, row);
  await db.batch([
    parts,
    upload,
    db.delete(storageReservations).where(and(eq(storageReservations.tenantId, row.tenantId), eq(storageReservations.id, row.id))),
  ]);
}

/**
 * Hourly: uploads idle for longer than a reservation lives are aborted in R2 and removed with
 * their reservations. One stuck in 'completing' (its Worker died) was never recorded, since the
 * record removes the row in its own batch; its object, if R2 completed it, goes too unless a
 * version points at it.
 */
export async function expireMultipartUploads(env: Env, now = Date.now(), limit = 200): Promise<number> {
  return sumOverShards(env, (db) => expireMultipartUploadsIn(env, db, now, limit));
}

async function expireMultipartUploadsIn(env: Env, db: Db, now: number, limit: number): Promise<number> {
  const stale = await db
    .select()
    .from(fileMultipartUploads)
    .where(lte(fileMultipartUploads.touchedAt, now - RESERVATION_TTL_MS))
    .limit(limit);
  for (const row of stale) {
    await env.FILES.resumeMultipartUpload(row.storageKey, row.r2UploadId)
      .abort()
      .catch(() => undefined);
    if (row.state === "completing") {
      const used = await db
        .select({ id: fileVersions.id })
        .from(fileVersions)
        .where(and(eq(fileVersions.tenantId, row.tenantId), eq(fileVersions.storageKey, row.storageKey)))
        .limit(1);
      if (used.length === 0) await env.FILES.delete(row.storageKey);
    }
    await discard(db, row);
  }
  return stale.length;
}
