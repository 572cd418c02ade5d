/**
 * Drafts kept in the browser (localStorage, keys beginning notesDraft_, one per tenant, person and
 * note): what the form holds, read and written as the spec's local draft record.
 */
import { htmlToText, normaliseTags } from "../note-rules";

/** What the note editor's form holds (also what a browser draft restores). */
export type EditorValues = { title: string; body: string; content: string; tags: string; color: string; folderId: string };

export const DRAFT_KEY_PREFIX = "notesDraft_";

export type LocalDraft = { title: string; content: string; tags: string[]; color: string; folder: string; savedAt: number; draftId: string };

const str = (fd: FormData, name: string) => String(fd.get(name) ?? "");

/** The form as a draft record (content from the rich editor's hidden field). */
export function draftOf(form: HTMLFormElement, draftId: string, now = Date.now()): LocalDraft {
  const fd = new FormData(form);
  return {
    title: str(fd, "title"),
    content: str(fd, "content"),
    tags: normaliseTags(str(fd, "tags")),
    color: str(fd, "color"),
    folder: str(fd, "folderId"),
    savedAt: now,
    draftId,
  };
}

/** Only a draft with a title or some content is worth keeping. */
export const hasWords = (d: LocalDraft) => Boolean(d.title.trim() || htmlToText(d.content).trim());

/** Whether two drafts say the same (their save times aside). */
export const sameDraft = (a: LocalDraft, b: LocalDraft) =>
  a.title === b.title && a.content === b.content && a.tags.join() === b.tags.join() && a.color === b.color && a.folder === b.folder;

export function readDraft(key: string): LocalDraft | null {
  try {
    const raw = JSON.parse(localStorage.getItem(key) ?? "null") as Partial<LocalDraft> | null;
    if (!raw || typeof raw !== "object" || typeof raw.savedAt !== "number") return null;
    const text = (v: unknown) => (typeof v === "string" ? v : "");
    const tags = Array.isArray(raw.tags) ? raw.tags.filter((t): t is string => typeof t === "string") : [];
    const draft = {
      title: text(raw.title),
      content: text(raw.content),
      tags,
      color: text(raw.color),
      folder: text(raw.folder),
      savedAt: raw.savedAt,
      draftId: text(raw.draftId),
    };
    return hasWords(draft) ? draft : null;
  } catch {
    return null;
  }
}

export function writeDraft(key: string, draft: LocalDraft): boolean {
  try {
    localStorage.setItem(key, JSON.stringify(draft));
    return true;
  } catch {
    // Storage full or switched off: the server draft and the form itself still hold the text.
    return false;
  }
}

export function dropDraft(key: string) {
  try {
    localStorage.removeItem(key);
  } catch {
    // Nothing stored, nothing to clear.
  }
}

/** A stored draft as the form's values. */
export function draftValues(d: LocalDraft): EditorValues {
  return { title: d.title, body: htmlToText(d.content), content: d.content, tags: d.tags.join(", "), color: d.color, folderId: d.folder };
}

/** The form's values as a draft record, to compare with a stored one. */
export function valuesDraft(v: EditorValues, draftId: string): LocalDraft {
  return { title: v.title, content: v.content, tags: normaliseTags(v.tags), color: v.color, folder: v.folderId, savedAt: 0, draftId };
}
