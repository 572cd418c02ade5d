/** Folders: create, rename or recolour (the paths below follow), delete (their files move up). */
import { and, eq, sql } from "drizzle-orm";
import { dbFor } from "~/db/client.server";
import { fileFolders, files } from "~/db/schema";
import { auditInsert } from "~/features/platform/index.server";
import { newId } from "~/utils/ids";
import { FILE_AUDIT, type Fail, type Viewer } from "./files.server";
import type { Ok } from "~/utils/result";

export async function folderExists(env: Env, tenantId: string, folderId: string): Promise<boolean> {
  const row = await dbFor(env, tenantId)
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
): Promise<Ok<{ id: string; path: string }> | Fail> {
  const db = dbFor(env, tenantId);
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
): Promise<Ok<{ path: string }> | Fail> {
  const db = dbFor(env, tenantId);
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
): Promise<Ok<{ parentPath: string | null }> | Fail> {
  const db = dbFor(env, tenantId);
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
