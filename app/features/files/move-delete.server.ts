/** Moving and deleting files, one or many: each file succeeds or fails on its own, with its reason. */
import { claimSubmission, type SubmissionClaim } from "~/features/platform/index.server";
import { and, eq, inArray, sql } from "drizzle-orm";
import { dbFor, type Db } from "~/db/client.server";
import { activityLog, fileAccess, fileFolders, files, fileVersions, storageDaily, type UsageCategory } from "~/db/schema";
import { activityInsert, auditInsert, auditInsertWhere } from "~/features/platform/index.server";
import { newId } from "~/utils/ids";
import { dayOf, FILE_AUDIT, mayChange, usageDelta, visibleTo, type Fail, type FileErrorCode, type Viewer } from "./files.server";

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
  const rows = await visibleFiles(dbFor(env, tenantId), tenantId, viewer, ids);
  return rows.map((r) => ({ id: r.id, name: r.name, mayChange: mayChange(viewer, r.ownerId) }));
}

export type BulkResult = { succeeded: { id: string; name: string }[]; failed: { id: string; name: string; code: FileErrorCode }[] };

/**
 * Moves files the viewer owns (or all, with manage-all) to a folder of the tenant, or to the root.
 * Each file is its own conditional UPDATE whose audit entry lands only if it matched. A form's
 * one-time submission `claim` goes into the same batch, so a repeated key moves nothing.
 */
export async function moveFiles(
  env: Env,
  tenantId: string,
  viewer: Viewer,
  ids: readonly string[],
  folderId: string | null,
  now = Date.now(),
  claim?: SubmissionClaim,
): Promise<BulkResult | Fail> {
  const db = dbFor(env, tenantId);
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
    ...(claim ? [claimSubmission(db, claim)] : []),
  ]);
  movable.forEach((r, i) => {
    const changed = (results[i] as { id: string }[]).length > 0;
    if (changed) result.succeeded.push({ id: r.id, name: r.name });
    else result.failed.push({ id: r.id, name: r.name, code: "not_found" });
  });
  return result;
}

/** Deletes every stored version of a file (only keys under the tenant's own prefix). */
async function deleteStoredObjects(env: Env, db: Db, tenantId: string, fileId: string): Promise<void> {
  const versions = await db
    .select({ key: fileVersions.storageKey })
    .from(fileVersions)
    .where(and(eq(fileVersions.tenantId, tenantId), eq(fileVersions.fileId, fileId)));
  const keys = versions.map((v) => v.key).filter((k) => k.startsWith(`tenants/${tenantId}/`));
  if (keys.length) await env.FILES.delete(keys);
}

/**
 * One file's delete batch. Counters and the audit entry come first, guarded on the row still
 * existing, so a racing second delete of the same file changes nothing; the fifth statement is the
 * row's delete (its returning rows say whether this batch removed it).
 */
function deleteFileStatements(db: Db, d: { tenantId: string; viewer: Viewer; file: Owned; bulk: boolean; now: number }, claim: SubmissionClaim | undefined) {
  const { tenantId, viewer, file: r, bulk, now } = d;
  const exists = sql`EXISTS (SELECT 1 FROM ${files} WHERE ${files.tenantId} = ${tenantId} AND ${files.id} = ${r.id})`;
  return [
    usageDelta(db, tenantId, r.category, -r.storedBytes, -1, now, exists),
    auditInsertWhere(
      db,
      {
        tenantId,
        action: FILE_AUDIT.deleted,
        actorId: viewer.id,
        actorEmail: viewer.email,
        targetType: "file",
        targetId: r.id,
        payload: { name: r.name, bytes: r.storedBytes, bulk },
        ip: null,
      },
      exists,
      { now },
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
    ...(claim ? [claimSubmission(db, claim)] : []),
  ] as const;
}

/**
 * Deletes files the viewer owns (or any, with manage-all): the stored objects first, then the
 * rows, usage and audit in one batch per file. One failure does not stop the others. A form's
 * one-time submission `claim` goes into the first of those batches: on a repeated key it fails
 * there, and nothing more is done (the error reaches the caller).
 */
export async function deleteFiles(
  env: Env,
  tenantId: string,
  viewer: Viewer,
  ids: readonly string[],
  now = Date.now(),
  claim?: SubmissionClaim,
): Promise<BulkResult> {
  const db = dbFor(env, tenantId);
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
      await deleteStoredObjects(env, db, tenantId, r.id);
    } catch {
      result.failed.push({ id: r.id, name: r.name, code: "storage_failed" });
      continue;
    }
    const claiming = claim;
    let removed: { id: string }[];
    try {
      const out = await db.batch(deleteFileStatements(db, { tenantId, viewer, file: r, bulk, now }, claiming));
      removed = out[4];
    } catch (err) {
      // The batch carrying the submission key failed: this submission did nothing; say so.
      if (claiming) throw err;
      result.failed.push({ id: r.id, name: r.name, code: "storage_failed" });
      continue;
    }
    claim = undefined;
    if (removed.length) result.succeeded.push({ id: r.id, name: r.name });
    else result.failed.push({ id: r.id, name: r.name, code: "not_found" });
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
