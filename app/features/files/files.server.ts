/**
 * Files data access: every exported function takes the tenant id explicitly, and every query on a
 * tenant-owned table filters by it. Expected failures come back as typed codes.
 *
 * This module holds what every other files module builds on (the viewer, the codes, the audit
 * names, who may see and change a file, the storage counters every write moves) and an upload's
 * path from reserved quota to recorded file. Beside it: quota.server.ts (plan and usage),
 * listing.server.ts (what the pages read), downloads.server.ts, move-delete.server.ts,
 * sharing.server.ts and folders.server.ts.
 */
import { sameTenant } from "~/db/tenancy";
import type { Actor } from "~/features/auth";
import { and, eq, inArray, sql, type SQL } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { dbFor, type Db } from "~/db/client.server";
import {
  activityLog,
  fileAccess,
  files,
  fileVersions,
  storageDaily,
  storageReservations,
  storageUsage,
  users,
  type FileVisibility,
  type UsageCategory,
} from "~/db/schema";
import { activityInsert, auditInsert, auditInsertWhere } from "~/features/platform/index.server";
import type { AuditAction } from "~/features/platform";
import { newId } from "~/utils/ids";
import type { Err, Ok } from "~/utils/result";
import { USAGE_RECALC_AUDIT } from "./file-constants";
import { TIER_LIMITS } from "./file-rules";

export type Viewer = Actor & { manageAll: boolean };

export type FileErrorCode =
  | "not_found"
  | "not_owner"
  | "quota_exceeded"
  | "missing_input"
  | "too_large"
  | "bad_request"
  | "storage_failed"
  | "duplicate_folder"
  | "folder_not_empty"
  | "no_recipients"
  | "size_mismatch"
  | "signature_pending";

export type Fail = Err<FileErrorCode, { field?: string }>;

/** Audit action names of the files area. */
export const FILE_AUDIT = {
  uploaded: "files.file.uploaded",
  deleted: "files.file.deleted",
  bulkDeleted: "files.file.bulk_deleted",
  shared: "files.file.shared",
  downloaded: "files.file.downloaded",
  moved: "files.file.moved",
  bulkMoved: "files.file.bulk_moved",
  folderCreated: "files.folder.created",
  folderUpdated: "files.folder.updated",
  folderDeleted: "files.folder.deleted",
  quotaExceeded: "files.storage.quota_exceeded",
  exported: "files.exported",
  usageRecalculated: USAGE_RECALC_AUDIT,
} as const satisfies Record<string, AuditAction>;

export const RESERVATION_TTL_MS = 60 * 60 * 1000;

export function dayOf(now: number): string {
  return new Date(now).toISOString().slice(0, 10);
}

/** Who can see a file: managers of all files, the owner, everyone for shared, listed people for restricted. */
export function visibleTo(viewer: Viewer): SQL {
  if (viewer.manageAll) return sql`1 = 1`;
  return sql`(${files.ownerId} = ${viewer.id} OR ${files.visibility} = 'shared' OR (${files.visibility} = 'restricted' AND EXISTS (SELECT 1 FROM ${fileAccess} WHERE ${fileAccess.fileId} = ${files.id} AND ${sameTenant(fileAccess, files)} AND ${fileAccess.userId} = ${viewer.id})))`;
}

export function mayChange(viewer: Viewer, ownerId: string): boolean {
  return viewer.manageAll || ownerId === viewer.id;
}

// ---------------------------------------------------------------------------------------------
// Quota reservation and the storage counters

function capSql(): SQL {
  const tier = sql`${storageUsage.tier}`;
  return sql`COALESCE(${storageUsage.customLimit}, CASE ${tier} WHEN 'starter' THEN ${TIER_LIMITS.starter} WHEN 'professional' THEN ${TIER_LIMITS.professional} WHEN 'enterprise' THEN ${TIER_LIMITS.enterprise} ELSE ${TIER_LIMITS.free} END)`;
}

export function ensureUsageRow(db: Db, tenantId: string, now: number) {
  return db.insert(storageUsage).values({ tenantId, createdAt: now, updatedAt: now }).onConflictDoNothing();
}

/**
 * Promises `bytes` of the tenant's quota to one upload. The check and the promise are one
 * INSERT ... SELECT: it adds the reservation only while used + live reservations + bytes fit
 * under the cap, so two uploads racing for the last bytes cannot both pass.
 */
export async function reserveStorage(env: Env, tenantId: string, actor: Viewer, bytes: number, now = Date.now()) {
  const db = dbFor(env, tenantId);
  const id = newId();
  const [, , rows] = await db.batch([
    ensureUsageRow(db, tenantId, now),
    db.insert(storageReservations).select(
      sql`SELECT ${id}, ${tenantId}, ${bytes}, ${now} FROM ${storageUsage} WHERE ${storageUsage.tenantId} = ${tenantId}
        AND ${storageUsage.usedBytes} + COALESCE((SELECT SUM(r.bytes) FROM ${storageReservations} r WHERE r.tenant_id = ${tenantId} AND r.created_at > ${now - RESERVATION_TTL_MS}), 0) + ${bytes} <= ${capSql()}`,
    ),
    db
      .select({ id: storageReservations.id })
      .from(storageReservations)
      .where(and(eq(storageReservations.tenantId, tenantId), eq(storageReservations.id, id))),
  ]);
  if (rows.length === 1) return { ok: true as const, reservationId: id };
  await auditInsert(db, {
    tenantId,
    action: FILE_AUDIT.quotaExceeded,
    actorId: actor.id,
    actorEmail: actor.email,
    targetType: "storage",
    payload: { bytes },
  });
  return { ok: false as const, code: "quota_exceeded" as const };
}

export async function releaseReservation(env: Env, tenantId: string, reservationId: string): Promise<void> {
  await dbFor(env, tenantId)
    .delete(storageReservations)
    .where(and(eq(storageReservations.tenantId, tenantId), eq(storageReservations.id, reservationId)));
}

export function usageDelta(db: Db, tenantId: string, category: UsageCategory, bytes: number, files: number, now: number, guard?: SQL) {
  const path = `$.${category}`;
  return db
    .update(storageUsage)
    .set({
      usedBytes: sql`MAX(0, ${storageUsage.usedBytes} + ${bytes})`,
      fileCount: sql`MAX(0, ${storageUsage.fileCount} + ${files})`,
      categoryBytes: sql`json_set(${storageUsage.categoryBytes}, ${path}, MAX(0, COALESCE(json_extract(${storageUsage.categoryBytes}, ${path}), 0) + ${bytes}))`,
      updatedAt: now,
    })
    .where(guard ? and(eq(storageUsage.tenantId, tenantId), guard) : eq(storageUsage.tenantId, tenantId));
}

export function dailyDelta(
  db: Db,
  tenantId: string,
  now: number,
  delta: { added?: number; removed?: number; uploads?: number; shared?: number; deleted?: number },
) {
  const row = {
    tenantId,
    day: dayOf(now),
    bytesAdded: delta.added ?? 0,
    bytesRemoved: delta.removed ?? 0,
    uploads: delta.uploads ?? 0,
    shared: delta.shared ?? 0,
    deleted: delta.deleted ?? 0,
  };
  return db
    .insert(storageDaily)
    .values(row)
    .onConflictDoUpdate({
      target: [storageDaily.tenantId, storageDaily.day],
      set: {
        bytesAdded: sql`${storageDaily.bytesAdded} + ${row.bytesAdded}`,
        bytesRemoved: sql`${storageDaily.bytesRemoved} + ${row.bytesRemoved}`,
        uploads: sql`${storageDaily.uploads} + ${row.uploads}`,
        shared: sql`${storageDaily.shared} + ${row.shared}`,
        deleted: sql`${storageDaily.deleted} + ${row.deleted}`,
      },
    });
}

// ---------------------------------------------------------------------------------------------
// Upload

export type UploadTarget =
  { kind: "new"; fileId: string; version: 1 } | { kind: "version"; fileId: string; version: number; name: string; ownerId: string; category: UsageCategory };

/** Where an upload goes: a new file, or the next version of one the uploader may change. */
export async function uploadTarget(env: Env, tenantId: string, viewer: Viewer, existingFileId: string | null): Promise<UploadTarget | Fail> {
  if (!existingFileId) return { kind: "new", fileId: newId(), version: 1 };
  const row = await dbFor(env, tenantId)
    .select({ id: files.id, version: files.version, ownerId: files.ownerId, name: files.name, category: files.category, pendingSign: files.pendingSign })
    .from(files)
    .where(and(eq(files.tenantId, tenantId), eq(files.id, existingFileId), visibleTo(viewer)))
    .get();
  if (!row) return { ok: false, code: "not_found" };
  if (!mayChange(viewer, row.ownerId)) return { ok: false, code: "not_owner" };
  // The signer reviews one version; a new one while they are asked (or the PDF is being stamped) would go unsigned under a signed name.
  if (row.pendingSign) return { ok: false, code: "signature_pending" };
  return { kind: "version", fileId: row.id, version: row.version + 1, name: row.name, ownerId: row.ownerId, category: row.category };
}

export type StoredUpload = {
  reservationId: string;
  target: UploadTarget;
  name: string;
  mimeType: string;
  category: UsageCategory;
  size: number;
  storageKey: string;
  visibility: FileVisibility;
  allowedUserIds: string[];
  folderId: string | null;
  /** Statements that land in the same batch as the record (a multipart upload's own rows going). */
  alongside?: readonly BatchItem<"sqlite">[];
};

/**
 * Records an upload already in R2: the file (or its new version), the version row, the usage
 * counters, the audit and activity entries, and the reservation's release: one batch. A new
 * version lands only if the file still has the version the upload was numbered after.
 */
export async function recordUpload(env: Env, tenantId: string, actor: Viewer, u: StoredUpload, now = Date.now()): Promise<Ok<{ fileId: string }> | Fail> {
  const db = dbFor(env, tenantId);
  const release = db.delete(storageReservations).where(and(eq(storageReservations.tenantId, tenantId), eq(storageReservations.id, u.reservationId)));
  return u.target.kind === "new"
    ? recordNewFile(db, tenantId, actor, u, u.target, release, now)
    : recordNewVersion(db, tenantId, actor, u, u.target, release, now);
}

type Release = BatchItem<"sqlite">;

/** A new file: its row, first version, access list, counters, audit and activity, and the reservation's release. */
async function recordNewFile(
  db: Db,
  tenantId: string,
  actor: Viewer,
  u: StoredUpload,
  target: Extract<UploadTarget, { kind: "new" }>,
  release: Release,
  now: number,
): Promise<Ok<{ fileId: string }>> {
  const version = db.insert(fileVersions).values({
    id: newId(),
    tenantId,
    fileId: target.fileId,
    version: target.version,
    storageKey: u.storageKey,
    size: u.size,
    mimeType: u.mimeType,
    createdBy: actor.id,
    createdAt: now,
  });
  const common = [
    usageDelta(db, tenantId, u.category, u.size, 1, now),
    dailyDelta(db, tenantId, now, { added: u.size, uploads: 1 }),
    auditInsert(
      db,
      {
        tenantId,
        action: FILE_AUDIT.uploaded,
        actorId: actor.id,
        actorEmail: actor.email,
        targetType: "file",
        targetId: target.fileId,
        payload: { name: u.name, size: u.size, version: target.version },
      },
      now,
    ),
    activityInsert(
      db,
      {
        tenantId,
        module: "files",
        action: "file uploaded",
        entityType: "file",
        entityId: target.fileId,
        performedBy: actor.id,
        performedByName: actor.name,
        details: { name: u.name, size: u.size, version: target.version },
      },
      now,
    ),
    release,
  ] as const;
  const visibility = u.visibility === "restricted" && u.allowedUserIds.length === 0 ? "private" : u.visibility;
  const access = visibility === "restricted" ? await existingUserIds(db, tenantId, u.allowedUserIds) : [];
  await db.batch([
    db.insert(files).values({
      id: target.fileId,
      tenantId,
      name: u.name,
      size: u.size,
      storedBytes: u.size,
      mimeType: u.mimeType,
      category: u.category,
      storageKey: u.storageKey,
      version: 1,
      visibility,
      folderId: u.folderId,
      ownerId: actor.id,
      ownerEmail: actor.email,
      ownerName: actor.name,
      createdAt: now,
      updatedAt: now,
    }),
    version,
    ...access.map((userId) => db.insert(fileAccess).values({ tenantId, fileId: target.fileId, userId, via: "allowed", createdAt: now })),
    ...common,
    ...(u.alongside ?? []),
  ]);
  return { ok: true, fileId: target.fileId };
}

/**
 * The next version of a file: recorded only while the file is still at the version the upload
 * was numbered after and no signature is pending.
 */
async function recordNewVersion(
  db: Db,
  tenantId: string,
  actor: Viewer,
  u: StoredUpload,
  target: Extract<UploadTarget, { kind: "version" }>,
  release: Release,
  now: number,
): Promise<Ok<{ fileId: string }> | Fail> {
  // The new version counts only if this upload's key is now the file's: a racing upload of the
  // same version loses the conditional UPDATE, and every row after it is guarded on that key.
  // A signature request that came in since the upload began stops it the same way. New content
  // is not what was signed: the file stops being signed here, in the same statement; the signed
  // version stays in the history as it was (type 'signed').
  const current = sql`EXISTS (SELECT 1 FROM ${files} WHERE ${files.tenantId} = ${tenantId} AND ${files.id} = ${target.fileId} AND ${files.storageKey} = ${u.storageKey})`;
  const details = JSON.stringify({ name: u.name, size: u.size, version: target.version });
  const [updated] = await db.batch([
    db
      .update(files)
      .set({
        size: u.size,
        storedBytes: sql`${files.storedBytes} + ${u.size}`,
        mimeType: u.mimeType,
        storageKey: u.storageKey,
        version: target.version,
        signed: false,
        signedAt: null,
        signedFileKey: null,
        updatedAt: now,
      })
      .where(and(eq(files.tenantId, tenantId), eq(files.id, target.fileId), eq(files.version, target.version - 1), eq(files.pendingSign, false)))
      .returning({ id: files.id }),
    db
      .insert(fileVersions)
      .select(
        sql`SELECT ${newId()}, ${tenantId}, ${target.fileId}, ${target.version}, ${u.storageKey}, ${u.size}, ${u.mimeType}, 'original', ${actor.id}, ${now} WHERE ${current}`,
      ),
    usageDelta(db, tenantId, u.category, u.size, 0, now, current),
    db.insert(storageDaily).select(
      sql`SELECT ${tenantId}, ${dayOf(now)}, ${u.size}, 0, 1, 0, 0 WHERE ${current}
        ON CONFLICT (tenant_id, day) DO UPDATE SET bytes_added = bytes_added + excluded.bytes_added, uploads = uploads + 1`,
    ),
    auditInsertWhere(
      db,
      {
        tenantId,
        action: FILE_AUDIT.uploaded,
        actorId: actor.id,
        actorEmail: actor.email,
        targetType: "file",
        targetId: target.fileId,
        payload: sql`${details}`,
        ip: null,
      },
      current,
      { now },
    ),
    db
      .insert(activityLog)
      .select(
        sql`SELECT ${newId()}, ${tenantId}, 'files', 'file uploaded', 'file', ${target.fileId}, ${actor.id}, ${actor.name}, ${details}, ${now} WHERE ${current}`,
      ),
    release,
    ...(u.alongside ?? []),
  ]);
  if (updated.length === 0) {
    const after = await db
      .select({ pendingSign: files.pendingSign })
      .from(files)
      .where(and(eq(files.tenantId, tenantId), eq(files.id, target.fileId)))
      .get();
    return { ok: false, code: after?.pendingSign ? "signature_pending" : "not_found" };
  }
  return { ok: true, fileId: target.fileId };
}

/** Which of the given people are active staff of the tenant (at most 500 looked at). */
export async function existingUserIds(db: Db, tenantId: string, ids: readonly string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.tenantId, tenantId), inArray(users.id, [...new Set(ids)].slice(0, 500)), eq(users.disabled, false)));
  return rows.map((r) => r.id);
}
