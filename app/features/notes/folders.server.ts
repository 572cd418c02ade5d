/** Note folders: a flat list per tenant. Deleting one moves its notes to no folder; nothing is lost. */
import { and, asc, desc, eq, isNotNull, isNull, lte, sql } from "drizzle-orm";
import { dbFor, type Db } from "~/db/client.server";
import { noteFolders, notes } from "~/db/schema";
import { auditInsert, auditInsertWhere } from "~/features/platform/index.server";
import { newId } from "~/utils/ids";
import type { Result } from "~/utils/result";
import type { NoteViewer } from "./access";
import { FOLDER_COLOURS, NOTE_LIMITS, type NoteErrorCode } from "./note-rules";
import { NOTE_AUDIT, visibleTo } from "./notes.server";

/** The tenant's folders, oldest first, with how many live notes the person can see in each. */
export function foldersQuery(db: Db, tenantId: string, viewer: NoteViewer) {
  return db
    .select({
      id: noteFolders.id,
      name: noteFolders.name,
      color: noteFolders.color,
      noteCount: sql<number>`(SELECT COUNT(*) FROM ${notes} WHERE ${and(eq(notes.tenantId, tenantId), eq(notes.folderId, noteFolders.id), isNull(notes.deletedAt), visibleTo(viewer))})`,
    })
    .from(noteFolders)
    .where(eq(noteFolders.tenantId, tenantId))
    .orderBy(asc(noteFolders.createdAt), asc(noteFolders.id))
    .limit(200);
}

/** Newest notes shown under each folder when the list view expands it. */
export const FOLDER_PREVIEW_NOTES = 5;

/** The newest few live notes of every folder that the person may see, for the expandable folder list (one statement). */
export function folderPreviewsQuery(db: Db, tenantId: string, viewer: NoteViewer) {
  const ranked = db
    .select({
      id: notes.id,
      title: notes.title,
      text: sql<string>`substr(${notes.text}, 1, 200)`.as("text"),
      folderId: notes.folderId,
      updatedAt: notes.updatedAt,
      rank: sql<number>`row_number() OVER (PARTITION BY ${notes.folderId} ORDER BY ${notes.updatedAt} DESC, ${notes.id} DESC)`.as("rank"),
    })
    .from(notes)
    .where(and(eq(notes.tenantId, tenantId), isNotNull(notes.folderId), isNull(notes.deletedAt), visibleTo(viewer)))
    .as("ranked");
  return db
    .select({ id: ranked.id, title: ranked.title, text: ranked.text, folderId: ranked.folderId, updatedAt: ranked.updatedAt })
    .from(ranked)
    .where(lte(ranked.rank, FOLDER_PREVIEW_NOTES))
    .orderBy(asc(ranked.folderId), desc(ranked.updatedAt));
}

export type FolderInput = { name: string; color: string };

function cleanFolder(input: FolderInput): Result<{ name: string; color: string }, NoteErrorCode, { field: string }> {
  const name = input.name.replace(/\s+/g, " ").trim().slice(0, NOTE_LIMITS.folderName);
  if (!name) return { ok: false, code: "folder_name", field: "name" };
  const color = (FOLDER_COLOURS as readonly string[]).includes(input.color.toUpperCase()) ? input.color.toUpperCase() : FOLDER_COLOURS[0];
  return { ok: true, name, color };
}

export async function createFolder(env: Env, tenantId: string, viewer: NoteViewer, input: FolderInput, now = Date.now()) {
  const cleaned = cleanFolder(input);
  if (!cleaned.ok) return cleaned;
  const db = dbFor(env, tenantId);
  const id = newId();
  await db.batch([
    db.insert(noteFolders).values({ id, tenantId, name: cleaned.name, color: cleaned.color, createdBy: viewer.id, createdAt: now, updatedAt: now }),
    auditInsert(
      db,
      {
        tenantId,
        action: NOTE_AUDIT.folderCreated,
        actorId: viewer.id,
        actorEmail: viewer.email,
        targetType: "note_folder",
        targetId: id,
        payload: { name: cleaned.name },
      },
      now,
    ),
  ]);
  return { ok: true as const, id };
}

export async function updateFolder(env: Env, tenantId: string, viewer: NoteViewer, id: string, input: FolderInput, now = Date.now()) {
  const cleaned = cleanFolder(input);
  if (!cleaned.ok) return cleaned;
  const db = dbFor(env, tenantId);
  const [changed] = await db.batch([
    db
      .update(noteFolders)
      .set({ name: cleaned.name, color: cleaned.color, updatedAt: now })
      .where(and(eq(noteFolders.tenantId, tenantId), eq(noteFolders.id, id)))
      .returning({ id: noteFolders.id }),
    auditInsertWhere(
      db,
      {
        tenantId,
        action: NOTE_AUDIT.folderUpdated,
        actorId: viewer.id,
        actorEmail: viewer.email,
        targetType: "note_folder",
        targetId: id,
        payload: { name: cleaned.name },
      },
      and(eq(noteFolders.tenantId, tenantId), eq(noteFolders.id, id))!,
      { from: noteFolders, now },
    ),
  ]);
  return changed.length ? { ok: true as const } : { ok: false as const, code: "folder_not_found" as const };
}

/** Deletes a folder; its notes (every member's) move to no folder in the same batch. */
export async function deleteFolder(env: Env, tenantId: string, viewer: NoteViewer, id: string, now = Date.now()) {
  const db = dbFor(env, tenantId);
  const folder = await db
    .select({ name: noteFolders.name })
    .from(noteFolders)
    .where(and(eq(noteFolders.tenantId, tenantId), eq(noteFolders.id, id)))
    .get();
  if (!folder) return { ok: false as const, code: "folder_not_found" as const };
  await db.batch([
    db
      .update(notes)
      .set({ folderId: null })
      .where(and(eq(notes.tenantId, tenantId), eq(notes.folderId, id))),
    db.delete(noteFolders).where(and(eq(noteFolders.tenantId, tenantId), eq(noteFolders.id, id))),
    auditInsert(
      db,
      {
        tenantId,
        action: NOTE_AUDIT.folderDeleted,
        actorId: viewer.id,
        actorEmail: viewer.email,
        targetType: "note_folder",
        targetId: id,
        payload: { name: folder.name },
      },
      now,
    ),
  ]);
  return { ok: true as const };
}
