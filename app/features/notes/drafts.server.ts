/** Server drafts of new notes, per person: they survive a lost signal or a change of device. */
import { and, desc, eq, sql } from "drizzle-orm";
import { dbFor, type Db } from "~/db/client.server";
import { noteDrafts, notePreferences } from "~/db/schema";
import { newId } from "~/utils/ids";
import { NOTE_LIMITS, normaliseTags } from "./note-rules";
import { sanitiseNoteHtml } from "./sanitise.server";
import { htmlToText } from "./note-rules";

export type DraftInput = { title: string; content: string; tags: string; color: string | null; folderId: string | null };

/**
 * Saves a draft (a new one, or over `draftId` when it is the person's own). A draft with neither
 * title nor content is not kept. Returns the draft's id, or null when nothing was worth keeping.
 */
export async function saveDraft(
  env: Env,
  tenantId: string,
  userId: string,
  draftId: string | null,
  input: DraftInput,
  now = Date.now(),
): Promise<string | null> {
  const title = input.title.trim().slice(0, NOTE_LIMITS.title);
  const content = sanitiseNoteHtml(input.content.slice(0, NOTE_LIMITS.content));
  if (!title && !htmlToText(content)) return null;
  const values = { title, content, tags: normaliseTags(input.tags), color: input.color || null, folderId: input.folderId || null, savedAt: now };
  const db = dbFor(env, tenantId);
  if (draftId) {
    const updated = await db
      .update(noteDrafts)
      .set(values)
      .where(and(eq(noteDrafts.tenantId, tenantId), eq(noteDrafts.userId, userId), eq(noteDrafts.id, draftId)))
      .returning({ id: noteDrafts.id });
    if (updated.length) return draftId;
  }
  const id = newId();
  await db.insert(noteDrafts).values({ id, tenantId, userId, ...values });
  return id;
}

export function draftsQuery(db: Db, tenantId: string, userId: string) {
  return db
    .select()
    .from(noteDrafts)
    .where(and(eq(noteDrafts.tenantId, tenantId), eq(noteDrafts.userId, userId)))
    .orderBy(desc(noteDrafts.savedAt))
    .limit(NOTE_LIMITS.draftsShown);
}

export function draftCountQuery(db: Db, tenantId: string, userId: string) {
  return db
    .select({ n: sql<number>`COUNT(*)` })
    .from(noteDrafts)
    .where(and(eq(noteDrafts.tenantId, tenantId), eq(noteDrafts.userId, userId)));
}

/** The delete of one of the person's drafts, as a statement (saving a note from a draft removes it in the same batch). */
export function dropDraftStatement(db: Db, tenantId: string, userId: string, draftId: string) {
  return db.delete(noteDrafts).where(and(eq(noteDrafts.tenantId, tenantId), eq(noteDrafts.userId, userId), eq(noteDrafts.id, draftId)));
}

export async function deleteDraft(env: Env, tenantId: string, userId: string, draftId: string) {
  const db = dbFor(env, tenantId);
  await dropDraftStatement(db, tenantId, userId, draftId);
}

export async function clearDrafts(env: Env, tenantId: string, userId: string) {
  const db = dbFor(env, tenantId);
  await db.delete(noteDrafts).where(and(eq(noteDrafts.tenantId, tenantId), eq(noteDrafts.userId, userId)));
}

/** The person's grid/list choice for the notes lists. */
export function viewModeQuery(db: Db, tenantId: string, userId: string) {
  return db
    .select({ viewMode: notePreferences.viewMode })
    .from(notePreferences)
    .where(and(eq(notePreferences.tenantId, tenantId), eq(notePreferences.userId, userId)));
}

export async function setViewMode(env: Env, tenantId: string, userId: string, viewMode: "grid" | "list", now = Date.now()) {
  const db = dbFor(env, tenantId);
  await db
    .insert(notePreferences)
    .values({ tenantId, userId, viewMode, updatedAt: now })
    .onConflictDoUpdate({ target: [notePreferences.tenantId, notePreferences.userId], set: { viewMode, updatedAt: now } });
}
