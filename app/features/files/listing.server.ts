/** What the list, folder, overview, file and upload pages read: each page in one D1 round trip. */
import { sameTenant } from "~/db/tenancy";
import { and, asc, count, desc, eq, gte, inArray, isNull, ne, sql, type SQL } from "drizzle-orm";
import { dbFor, type Db } from "~/db/client.server";
import { fileAccess, fileFolders, files, fileVersions, storageDaily, users, type FileVisibility } from "~/db/schema";
import { auditInsert } from "~/features/platform/index.server";
import { dayOf, FILE_AUDIT, mayChange, visibleTo, type Viewer } from "./files.server";
import { reservedQuery, toUsage, usageQuery } from "./quota.server";
import { latestUsageJobQuery, usageJobView } from "./usage-recalculation.server";
import type { SubcontractorSignerChoice, SubcontractorSigners } from "./signatures/subcontractor-signers.server";

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
  // Spelled with table names: inside a column list drizzle writes bare column names, and a bare
  // "id" here would only reach files.id because file_access happens to have no id column. The
  // tenant condition is `+tenant_id` so the file's own entries are found by the primary key
  // (file, user); SQLite otherwise chose the tenant's index and read every entry of the tenant per file.
  people: sql<number>`(SELECT COUNT(*) FROM ${fileAccess} WHERE ${fileAccess}.${sql.identifier(fileAccess.fileId.name)} = ${files}.${sql.identifier(files.id.name)} AND +${sameTenant(fileAccess, files)})`,
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

/** The list's page statement (exported for the test of its query plan). */
export function filePageQuery(db: Db, tenantId: string, viewer: Viewer, q: ListQuery) {
  const order = q.dir === "asc" ? asc(sortColumns(q.sort)) : desc(sortColumns(q.sort));
  return filePage(db, tenantId, listWhere(tenantId, viewer, q), order, q.page);
}

/**
 * One page of files in the chosen order. The order is worked out on the bare rows first (the page's
 * ids), and the columns with their per-row sub-selects (people with access, the signed version) are
 * read for those rows only. Sorted whole, a sort no index serves (name, owner, size...) ran both
 * sub-selects for every file the viewer may see before sorting: 81 ms a page at 10,000 files.
 */
function filePage(db: Db, tenantId: string, where: SQL | undefined, order: SQL, page: number) {
  const ids = db
    .select({ id: files.id })
    .from(files)
    .where(where)
    .orderBy(order, desc(files.id))
    .limit(PAGE_SIZE)
    .offset((Math.max(1, page) - 1) * PAGE_SIZE);
  return (
    db
      .select(fileListColumns)
      .from(files)
      // `+tenant_id` cannot use an index, so SQLite reads the page's rows by id rather than walking the tenant's index.
      .where(and(sql`+${files.tenantId} = ${tenantId}`, inArray(files.id, ids)))
      .orderBy(order, desc(files.id))
  );
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
  const db = dbFor(env, tenantId);
  const [rows, total, folders] = await db.batch([
    filePageQuery(db, tenantId, viewer, q),
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
  const db = dbFor(env, tenantId);
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
  const db = dbFor(env, tenantId);
  const folderId = path
    ? sql`(SELECT ${fileFolders.id} FROM ${fileFolders} WHERE ${fileFolders.tenantId} = ${tenantId} AND ${fileFolders.path} = ${path})`
    : null;
  const where = and(listWhere(tenantId, viewer, { ...q, folderId: undefined }), folderId ? sql`${files.folderId} = ${folderId}` : isNull(files.folderId));
  const order = q.dir === "asc" ? asc(sortColumns(q.sort)) : desc(sortColumns(q.sort));
  const [folders, rows] = await db.batch([foldersQuery(db, tenantId), filePage(db, tenantId, where, order, q.page)]);
  return { folders, rows: rows as FileRow[] };
}

/** Overview: usage, the last 30 days' activity, the 10 newest visible files; one round trip. */
export async function overview(env: Env, tenantId: string, viewer: Viewer, now = Date.now()) {
  const db = dbFor(env, tenantId);
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
export async function getFile(env: Env, tenantId: string, viewer: Viewer, fileId: string, subcontractors?: SubcontractorSigners | null) {
  const db = dbFor(env, tenantId);
  const [rows, versions, access, folders, people, subcontractorRows] = await db.batch([
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
    // Subcontractors who may be asked to sign (when this person may pick them), in the same round trip.
    subcontractors
      ? subcontractors.choices(db, tenantId)
      : db
          .select({ id: users.id })
          .from(users)
          .where(and(eq(users.tenantId, tenantId), sql`0`)),
  ]);
  const file = rows[0];
  if (!file) return { ok: false as const, code: "not_found" as const };
  const subcontractorChoices = subcontractors ? (subcontractorRows as SubcontractorSignerChoice[]) : [];
  return { ok: true as const, file, versions, access, folders, people, subcontractorChoices, mayChange: mayChange(viewer, file.ownerId) };
}

/** The upload screen: folders, the people a restricted file can be opened to, the file a new version is for; one round trip. */
export async function uploadPageData(env: Env, tenantId: string, viewer: Viewer, fileId: string | null) {
  const db = dbFor(env, tenantId);
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
