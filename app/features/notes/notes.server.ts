/** Notes: reading what a person may see, and every change with its audit entry in one D1 batch. */
import type { BatchItem } from "drizzle-orm/batch";
import { and, desc, eq, inArray, isNotNull, isNull, lt, ne, or, sql, type SQL } from "drizzle-orm";
import { dbFor, sumOverShards, type Db } from "~/db/client.server";
import { noteFolders, notes, noteShares, noteVersions, notifications, users } from "~/db/schema";
import { insertWhere } from "~/db/insert-where.server";
import { auditInsert, auditInsertWhere, type AuditAction } from "~/features/platform/index.server";
import { newId } from "~/utils/ids";
import type { Result } from "~/utils/result";
import { ellipsize } from "~/utils/text";
import { notePermissions, type NoteViewer } from "./access";
import { BRAND_COLOUR, DEFAULT_NOTE_TITLE, htmlToText, NOTE_LIMITS, normaliseTags, type NoteErrorCode } from "./note-rules";
import { sanitiseNoteHtml } from "./sanitise.server";

export const NOTE_AUDIT = {
  created: "notes.note.created",
  edited: "notes.note.edited",
  shared: "notes.note.shared",
  unshared: "notes.note.unshared",
  trashed: "notes.note.trashed",
  restored: "notes.note.restored",
  purged: "notes.note.purged",
  versionRestored: "notes.note.version_restored",
  folderCreated: "notes.folder.created",
  folderUpdated: "notes.folder.updated",
  folderDeleted: "notes.folder.deleted",
} as const satisfies Record<string, AuditAction>;

/** A note the person may see: they own it, it is shared with them, or they manage every note. */
export function visibleTo(viewer: NoteViewer): SQL | undefined {
  if (viewer.manageAll) return undefined;
  return or(eq(notes.ownerId, viewer.id), sharedWith(viewer.id));
}

export function sharedWith(userId: string): SQL {
  return sql`EXISTS (SELECT 1 FROM ${noteShares} WHERE ${noteShares.noteId} = ${notes.id} AND ${noteShares.tenantId} = ${notes.tenantId} AND ${noteShares.userId} = ${userId})`;
}

/** What a person typed, before it is checked. */
export type NoteInput = { title: string; content: string; tags: readonly string[] | string; color: string | null; folderId: string | null };

type Cleaned = { title: string; content: string; text: string; tags: string[]; color: string | null; folderId: string | null };

/** Sanitises and checks a note's fields: HTML through the allow-list, tags normalised, a title or content required. */
export function cleanNote(input: NoteInput): Result<{ note: Cleaned }, NoteErrorCode> {
  const title = input.title.replace(/\s+/g, " ").trim();
  if (title.length > NOTE_LIMITS.title) return { ok: false, code: "title_too_long" };
  if (input.content.length > NOTE_LIMITS.content) return { ok: false, code: "content_too_long" };
  const content = sanitiseNoteHtml(input.content);
  const text = htmlToText(content);
  if (!title && !text) return { ok: false, code: "empty" };
  const color = input.color && input.color.toUpperCase() !== BRAND_COLOUR ? input.color.toUpperCase() : null;
  return { ok: true, note: { title, content, text, tags: normaliseTags(input.tags), color, folderId: input.folderId || null } };
}

function folderExists(db: Db, tenantId: string, folderId: string) {
  return db
    .select({ id: noteFolders.id })
    .from(noteFolders)
    .where(and(eq(noteFolders.tenantId, tenantId), eq(noteFolders.id, folderId)));
}

const noteColumns = {
  id: notes.id,
  title: notes.title,
  content: notes.content,
  text: notes.text,
  tags: notes.tags,
  color: notes.color,
  folderId: notes.folderId,
  isPinned: notes.isPinned,
  isFavorite: notes.isFavorite,
  ownerId: notes.ownerId,
  version: notes.version,
  createdAt: notes.createdAt,
  updatedAt: notes.updatedAt,
  deletedAt: notes.deletedAt,
  ownerName: users.displayName,
  folderName: noteFolders.name,
};

/** One note the person may see (trashed ones too), with its owner's and folder's names; undefined otherwise. */
export function noteQuery(db: Db, tenantId: string, viewer: NoteViewer, id: string) {
  return db
    .select(noteColumns)
    .from(notes)
    .leftJoin(users, and(eq(users.id, notes.ownerId), eq(users.tenantId, notes.tenantId)))
    .leftJoin(noteFolders, and(eq(noteFolders.id, notes.folderId), eq(noteFolders.tenantId, notes.tenantId)))
    .where(and(eq(notes.tenantId, tenantId), eq(notes.id, id), visibleTo(viewer)));
}
export type NoteRow = Awaited<ReturnType<typeof noteQuery>>[number];

export async function getNote(env: Env, tenantId: string, viewer: NoteViewer, id: string): Promise<NoteRow | undefined> {
  return (await noteQuery(dbFor(env, tenantId), tenantId, viewer, id))[0];
}

/** Creates a note owned by the person, its first version and the audit entry; a server draft it came from goes with it. */
export async function createNote(
  env: Env,
  tenantId: string,
  viewer: NoteViewer,
  input: NoteInput,
  opts: { now?: number; dropDraft?: (db: Db) => BatchItem<"sqlite"> } = {},
): Promise<Result<{ id: string }, NoteErrorCode, { field?: string }>> {
  const now = opts.now ?? Date.now();
  const cleaned = cleanNote(input);
  if (!cleaned.ok) return cleaned;
  const { note } = cleaned;
  const db = dbFor(env, tenantId);
  if (note.folderId && (await folderExists(db, tenantId, note.folderId)).length === 0) return { ok: false, code: "folder_not_found", field: "folderId" };
  const id = newId();
  await db.batch([
    db.insert(notes).values({ id, tenantId, ...note, ownerId: viewer.id, updatedBy: viewer.id, version: 1, createdAt: now, updatedAt: now }),
    versionInsert(db, tenantId, id, 1, note, viewer.id, now),
    auditInsert(
      db,
      {
        tenantId,
        action: NOTE_AUDIT.created,
        actorId: viewer.id,
        actorEmail: viewer.email,
        targetType: "note",
        targetId: id,
        payload: { name: note.title || DEFAULT_NOTE_TITLE },
      },
      now,
    ),
    ...(opts.dropDraft ? [opts.dropDraft(db)] : []),
  ]);
  return { ok: true, id };
}

function versionInsert(db: Db, tenantId: string, noteId: string, version: number, note: Pick<Cleaned, "title" | "content" | "tags">, by: string, now: number) {
  return db
    .insert(noteVersions)
    .values({ id: newId(), tenantId, noteId, version, title: note.title, content: note.content, tags: note.tags, editedBy: by, createdAt: now });
}

/**
 * Saves an edit made from version `baseVersion`. If the note has moved on since (someone else
 * saved it), nothing is written and the edit is refused as a conflict: the caller keeps the
 * person's text. The UPDATE itself checks the version, so two saves racing cannot both land; the
 * version row and audit entry are written only when this save's UPDATE did (same batch).
 */
export async function updateNote(
  env: Env,
  tenantId: string,
  viewer: NoteViewer,
  id: string,
  input: NoteInput & { baseVersion: number },
  now = Date.now(),
  action: AuditAction = NOTE_AUDIT.edited,
): Promise<Result<{ version: number }, NoteErrorCode, { field?: string; current?: number }>> {
  const db = dbFor(env, tenantId);
  const [existing] = await noteQuery(db, tenantId, viewer, id);
  if (!existing || existing.deletedAt !== null) return { ok: false, code: "not_found" };
  if (!notePermissions(viewer, existing).edit) return { ok: false, code: "no_edit" };
  const cleaned = cleanNote(input);
  if (!cleaned.ok) return cleaned;
  const { note } = cleaned;
  if (existing.version !== input.baseVersion) return { ok: false, code: "version_conflict", current: existing.version };
  if (note.folderId && note.folderId !== existing.folderId && (await folderExists(db, tenantId, note.folderId)).length === 0) {
    return { ok: false, code: "folder_not_found", field: "folderId" };
  }
  const next = input.baseVersion + 1;
  const landed = and(eq(notes.tenantId, tenantId), eq(notes.id, id), eq(notes.version, next), eq(notes.updatedAt, now), eq(notes.updatedBy, viewer.id))!;
  const [updated] = await db.batch([
    db
      .update(notes)
      .set({ ...note, version: next, updatedAt: now, updatedBy: viewer.id })
      .where(and(eq(notes.tenantId, tenantId), eq(notes.id, id), eq(notes.version, input.baseVersion), isNull(notes.deletedAt)))
      .returning({ version: notes.version }),
    insertWhere(
      db,
      noteVersions,
      {
        id: newId(),
        tenantId,
        noteId: id,
        version: next,
        title: note.title,
        content: note.content,
        tags: JSON.stringify(note.tags),
        editedBy: viewer.id,
        createdAt: now,
      },
      landed,
      { from: notes },
    ),
    db
      .delete(noteVersions)
      .where(and(eq(noteVersions.tenantId, tenantId), eq(noteVersions.noteId, id), sql`${noteVersions.version} <= ${next - NOTE_LIMITS.versionsKept}`)),
    auditInsertWhere(
      db,
      {
        tenantId,
        action,
        actorId: viewer.id,
        actorEmail: viewer.email,
        targetType: "note",
        targetId: id,
        payload: { name: note.title || DEFAULT_NOTE_TITLE, version: next },
      },
      landed,
      { from: notes, now },
    ),
  ]);
  if (updated.length === 0) {
    const [now2] = await noteQuery(db, tenantId, viewer, id);
    return { ok: false, code: now2 && now2.deletedAt === null ? "version_conflict" : "not_found", current: now2?.version };
  }
  return { ok: true, version: next };
}

/** Pin or favourite: a flag of the note, toggled by anyone who may edit it (no new version). */
export async function setFlag(env: Env, tenantId: string, viewer: NoteViewer, id: string, flag: "isPinned" | "isFavorite", value: boolean) {
  const db = dbFor(env, tenantId);
  const [existing] = await noteQuery(db, tenantId, viewer, id);
  if (!existing || existing.deletedAt !== null) return { ok: false as const, code: "not_found" as const };
  if (!notePermissions(viewer, existing).edit) return { ok: false as const, code: "no_edit" as const };
  await db
    .update(notes)
    .set({ [flag]: value })
    .where(and(eq(notes.tenantId, tenantId), eq(notes.id, id)));
  return { ok: true as const };
}

function audit(db: Db, tenantId: string, viewer: NoteViewer, action: AuditAction, id: string, payload: Record<string, unknown>, now: number) {
  return auditInsert(db, { tenantId, action, actorId: viewer.id, actorEmail: viewer.email, targetType: "note", targetId: id, payload }, now);
}

/** Moves a note to the trash (owner or manager of all notes, with notes.delete). */
export async function trashNote(env: Env, tenantId: string, viewer: NoteViewer, id: string, now = Date.now()): Promise<Result<void, NoteErrorCode>> {
  const db = dbFor(env, tenantId);
  const [existing] = await noteQuery(db, tenantId, viewer, id);
  if (!existing || existing.deletedAt !== null) return { ok: false, code: "not_found" };
  if (!notePermissions(viewer, existing).delete) return { ok: false, code: "no_delete" };
  await db.batch([
    db
      .update(notes)
      .set({ deletedAt: now, isPinned: false })
      .where(and(eq(notes.tenantId, tenantId), eq(notes.id, id), isNull(notes.deletedAt))),
    audit(db, tenantId, viewer, NOTE_AUDIT.trashed, id, { name: existing.title || DEFAULT_NOTE_TITLE }, now),
  ]);
  return { ok: true };
}

export async function restoreNote(env: Env, tenantId: string, viewer: NoteViewer, id: string, now = Date.now()): Promise<Result<void, NoteErrorCode>> {
  const db = dbFor(env, tenantId);
  const [existing] = await noteQuery(db, tenantId, viewer, id);
  if (!existing) return { ok: false, code: "not_found" };
  if (existing.deletedAt === null) return { ok: false, code: "not_in_trash" };
  if (!notePermissions(viewer, existing).delete) return { ok: false, code: "no_delete" };
  await db.batch([
    db
      .update(notes)
      .set({ deletedAt: null, updatedAt: now })
      .where(and(eq(notes.tenantId, tenantId), eq(notes.id, id), isNotNull(notes.deletedAt))),
    audit(db, tenantId, viewer, NOTE_AUDIT.restored, id, { name: existing.title || DEFAULT_NOTE_TITLE }, now),
  ]);
  return { ok: true };
}

/** The statements that remove notes for good: their versions, shares and rows (the search index follows by trigger). */
function purgeStatements(db: Db, tenantId: string, ids: readonly string[]) {
  return [
    db.delete(noteVersions).where(and(eq(noteVersions.tenantId, tenantId), inArray(noteVersions.noteId, [...ids]))),
    db.delete(noteShares).where(and(eq(noteShares.tenantId, tenantId), inArray(noteShares.noteId, [...ids]))),
    db.delete(notes).where(and(eq(notes.tenantId, tenantId), inArray(notes.id, [...ids]), isNotNull(notes.deletedAt))),
  ] as const;
}

/** Deletes a trashed note for good: its creator (or a manager of all notes) with notes.delete. */
export async function purgeNote(env: Env, tenantId: string, viewer: NoteViewer, id: string, now = Date.now()): Promise<Result<void, NoteErrorCode>> {
  const db = dbFor(env, tenantId);
  const [existing] = await noteQuery(db, tenantId, viewer, id);
  if (!existing) return { ok: false, code: "not_found" };
  if (existing.deletedAt === null) return { ok: false, code: "not_in_trash" };
  if (!notePermissions(viewer, existing).delete) return { ok: false, code: "no_delete" };
  await db.batch([
    ...purgeStatements(db, tenantId, [id]),
    audit(db, tenantId, viewer, NOTE_AUDIT.purged, id, { name: existing.title || DEFAULT_NOTE_TITLE }, now),
  ]);
  return { ok: true };
}

/** Empty Trash: every trashed note the person may delete for good; how many went. */
export async function emptyTrash(env: Env, tenantId: string, viewer: NoteViewer, now = Date.now()): Promise<Result<{ purged: number }, NoteErrorCode>> {
  if (!viewer.delete) return { ok: false, code: "no_delete" };
  const db = dbFor(env, tenantId);
  const rows = await db
    .select({ id: notes.id, title: notes.title })
    .from(notes)
    .where(and(eq(notes.tenantId, tenantId), isNotNull(notes.deletedAt), viewer.manageAll ? undefined : eq(notes.ownerId, viewer.id)))
    .limit(500);
  if (rows.length === 0) return { ok: true, purged: 0 };
  const ids = rows.map((r) => r.id);
  await db.batch([
    ...purgeStatements(db, tenantId, ids),
    ...rows.map((r) => audit(db, tenantId, viewer, NOTE_AUDIT.purged, r.id, { name: r.title || DEFAULT_NOTE_TITLE }, now)),
  ]);
  return { ok: true, purged: rows.length };
}

/** The tenant's other active members, for the Share Note dialog. */
export function shareCandidatesQuery(db: Db, tenantId: string, viewer: NoteViewer) {
  return db
    .select({ id: users.id, name: users.displayName, email: users.email })
    .from(users)
    .where(and(eq(users.tenantId, tenantId), ne(users.id, viewer.id), eq(users.disabled, false)))
    .orderBy(users.displayName)
    .limit(200);
}

/** Who a note is shared with. */
export function sharesQuery(db: Db, tenantId: string, noteId: string) {
  return db
    .select({ userId: noteShares.userId, name: users.displayName })
    .from(noteShares)
    .innerJoin(users, and(eq(users.id, noteShares.userId), eq(users.tenantId, noteShares.tenantId)))
    .where(and(eq(noteShares.tenantId, tenantId), eq(noteShares.noteId, noteId)))
    .orderBy(users.displayName);
}

/**
 * Shares a note with members of the tenant: one share row and one `noteShare` notification per new
 * recipient (linking to /notes?note={id}), and the audit entry, in one batch.
 */
export async function shareNote(
  env: Env,
  tenantId: string,
  viewer: NoteViewer,
  id: string,
  userIds: readonly string[],
  now = Date.now(),
): Promise<Result<{ recipients: number }, NoteErrorCode, { field?: string }>> {
  const db = dbFor(env, tenantId);
  const [existing] = await noteQuery(db, tenantId, viewer, id);
  if (!existing || existing.deletedAt !== null) return { ok: false, code: "not_found" };
  if (!notePermissions(viewer, existing).share) return { ok: false, code: "no_share" };
  const wanted = [...new Set(userIds)].filter((u) => u !== viewer.id && u !== existing.ownerId).slice(0, 200);
  const found =
    wanted.length === 0
      ? []
      : await db
          .select({ id: users.id })
          .from(users)
          .where(and(eq(users.tenantId, tenantId), inArray(users.id, wanted), eq(users.disabled, false)));
  const recipients = found.map((r) => r.id);
  if (recipients.length === 0) return { ok: false, code: "no_recipients", field: "userIds" };
  const name = existing.title || DEFAULT_NOTE_TITLE;
  // A person it is already shared with gets no second notification: each is inserted only when the share row is new.
  await db.batch([
    audit(db, tenantId, viewer, NOTE_AUDIT.shared, id, { name, sharedWith: recipients }, now),
    ...recipients.map((userId) =>
      insertWhere(
        db,
        notifications,
        {
          id: newId(),
          tenantId,
          targetUserId: userId,
          type: "noteShare",
          title: `${ellipsize(viewer.name)} shared a note with you`,
          message: ellipsize(name),
          link: `/notes?note=${id}`,
          subjectType: "note",
          subjectId: id,
          fromUserId: viewer.id,
          read: 0,
          createdAt: now,
        },
        sql`NOT EXISTS (SELECT 1 FROM ${noteShares} WHERE ${noteShares.tenantId} = ${tenantId} AND ${noteShares.noteId} = ${id} AND ${noteShares.userId} = ${userId})`,
      ),
    ),
    ...recipients.map((userId) => db.insert(noteShares).values({ tenantId, noteId: id, userId, sharedBy: viewer.id, createdAt: now }).onConflictDoNothing()),
  ]);
  return { ok: true, recipients: recipients.length };
}

export async function unshareNote(
  env: Env,
  tenantId: string,
  viewer: NoteViewer,
  id: string,
  userId: string,
  now = Date.now(),
): Promise<Result<void, NoteErrorCode>> {
  const db = dbFor(env, tenantId);
  const [existing] = await noteQuery(db, tenantId, viewer, id);
  if (!existing || existing.deletedAt !== null) return { ok: false, code: "not_found" };
  if (!notePermissions(viewer, existing).share) return { ok: false, code: "no_share" };
  await db.batch([
    db.delete(noteShares).where(and(eq(noteShares.tenantId, tenantId), eq(noteShares.noteId, id), eq(noteShares.userId, userId))),
    audit(db, tenantId, viewer, NOTE_AUDIT.unshared, id, { name: existing.title || DEFAULT_NOTE_TITLE, userId }, now),
  ]);
  return { ok: true };
}

/** The kept versions of a note, newest first. */
export function versionsQuery(db: Db, tenantId: string, noteId: string) {
  return db
    .select({ version: noteVersions.version, title: noteVersions.title, editedBy: users.displayName, createdAt: noteVersions.createdAt })
    .from(noteVersions)
    .leftJoin(users, and(eq(users.id, noteVersions.editedBy), eq(users.tenantId, noteVersions.tenantId)))
    .where(and(eq(noteVersions.tenantId, tenantId), eq(noteVersions.noteId, noteId)))
    .orderBy(desc(noteVersions.version))
    .limit(NOTE_LIMITS.versionsKept);
}

/** Restores a kept version: saved as a new version on top of the current one (nothing is lost). */
export async function restoreVersion(env: Env, tenantId: string, viewer: NoteViewer, id: string, version: number, baseVersion: number, now = Date.now()) {
  const db = dbFor(env, tenantId);
  const [existing] = await noteQuery(db, tenantId, viewer, id);
  if (!existing || existing.deletedAt !== null) return { ok: false as const, code: "not_found" as const };
  const old = await db
    .select()
    .from(noteVersions)
    .where(and(eq(noteVersions.tenantId, tenantId), eq(noteVersions.noteId, id), eq(noteVersions.version, version)))
    .get();
  if (!old) return { ok: false as const, code: "version_not_found" as const };
  return updateNote(
    env,
    tenantId,
    viewer,
    id,
    { title: old.title, content: old.content, tags: old.tags, color: existing.color, folderId: existing.folderId, baseVersion },
    now,
    NOTE_AUDIT.versionRestored,
  );
}

/** Which notes a list shows. */
export type NoteListKind = "all" | "shared" | "bookmarks" | "trash" | "folder";

/** Where a page of a list starts: after this note in the list's order (pinned first, newest update first). */
export type NoteCursor = { pinned: boolean; updatedAt: number; id: string };

export function encodeCursor(c: NoteCursor): string {
  return `${c.pinned ? 1 : 0}.${c.updatedAt}.${c.id}`;
}
export function decodeCursor(s: string | null): NoteCursor | null {
  const m = s ? /^([01])\.(\d{1,15})\.([\w-]{1,64})$/.exec(s) : null;
  return m ? { pinned: m[1] === "1", updatedAt: Number(m[2]), id: m[3]! } : null;
}

const listColumns = {
  id: notes.id,
  title: notes.title,
  text: sql<string>`substr(${notes.text}, 1, 300)`,
  hasLinks: sql<number>`instr(${notes.content}, '<a ') > 0`,
  tags: notes.tags,
  color: notes.color,
  folderId: notes.folderId,
  isPinned: notes.isPinned,
  isFavorite: notes.isFavorite,
  ownerId: notes.ownerId,
  updatedAt: notes.updatedAt,
  deletedAt: notes.deletedAt,
  ownerName: users.displayName,
  folderName: noteFolders.name,
  sharedCount: sql<number>`(SELECT COUNT(*) FROM ${noteShares} WHERE ${noteShares.noteId} = ${notes.id} AND ${noteShares.tenantId} = ${notes.tenantId})`,
};

function listCondition(tenantId: string, viewer: NoteViewer, kind: NoteListKind, folderId: string | null): SQL | undefined {
  const base = eq(notes.tenantId, tenantId);
  switch (kind) {
    case "trash":
      return and(base, isNotNull(notes.deletedAt), viewer.manageAll ? undefined : eq(notes.ownerId, viewer.id));
    case "shared":
      return and(base, isNull(notes.deletedAt), sharedWith(viewer.id));
    case "bookmarks":
      return and(base, isNull(notes.deletedAt), eq(notes.isFavorite, true), visibleTo(viewer));
    case "folder":
      return and(base, isNull(notes.deletedAt), eq(notes.folderId, folderId ?? ""), visibleTo(viewer));
    default:
      return and(base, isNull(notes.deletedAt), visibleTo(viewer));
  }
}

/**
 * One page of a list in its order (pinned first, then newest update), starting after `cursor`:
 * a keyset page, so the 200th page costs what the first does. Reads one more row than shown to
 * know whether there is a next page.
 */
export function listQuery(
  db: Db,
  tenantId: string,
  viewer: NoteViewer,
  kind: NoteListKind,
  opts: { folderId?: string | null; cursor?: NoteCursor | null } = {},
) {
  const c = opts.cursor;
  const after = c ? sql`(${notes.isPinned}, ${notes.updatedAt}, ${notes.id}) < (${c.pinned ? 1 : 0}, ${c.updatedAt}, ${c.id})` : undefined;
  return db
    .select(listColumns)
    .from(notes)
    .leftJoin(users, and(eq(users.id, notes.ownerId), eq(users.tenantId, notes.tenantId)))
    .leftJoin(noteFolders, and(eq(noteFolders.id, notes.folderId), eq(noteFolders.tenantId, notes.tenantId)))
    .where(and(listCondition(tenantId, viewer, kind, opts.folderId ?? null), after))
    .orderBy(desc(notes.isPinned), desc(notes.updatedAt), desc(notes.id))
    .limit(NOTE_LIMITS.pageSize + 1);
}
export type NoteListRow = Awaited<ReturnType<typeof listQuery>>[number];

export function countQuery(db: Db, tenantId: string, viewer: NoteViewer, kind: NoteListKind, folderId: string | null = null) {
  return db
    .select({ n: sql<number>`COUNT(*)` })
    .from(notes)
    .where(listCondition(tenantId, viewer, kind, folderId));
}

/** Splits the extra row off a page: the rows to show and the cursor of the next page, if any. */
export function pageOf(rows: NoteListRow[]): { rows: NoteListRow[]; next: string | null } {
  if (rows.length <= NOTE_LIMITS.pageSize) return { rows, next: null };
  const shown = rows.slice(0, NOTE_LIMITS.pageSize);
  const last = shown[shown.length - 1]!;
  return { rows: shown, next: encodeCursor({ pinned: last.isPinned, updatedAt: last.updatedAt, id: last.id }) };
}

/** Trashed notes older than the trash period, whichever tenant (not suspended ones), on every shard: deleted for good by the daily task. */
export async function purgeExpiredTrash(env: Env, now = Date.now(), limit = 500): Promise<number> {
  return sumOverShards(env, (db) => purgeExpiredTrashIn(db, now, limit));
}

async function purgeExpiredTrashIn(db: Db, now: number, limit: number): Promise<number> {
  const cutoff = now - NOTE_LIMITS.trashDays * 86_400_000;
  const rows = await db
    .select({ id: notes.id, tenantId: notes.tenantId, title: notes.title })
    .from(notes)
    .where(
      and(
        isNotNull(notes.deletedAt),
        lt(notes.deletedAt, cutoff),
        sql`NOT EXISTS (SELECT 1 FROM tenants WHERE tenants.id = ${notes.tenantId} AND tenants.suspended_at IS NOT NULL)`,
      ),
    )
    .limit(limit);
  const byTenant = new Map<string, typeof rows>();
  for (const r of rows) byTenant.set(r.tenantId, [...(byTenant.get(r.tenantId) ?? []), r]);
  for (const [tenantId, list] of byTenant) {
    await db.batch([
      ...purgeStatements(
        db,
        tenantId,
        list.map((r) => r.id),
      ),
      ...list.map((r) =>
        auditInsert(
          db,
          {
            tenantId,
            action: NOTE_AUDIT.purged,
            targetType: "note",
            targetId: r.id,
            payload: { name: r.title || DEFAULT_NOTE_TITLE, reason: "trash_expired" },
          },
          now,
        ),
      ),
    ]);
  }
  return rows.length;
}
