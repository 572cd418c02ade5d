/**
 * Files data access: every exported function takes the tenant id explicitly, and every query on a
 * tenant-owned table filters by it. Expected failures come back as typed codes.
 */
import { claimSubmission, type SubmissionClaim } from "~/features/platform/index.server";
import { and, asc, count, desc, eq, gte, inArray, isNull, ne, sql, type SQL } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { getDb, type Db } from "~/db/client.server";
import {
  activityLog,
  auditEvents,
  fileAccess,
  fileFolders,
  files,
  fileVersions,
  notifications,
  storageDaily,
  storageReservations,
  storageUsage,
  users,
  type FileVisibility,
  type UsageCategory,
} from "~/db/schema";
import { activityInsert, auditInsert } from "~/features/platform/index.server";
import { newId } from "~/utils/ids";
import { ellipsize } from "~/utils/text";
import { USAGE_RECALC_AUDIT } from "./file-constants";
import { storageCap, TIER_LIMITS } from "./file-rules";
import { latestUsageJobQuery, usageJobView } from "./usage-recalculation.server";

export type Viewer = { id: string; email: string; name: string; manageAll: boolean };

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

export type Fail = { ok: false; code: FileErrorCode; field?: string };

/** Audit action names of the files area. */
export const FILE_AUDIT = {
  uploaded: "FILE_UPLOADED",
  deleted: "FILE_DELETED",
  bulkDeleted: "BULK_FILES_DELETED",
  shared: "FILE_SHARED",
  downloaded: "FILE_DOWNLOADED",
  moved: "FILE_MOVED",
  bulkMoved: "BULK_FILES_MOVED",
  folderCreated: "FOLDER_CREATED",
  folderUpdated: "FOLDER_UPDATED",
  folderDeleted: "FOLDER_DELETED",
  quotaExceeded: "STORAGE_QUOTA_EXCEEDED",
  exported: "FILES_EXPORTED",
  usageRecalculated: USAGE_RECALC_AUDIT,
} as const;

export const RESERVATION_TTL_MS = 60 * 60 * 1000;

function dayOf(now: number): string {
  return new Date(now).toISOString().slice(0, 10);
}

/** Who can see a file: managers of all files, the owner, everyone for shared, listed people for restricted. */
export function visibleTo(viewer: Viewer): SQL {
  if (viewer.manageAll) return sql`1 = 1`;
  return sql`(${files.ownerId} = ${viewer.id} OR ${files.visibility} = 'shared' OR (${files.visibility} = 'restricted' AND EXISTS (SELECT 1 FROM ${fileAccess} WHERE ${fileAccess.fileId} = ${files.id} AND ${fileAccess.userId} = ${viewer.id})))`;
}

function mayChange(viewer: Viewer, ownerId: string): boolean {
  return viewer.manageAll || ownerId === viewer.id;
}

// ---------------------------------------------------------------------------------------------
// Quota

function capSql(): SQL {
  const tier = sql`${storageUsage.tier}`;
  return sql`COALESCE(${storageUsage.customLimit}, CASE ${tier} WHEN 'starter' THEN ${TIER_LIMITS.starter} WHEN 'professional' THEN ${TIER_LIMITS.professional} WHEN 'enterprise' THEN ${TIER_LIMITS.enterprise} ELSE ${TIER_LIMITS.free} END)`;
}

function ensureUsageRow(db: Db, tenantId: string, now: number) {
  return db.insert(storageUsage).values({ tenantId, createdAt: now, updatedAt: now }).onConflictDoNothing();
}

/**
 * Promises `bytes` of the tenant's quota to one upload. The check and the promise are one
 * INSERT ... SELECT: it adds the reservation only while used + live reservations + bytes fit
 * under the cap, so two uploads racing for the last bytes cannot both pass.
 */
export async function reserveStorage(env: Env, tenantId: string, actor: Viewer, bytes: number, now = Date.now()) {
  const db = getDb(env);
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
  await getDb(env)
    .delete(storageReservations)
    .where(and(eq(storageReservations.tenantId, tenantId), eq(storageReservations.id, reservationId)));
}

export type UsageSummary = { used: number; reserved: number; fileCount: number; cap: number; tier: string; categories: Partial<Record<UsageCategory, number>> };

export async function getUsage(env: Env, tenantId: string, now = Date.now()): Promise<UsageSummary> {
  const db = getDb(env);
  const [usageRows, reserved] = await db.batch([usageQuery(db, tenantId), reservedQuery(db, tenantId, now)]);
  return toUsage(usageRows[0], reserved[0]?.bytes ?? 0);
}

function usageQuery(db: Db, tenantId: string) {
  return db.select().from(storageUsage).where(eq(storageUsage.tenantId, tenantId));
}

function reservedQuery(db: Db, tenantId: string, now: number) {
  return db
    .select({ bytes: sql<number>`COALESCE(SUM(${storageReservations.bytes}), 0)` })
    .from(storageReservations)
    .where(and(eq(storageReservations.tenantId, tenantId), sql`${storageReservations.createdAt} > ${now - RESERVATION_TTL_MS}`));
}

function toUsage(row: typeof storageUsage.$inferSelect | undefined, reserved: number): UsageSummary {
  const tier = row?.tier ?? "free";
  return {
    used: row?.usedBytes ?? 0,
    reserved,
    fileCount: row?.fileCount ?? 0,
    cap: storageCap(tier, row?.customLimit ?? null),
    tier,
    categories: row?.categoryBytes ?? {},
  };
}

/** Sets a tenant's tier and custom limit (platform administration and tests). */
export async function setStoragePlan(
  env: Env,
  tenantId: string,
  plan: { tier: (typeof storageUsage.$inferSelect)["tier"]; customLimit?: number | null },
  now = Date.now(),
) {
  const db = getDb(env);
  await db.batch([
    ensureUsageRow(db, tenantId, now),
    db
      .update(storageUsage)
      .set({ tier: plan.tier, customLimit: plan.customLimit ?? null, updatedAt: now })
      .where(eq(storageUsage.tenantId, tenantId)),
  ]);
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

function dailyDelta(db: Db, tenantId: string, now: number, delta: { added?: number; removed?: number; uploads?: number; shared?: number; deleted?: number }) {
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
  const row = await getDb(env)
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
export async function recordUpload(env: Env, tenantId: string, actor: Viewer, u: StoredUpload, now = Date.now()): Promise<{ ok: true; fileId: string } | Fail> {
  const db = getDb(env);
  const { target } = u;
  const release = db.delete(storageReservations).where(and(eq(storageReservations.tenantId, tenantId), eq(storageReservations.id, u.reservationId)));
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
    usageDelta(db, tenantId, u.category, u.size, target.kind === "new" ? 1 : 0, now),
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

  if (target.kind === "new") {
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
    db
      .insert(auditEvents)
      .select(
        sql`SELECT ${newId()}, ${tenantId}, ${actor.id}, ${actor.email}, ${FILE_AUDIT.uploaded}, 'file', ${target.fileId}, ${details}, NULL, ${now} WHERE ${current}`,
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

async function existingUserIds(db: Db, tenantId: string, ids: readonly string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.tenantId, tenantId), inArray(users.id, [...new Set(ids)].slice(0, 500)), eq(users.disabled, false)));
  return rows.map((r) => r.id);
}

// ---------------------------------------------------------------------------------------------
// Lists

export const FILE_SORTS = ["name", "owner", "size", "shared", "signed", "created"] as const;
export type FileSort = (typeof FILE_SORTS)[number];
export const FILE_FILTERS = ["all", "mine", "shared", "private"] as const;
export type FileFilter = (typeof FILE_FILTERS)[number];
export const PAGE_SIZE = 50;

export type ListQuery = { filter: FileFilter; q: string; sort: FileSort; dir: "asc" | "desc"; page: number; folderId?: string | null };

function sortColumns(sort: FileSort) {
  switch (sort) {
    case "name":
      return sql`${files.name} COLLATE NOCASE`;
    case "owner":
      return sql`${files.ownerName} COLLATE NOCASE`;
    case "size":
      return sql`${files.size}`;
    case "shared":
      return sql`${files.visibility}`;
    case "signed":
      return sql`${files.signed}`;
    case "created":
      return sql`${files.createdAt}`;
  }
}

function listWhere(tenantId: string, viewer: Viewer, q: ListQuery): SQL {
  const parts: SQL[] = [eq(files.tenantId, tenantId), visibleTo(viewer)];
  if (q.filter === "mine") parts.push(eq(files.ownerId, viewer.id));
  if (q.filter === "shared") parts.push(ne(files.visibility, "private"));
  if (q.filter === "private") parts.push(eq(files.visibility, "private"));
  if (q.q) parts.push(sql`${files.name} LIKE ${`%${q.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`} ESCAPE '\\'`);
  if (q.folderId !== undefined) parts.push(q.folderId === null ? isNull(files.folderId) : eq(files.folderId, q.folderId));
  return and(...parts) ?? sql`1 = 0`;
}

export const fileListColumns = {
  id: files.id,
  name: files.name,
  size: files.size,
  mimeType: files.mimeType,
  visibility: files.visibility,
  ownerId: files.ownerId,
  ownerName: files.ownerName,
  folderId: files.folderId,
  signed: files.signed,
  pendingSign: files.pendingSign,
  signedVersion: signedVersionSql(),
  version: files.version,
  createdAt: files.createdAt,
  people: sql<number>`(SELECT COUNT(*) FROM ${fileAccess} WHERE ${fileAccess.fileId} = ${files.id})`,
};

/** The latest version of the file that is a signed PDF, or null: it stays signed in the history after newer uploads. */
function signedVersionSql() {
  // Spelled out: drizzle leaves the columns of a selected field unqualified, which inside this subquery would mean file_versions'.
  return sql<
    number | null
  >`(SELECT MAX(fv.version) FROM file_versions fv WHERE fv.tenant_id = "files"."tenant_id" AND fv.file_id = "files"."id" AND fv.type = 'signed')`;
}

export type FileRow = {
  id: string;
  name: string;
  size: number;
  mimeType: string;
  visibility: FileVisibility;
  ownerId: string;
  ownerName: string;
  folderId: string | null;
  signed: boolean;
  pendingSign: boolean;
  signedVersion: number | null;
  version: number;
  createdAt: number;
  people: number;
};

function pageQuery(db: Db, tenantId: string, viewer: Viewer, q: ListQuery) {
  const order = q.dir === "asc" ? asc(sortColumns(q.sort)) : desc(sortColumns(q.sort));
  return db
    .select(fileListColumns)
    .from(files)
    .where(listWhere(tenantId, viewer, q))
    .orderBy(order, desc(files.id))
    .limit(PAGE_SIZE)
    .offset((Math.max(1, q.page) - 1) * PAGE_SIZE);
}

function foldersQuery(db: Db, tenantId: string) {
  return db
    .select({
      id: fileFolders.id,
      name: fileFolders.name,
      color: fileFolders.color,
      parentId: fileFolders.parentId,
      path: fileFolders.path,
      createdAt: fileFolders.createdAt,
    })
    .from(fileFolders)
    .where(eq(fileFolders.tenantId, tenantId))
    .orderBy(asc(sql`${fileFolders.name} COLLATE NOCASE`));
}
export type FolderRow = { id: string; name: string; color: string; parentId: string | null; path: string; createdAt: number };

/** A page of the list, its total and the folders (for Move): one D1 round trip. */
export async function listFiles(env: Env, tenantId: string, viewer: Viewer, q: ListQuery) {
  const db = getDb(env);
  const [rows, total, folders] = await db.batch([
    pageQuery(db, tenantId, viewer, q),
    db
      .select({ n: count() })
      .from(files)
      .where(listWhere(tenantId, viewer, q)),
    foldersQuery(db, tenantId),
  ]);
  return { rows: rows as FileRow[], total: total[0]?.n ?? 0, folders };
}

/** The most rows an export writes; the list's own filters narrow a bigger set. */
export const EXPORT_LIMIT = 10_000;
export const EXPORT_HEADER = ["Name", "Folder", "Owner", "Size (bytes)", "Type", "Visibility", "Signed", "Signed version", "Version", "Created"] as const;

/**
 * The list as the person sees it (same visibility, filter, search and order), every page, up to
 * EXPORT_LIMIT rows, audited as FILES_EXPORTED before anything leaves. Metadata only: no contents.
 */
export async function exportFileList(
  env: Env,
  tenantId: string,
  viewer: Viewer,
  q: ListQuery,
  opts: { ip?: string | null; formatDate: (ms: number) => string },
) {
  const db = getDb(env);
  const order = q.dir === "asc" ? asc(sortColumns(q.sort)) : desc(sortColumns(q.sort));
  const rows = await db
    .select({
      name: files.name,
      folder: fileFolders.path,
      ownerName: files.ownerName,
      size: files.size,
      mimeType: files.mimeType,
      visibility: files.visibility,
      signed: files.signed,
      signedVersion: signedVersionSql(),
      version: files.version,
      createdAt: files.createdAt,
    })
    .from(files)
    .leftJoin(fileFolders, and(eq(fileFolders.tenantId, tenantId), eq(fileFolders.id, files.folderId)))
    .where(listWhere(tenantId, viewer, q))
    .orderBy(order, desc(files.id))
    .limit(EXPORT_LIMIT + 1);
  const truncated = rows.length > EXPORT_LIMIT;
  const kept = rows.slice(0, EXPORT_LIMIT);
  await auditInsert(db, {
    tenantId,
    action: FILE_AUDIT.exported,
    actorId: viewer.id,
    actorEmail: viewer.email,
    targetType: "files",
    payload: { rows: kept.length, truncated, filter: q.filter, search: q.q },
    ip: opts.ip ?? null,
  });
  return {
    truncated,
    rows: kept.map((r) => [
      r.name,
      r.folder ?? "",
      r.ownerName,
      r.size,
      r.mimeType,
      r.visibility,
      r.signed ? "Yes" : "No",
      r.signedVersion ?? "N/A",
      r.version,
      opts.formatDate(r.createdAt),
    ]),
  };
}

/** A folder screen: every folder (breadcrumbs, siblings, children) and the files at that level, in one round trip. */
export async function listFolderLevel(env: Env, tenantId: string, viewer: Viewer, path: string | null, q: ListQuery) {
  const db = getDb(env);
  const folderId = path
    ? sql`(SELECT ${fileFolders.id} FROM ${fileFolders} WHERE ${fileFolders.tenantId} = ${tenantId} AND ${fileFolders.path} = ${path})`
    : null;
  const where = and(listWhere(tenantId, viewer, { ...q, folderId: undefined }), folderId ? sql`${files.folderId} = ${folderId}` : isNull(files.folderId));
  const order = q.dir === "asc" ? asc(sortColumns(q.sort)) : desc(sortColumns(q.sort));
  const [folders, rows] = await db.batch([
    foldersQuery(db, tenantId),
    db
      .select(fileListColumns)
      .from(files)
      .where(where)
      .orderBy(order, desc(files.id))
      .limit(PAGE_SIZE)
      .offset((Math.max(1, q.page) - 1) * PAGE_SIZE),
  ]);
  return { folders, rows: rows as FileRow[] };
}

/** Overview: usage, the last 30 days' activity, the 10 newest visible files; one round trip. */
export async function overview(env: Env, tenantId: string, viewer: Viewer, now = Date.now()) {
  const db = getDb(env);
  const since = dayOf(now - 29 * 86_400_000);
  const [usageRows, reserved, activity, newest, usageJob] = await db.batch([
    usageQuery(db, tenantId),
    reservedQuery(db, tenantId, now),
    db
      .select({
        uploads: sql<number>`COALESCE(SUM(${storageDaily.uploads}), 0)`,
        shared: sql<number>`COALESCE(SUM(${storageDaily.shared}), 0)`,
        deleted: sql<number>`COALESCE(SUM(${storageDaily.deleted}), 0)`,
        totalSizeAdded: sql<number>`COALESCE(SUM(${storageDaily.bytesAdded}), 0)`,
      })
      .from(storageDaily)
      .where(and(eq(storageDaily.tenantId, tenantId), gte(storageDaily.day, since))),
    db
      .select(fileListColumns)
      .from(files)
      .where(and(eq(files.tenantId, tenantId), visibleTo(viewer)))
      .orderBy(desc(files.createdAt), desc(files.id))
      .limit(10),
    latestUsageJobQuery(db, tenantId),
  ]);
  return {
    usage: toUsage(usageRows[0], reserved[0]?.bytes ?? 0),
    lastCalculated: usageRows[0]?.lastCalculated ?? null,
    usageJob: usageJobView(usageJob[0]),
    activity: activity[0] ?? { uploads: 0, shared: 0, deleted: 0, totalSizeAdded: 0 },
    newest: newest as FileRow[],
  };
}

// ---------------------------------------------------------------------------------------------
// One file

/** A file the viewer may see, its versions and the people it is open to; another tenant's or a hidden one is not_found. */
export async function getFile(env: Env, tenantId: string, viewer: Viewer, fileId: string) {
  const db = getDb(env);
  const [rows, versions, access, folders, people] = await db.batch([
    db
      .select()
      .from(files)
      .where(and(eq(files.tenantId, tenantId), eq(files.id, fileId), visibleTo(viewer))),
    db
      .select()
      .from(fileVersions)
      .where(and(eq(fileVersions.tenantId, tenantId), eq(fileVersions.fileId, fileId)))
      .orderBy(desc(fileVersions.version)),
    db
      .select({ userId: fileAccess.userId, via: fileAccess.via, name: users.displayName, email: users.email })
      .from(fileAccess)
      .innerJoin(users, and(eq(users.id, fileAccess.userId), eq(users.tenantId, tenantId)))
      .where(and(eq(fileAccess.tenantId, tenantId), eq(fileAccess.fileId, fileId))),
    foldersQuery(db, tenantId),
    db
      .select({
        id: users.id,
        displayName: users.displayName,
        email: users.email,
        username: users.username,
        firstName: users.firstName,
        lastName: users.lastName,
      })
      .from(users)
      .where(and(eq(users.tenantId, tenantId), ne(users.id, viewer.id), eq(users.disabled, false)))
      .orderBy(asc(users.displayName)),
  ]);
  const file = rows[0];
  if (!file) return { ok: false as const, code: "not_found" as const };
  return { ok: true as const, file, versions, access, folders, people, mayChange: mayChange(viewer, file.ownerId) };
}

/** The R2 key of a visible file (its current version, or a given one), for download and preview. */
export async function fileForDownload(env: Env, tenantId: string, viewer: Viewer, fileId: string, version?: number) {
  const db = getDb(env);
  const file = await db
    .select({ id: files.id, name: files.name, mimeType: files.mimeType, size: files.size, storageKey: files.storageKey, version: files.version })
    .from(files)
    .where(and(eq(files.tenantId, tenantId), eq(files.id, fileId), visibleTo(viewer)))
    .get();
  if (!file) return { ok: false as const, code: "not_found" as const };
  if (version === undefined || version === file.version) return { ok: true as const, file };
  const v = await db
    .select({ storageKey: fileVersions.storageKey, size: fileVersions.size, mimeType: fileVersions.mimeType })
    .from(fileVersions)
    .where(and(eq(fileVersions.tenantId, tenantId), eq(fileVersions.fileId, fileId), eq(fileVersions.version, version)))
    .get();
  if (!v) return { ok: false as const, code: "not_found" as const };
  return { ok: true as const, file: { ...file, ...v, version } };
}

export async function auditDownload(env: Env, tenantId: string, actor: Viewer, fileId: string, name: string): Promise<void> {
  await auditInsert(getDb(env), {
    tenantId,
    action: FILE_AUDIT.downloaded,
    actorId: actor.id,
    actorEmail: actor.email,
    targetType: "file",
    targetId: fileId,
    payload: { name },
  });
}

// ---------------------------------------------------------------------------------------------
// Move, delete, share

type Owned = { id: string; name: string; ownerId: string; storedBytes: number; category: UsageCategory };

async function visibleFiles(db: Db, tenantId: string, viewer: Viewer, ids: readonly string[]): Promise<Owned[]> {
  const unique = [...new Set(ids)].slice(0, 500);
  if (unique.length === 0) return [];
  return db
    .select({ id: files.id, name: files.name, ownerId: files.ownerId, storedBytes: files.storedBytes, category: files.category })
    .from(files)
    .where(and(eq(files.tenantId, tenantId), inArray(files.id, unique), visibleTo(viewer)));
}

/** For the confirmation step: the chosen files the viewer can see, and which of them they may change. */
export async function describeSelection(env: Env, tenantId: string, viewer: Viewer, ids: readonly string[]) {
  const rows = await visibleFiles(getDb(env), tenantId, viewer, ids);
  return rows.map((r) => ({ id: r.id, name: r.name, mayChange: mayChange(viewer, r.ownerId) }));
}

export type BulkResult = { succeeded: { id: string; name: string }[]; failed: { id: string; name: string; code: FileErrorCode }[] };

/**
 * Moves files the viewer owns (or all, with manage-all) to a folder of the tenant, or to the root.
 * Each file is its own conditional UPDATE whose audit entry lands only if it matched.
 */
export async function moveFiles(
  env: Env,
  tenantId: string,
  viewer: Viewer,
  ids: readonly string[],
  folderId: string | null,
  now = Date.now(),
): Promise<BulkResult | Fail> {
  const db = getDb(env);
  if (folderId) {
    const folder = await db
      .select({ id: fileFolders.id })
      .from(fileFolders)
      .where(and(eq(fileFolders.tenantId, tenantId), eq(fileFolders.id, folderId)))
      .get();
    if (!folder) return { ok: false, code: "not_found", field: "folderId" };
  }
  const rows = await visibleFiles(db, tenantId, viewer, ids);
  const found = new Set(rows.map((r) => r.id));
  const result: BulkResult = {
    succeeded: [],
    failed: [...new Set(ids)].filter((id) => !found.has(id)).map((id) => ({ id, name: id, code: "not_found" as const })),
  };
  const movable = rows.filter((r) => mayChange(viewer, r.ownerId));
  for (const r of rows) if (!mayChange(viewer, r.ownerId)) result.failed.push({ id: r.id, name: r.name, code: "not_owner" });
  if (movable.length === 0) return result;
  const bulk = movable.length > 1;
  const ownerGuard = viewer.manageAll ? sql`1 = 1` : eq(files.ownerId, viewer.id);
  const stmts = movable.map((r) =>
    db
      .update(files)
      .set({ folderId, updatedAt: now })
      .where(and(eq(files.tenantId, tenantId), eq(files.id, r.id), ownerGuard))
      .returning({ id: files.id }),
  );
  const payload = { folderId, files: movable.map((r) => r.id) };
  const [first, ...rest] = stmts;
  const results = await db.batch([
    first,
    ...rest,
    auditInsert(
      db,
      {
        tenantId,
        action: bulk ? FILE_AUDIT.bulkMoved : FILE_AUDIT.moved,
        actorId: viewer.id,
        actorEmail: viewer.email,
        targetType: "file",
        targetId: bulk ? null : movable[0].id,
        payload,
      },
      now,
    ),
    activityInsert(
      db,
      {
        tenantId,
        module: "files",
        action: bulk ? "bulk files moved" : "file moved",
        entityType: "file",
        entityId: bulk ? null : movable[0].id,
        performedBy: viewer.id,
        performedByName: viewer.name,
        details: payload,
      },
      now,
    ),
  ]);
  movable.forEach((r, i) => {
    const changed = (results[i] as { id: string }[]).length > 0;
    if (changed) result.succeeded.push({ id: r.id, name: r.name });
    else result.failed.push({ id: r.id, name: r.name, code: "not_found" });
  });
  return result;
}

/**
 * Deletes files the viewer owns (or any, with manage-all): the stored objects first, then the
 * rows, usage and audit in one batch per file. One failure does not stop the others.
 */
export async function deleteFiles(env: Env, tenantId: string, viewer: Viewer, ids: readonly string[], now = Date.now()): Promise<BulkResult> {
  const db = getDb(env);
  const rows = await visibleFiles(db, tenantId, viewer, ids);
  const found = new Set(rows.map((r) => r.id));
  const result: BulkResult = {
    succeeded: [],
    failed: [...new Set(ids)].filter((id) => !found.has(id)).map((id) => ({ id, name: id, code: "not_found" as const })),
  };
  const bulk = ids.length > 1;
  for (const r of rows) {
    if (!mayChange(viewer, r.ownerId)) {
      result.failed.push({ id: r.id, name: r.name, code: "not_owner" });
      continue;
    }
    try {
      const versions = await db
        .select({ key: fileVersions.storageKey })
        .from(fileVersions)
        .where(and(eq(fileVersions.tenantId, tenantId), eq(fileVersions.fileId, r.id)));
      const keys = versions.map((v) => v.key).filter((k) => k.startsWith(`tenants/${tenantId}/`));
      if (keys.length) await env.FILES.delete(keys);
      const exists = sql`EXISTS (SELECT 1 FROM ${files} WHERE ${files.tenantId} = ${tenantId} AND ${files.id} = ${r.id})`;
      // Counters and the audit entry come first, guarded on the row still existing, so a racing
      // second delete of the same file changes nothing.
      const [, , , , removed] = await db.batch([
        usageDelta(db, tenantId, r.category, -r.storedBytes, -1, now, exists),
        db
          .insert(auditEvents)
          .select(
            sql`SELECT ${newId()}, ${tenantId}, ${viewer.id}, ${viewer.email}, ${FILE_AUDIT.deleted}, 'file', ${r.id}, ${JSON.stringify({ name: r.name, bytes: r.storedBytes, bulk })}, NULL, ${now} WHERE ${exists}`,
          ),
        db
          .insert(activityLog)
          .select(
            sql`SELECT ${newId()}, ${tenantId}, 'files', 'file deleted', 'file', ${r.id}, ${viewer.id}, ${viewer.name}, ${JSON.stringify({ name: r.name })}, ${now} WHERE ${exists}`,
          ),
        db.insert(storageDaily).select(
          sql`SELECT ${tenantId}, ${dayOf(now)}, 0, ${r.storedBytes}, 0, 0, 1 WHERE ${exists}
            ON CONFLICT (tenant_id, day) DO UPDATE SET bytes_removed = bytes_removed + excluded.bytes_removed, deleted = deleted + 1`,
        ),
        db
          .delete(files)
          .where(and(eq(files.tenantId, tenantId), eq(files.id, r.id)))
          .returning({ id: files.id }),
        db.delete(fileVersions).where(and(eq(fileVersions.tenantId, tenantId), eq(fileVersions.fileId, r.id))),
        db.delete(fileAccess).where(and(eq(fileAccess.tenantId, tenantId), eq(fileAccess.fileId, r.id))),
      ]);
      if (removed.length) result.succeeded.push({ id: r.id, name: r.name });
      else result.failed.push({ id: r.id, name: r.name, code: "not_found" });
    } catch {
      result.failed.push({ id: r.id, name: r.name, code: "storage_failed" });
    }
  }
  if (bulk && result.succeeded.length > 0)
    await auditInsert(
      db,
      {
        tenantId,
        action: FILE_AUDIT.bulkDeleted,
        actorId: viewer.id,
        actorEmail: viewer.email,
        targetType: "file",
        payload: { succeeded: result.succeeded.map((s) => s.id), failed: result.failed.map((f) => f.id) },
      },
      now,
    );
  return result;
}

/** The tenant's other active staff, for the share dialog. */
export async function shareCandidates(env: Env, tenantId: string, viewer: Viewer) {
  return getDb(env)
    .select({
      id: users.id,
      displayName: users.displayName,
      email: users.email,
      username: users.username,
      firstName: users.firstName,
      lastName: users.lastName,
    })
    .from(users)
    .where(and(eq(users.tenantId, tenantId), ne(users.id, viewer.id), eq(users.disabled, false)))
    .orderBy(asc(users.displayName));
}

/**
 * Shares a file with people of the tenant: it becomes restricted, they are added to its access
 * list, each gets a notification, and the audit entry records it; one batch.
 */
export async function shareFile(
  env: Env,
  tenantId: string,
  viewer: Viewer,
  fileId: string,
  userIds: readonly string[],
  now = Date.now(),
  claim?: SubmissionClaim,
) {
  const db = getDb(env);
  const file = await db
    .select({ id: files.id, name: files.name, ownerId: files.ownerId })
    .from(files)
    .where(and(eq(files.tenantId, tenantId), eq(files.id, fileId), visibleTo(viewer)))
    .get();
  if (!file) return { ok: false as const, code: "not_found" as const };
  if (!mayChange(viewer, file.ownerId)) return { ok: false as const, code: "not_owner" as const };
  const recipients = (await existingUserIds(db, tenantId, userIds)).filter((id) => id !== viewer.id);
  if (recipients.length === 0) return { ok: false as const, code: "no_recipients" as const, field: "userIds" };
  await db.batch([
    db
      .update(files)
      .set({ visibility: "restricted", updatedAt: now })
      .where(and(eq(files.tenantId, tenantId), eq(files.id, fileId))),
    ...recipients.map((userId) =>
      db
        .insert(fileAccess)
        .values({ tenantId, fileId, userId, via: "shared", createdAt: now })
        .onConflictDoUpdate({ target: [fileAccess.fileId, fileAccess.userId], set: { via: "shared" } }),
    ),
    ...recipients.map((userId) =>
      db.insert(notifications).values({
        id: newId(),
        tenantId,
        targetUserId: userId,
        type: "share",
        title: `${ellipsize(viewer.name)} shared a file with you`,
        message: ellipsize(file.name),
        link: `/files/file/${fileId}`,
        subjectType: "file",
        subjectId: fileId,
        fromUserId: viewer.id,
        createdAt: now,
      }),
    ),
    dailyDelta(db, tenantId, now, { shared: 1 }),
    auditInsert(
      db,
      {
        tenantId,
        action: FILE_AUDIT.shared,
        actorId: viewer.id,
        actorEmail: viewer.email,
        targetType: "file",
        targetId: fileId,
        payload: { sharedWith: recipients },
      },
      now,
    ),
    // The form's one-time submission key: a repeated share notifies nobody twice.
    ...(claim ? [claimSubmission(db, claim)] : []),
  ]);
  return { ok: true as const, recipients: recipients.length };
}

// ---------------------------------------------------------------------------------------------
// Folders

export async function folderExists(env: Env, tenantId: string, folderId: string): Promise<boolean> {
  const row = await getDb(env)
    .select({ id: fileFolders.id })
    .from(fileFolders)
    .where(and(eq(fileFolders.tenantId, tenantId), eq(fileFolders.id, folderId)))
    .get();
  return Boolean(row);
}

export async function createFolder(
  env: Env,
  tenantId: string,
  actor: Viewer,
  input: { name: string; color: string; parentId: string | null; slug: string },
  now = Date.now(),
): Promise<{ ok: true; id: string; path: string } | Fail> {
  const db = getDb(env);
  let parentPath = "";
  if (input.parentId) {
    const parent = await db
      .select({ path: fileFolders.path })
      .from(fileFolders)
      .where(and(eq(fileFolders.tenantId, tenantId), eq(fileFolders.id, input.parentId)))
      .get();
    if (!parent) return { ok: false, code: "not_found", field: "parentId" };
    parentPath = `${parent.path}/`;
  }
  const id = newId();
  const path = `${parentPath}${input.slug}`;
  try {
    await db.batch([
      db.insert(fileFolders).values({
        id,
        tenantId,
        name: input.name,
        color: input.color,
        parentId: input.parentId,
        slug: input.slug,
        path,
        createdBy: actor.id,
        createdAt: now,
        updatedAt: now,
      }),
      auditInsert(
        db,
        {
          tenantId,
          action: FILE_AUDIT.folderCreated,
          actorId: actor.id,
          actorEmail: actor.email,
          targetType: "folder",
          targetId: id,
          payload: { name: input.name, path },
        },
        now,
      ),
    ]);
  } catch (e) {
    if (String(e).includes("UNIQUE")) return { ok: false, code: "duplicate_folder", field: "name" };
    throw e;
  }
  return { ok: true, id, path };
}

/** Renames or recolours a folder; its path and every descendant's follow the new slug. */
export async function updateFolder(
  env: Env,
  tenantId: string,
  actor: Viewer,
  folderId: string,
  input: { name: string; color: string; slug: string },
  now = Date.now(),
): Promise<{ ok: true; path: string } | Fail> {
  const db = getDb(env);
  const folder = await db
    .select()
    .from(fileFolders)
    .where(and(eq(fileFolders.tenantId, tenantId), eq(fileFolders.id, folderId)))
    .get();
  if (!folder) return { ok: false, code: "not_found" };
  const cut = folder.path.lastIndexOf("/");
  const path = `${cut >= 0 ? folder.path.slice(0, cut + 1) : ""}${input.slug}`;
  try {
    await db.batch([
      db
        .update(fileFolders)
        .set({ name: input.name, color: input.color, slug: input.slug, path, updatedAt: now })
        .where(and(eq(fileFolders.tenantId, tenantId), eq(fileFolders.id, folderId))),
      db
        .update(fileFolders)
        .set({ path: sql`${path} || substr(${fileFolders.path}, ${folder.path.length + 1})`, updatedAt: now })
        .where(and(eq(fileFolders.tenantId, tenantId), sql`substr(${fileFolders.path}, 1, ${folder.path.length + 1}) = ${`${folder.path}/`}`)),
      auditInsert(
        db,
        {
          tenantId,
          action: FILE_AUDIT.folderUpdated,
          actorId: actor.id,
          actorEmail: actor.email,
          targetType: "folder",
          targetId: folderId,
          payload: { name: input.name, path },
        },
        now,
      ),
    ]);
  } catch (e) {
    if (String(e).includes("UNIQUE")) return { ok: false, code: "duplicate_folder", field: "name" };
    throw e;
  }
  return { ok: true, path };
}

/** Removes an empty-of-subfolders folder; its files move to the parent folder (or the root). */
export async function deleteFolder(
  env: Env,
  tenantId: string,
  actor: Viewer,
  folderId: string,
  now = Date.now(),
): Promise<{ ok: true; parentPath: string | null } | Fail> {
  const db = getDb(env);
  const [folderRows, children] = await db.batch([
    db
      .select()
      .from(fileFolders)
      .where(and(eq(fileFolders.tenantId, tenantId), eq(fileFolders.id, folderId))),
    db
      .select({ id: fileFolders.id })
      .from(fileFolders)
      .where(and(eq(fileFolders.tenantId, tenantId), eq(fileFolders.parentId, folderId)))
      .limit(1),
  ]);
  const folder = folderRows[0];
  if (!folder) return { ok: false, code: "not_found" };
  if (children.length) return { ok: false, code: "folder_not_empty" };
  await db.batch([
    db
      .update(files)
      .set({ folderId: folder.parentId, updatedAt: now })
      .where(and(eq(files.tenantId, tenantId), eq(files.folderId, folderId))),
    db.delete(fileFolders).where(and(eq(fileFolders.tenantId, tenantId), eq(fileFolders.id, folderId))),
    auditInsert(
      db,
      {
        tenantId,
        action: FILE_AUDIT.folderDeleted,
        actorId: actor.id,
        actorEmail: actor.email,
        targetType: "folder",
        targetId: folderId,
        payload: { name: folder.name, path: folder.path },
      },
      now,
    ),
  ]);
  const cut = folder.path.lastIndexOf("/");
  return { ok: true, parentPath: cut >= 0 ? folder.path.slice(0, cut) : null };
}

/** The upload screen: folders, the people a restricted file can be opened to, the file a new version is for; one round trip. */
export async function uploadPageData(env: Env, tenantId: string, viewer: Viewer, fileId: string | null) {
  const db = getDb(env);
  const [folders, people, target] = await db.batch([
    foldersQuery(db, tenantId),
    db
      .select({ id: users.id, displayName: users.displayName, email: users.email })
      .from(users)
      .where(and(eq(users.tenantId, tenantId), ne(users.id, viewer.id), eq(users.disabled, false)))
      .orderBy(asc(users.displayName)),
    db
      .select({ id: files.id, name: files.name, ownerId: files.ownerId, version: files.version, pendingSign: files.pendingSign })
      .from(files)
      .where(and(eq(files.tenantId, tenantId), eq(files.id, fileId ?? ""), visibleTo(viewer))),
  ]);
  const file = target[0];
  return {
    folders,
    people,
    versionOf: file && mayChange(viewer, file.ownerId) ? { id: file.id, name: file.name, version: file.version, pendingSign: file.pendingSign } : null,
  };
}
