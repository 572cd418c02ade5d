/** Duplicating a note: a fresh note of the person's own with the copied words. */
import type { Result } from "~/utils/result";
import type { NoteViewer } from "./access";
import { DEFAULT_NOTE_TITLE, NOTE_LIMITS, type NoteErrorCode } from "./note-rules";
import { createNote, getNote } from "./notes.server";

const SUFFIX = " (Copy)";

/** The copy's title: the original's with ' (Copy)', the original cut short first when both would not fit. */
export function copyTitle(title: string): string {
  return `${(title || DEFAULT_NOTE_TITLE).slice(0, NOTE_LIMITS.title - SUFFIX.length).trimEnd()}${SUFFIX}`;
}

/**
 * Copies a note the person may see (not one in the trash) as a new note they own: same content,
 * tags, colour and folder; unpinned, not bookmarked, shared with nobody, version 1, audited as
 * created. Someone a note is shared with may duplicate it when they may create notes.
 */
export async function duplicateNote(env: Env, tenantId: string, viewer: NoteViewer, id: string): Promise<Result<{ id: string }, NoteErrorCode>> {
  const note = await getNote(env, tenantId, viewer, id);
  if (!note || note.deletedAt !== null) return { ok: false, code: "not_found" };
  const r = await createNote(env, tenantId, viewer, {
    title: copyTitle(note.title),
    content: note.content,
    tags: note.tags,
    color: note.color,
    folderId: note.folderId,
  });
  return r.ok ? { ok: true, id: r.id } : { ok: false, code: r.code };
}
