/** What a notes list page reads, in one D1 batch. */
import { dbFor } from "~/db/client.server";
import type { NoteViewer } from "./access";
import { viewModeQuery } from "./drafts.server";
import type { ListNote } from "./components/note-list";
import { countQuery, decodeCursor, listQuery, noteQuery, pageOf, type NoteListKind, type NoteListRow, type NoteRow } from "./notes.server";
import { sanitiseNoteHtml } from "./sanitise.server";
import { formatDateTime } from "~/utils/dates";
import { ftsQuery, searchQuery, snippetParts } from "./search.server";
import { dateLabels } from "./note-dates.server";

const parseTags = (t: unknown): string[] => (Array.isArray(t) ? t : typeof t === "string" ? (JSON.parse(t) as string[]) : []);

/** The note opened beside the list (side mode), as the reader shows it: its HTML through the allow-list again. */
function sideNote(found: NoteRow[]) {
  const n = found[0];
  if (!n || n.deletedAt !== null) return null;
  return {
    id: n.id,
    title: n.title,
    html: sanitiseNoteHtml(n.content),
    tags: n.tags,
    folderName: n.folderName,
    ownerName: n.ownerName,
    updated: formatDateTime(n.updatedAt),
  };
}

/**
 * A list page's reads in one batch: a page of notes (or the search hits), the count, the person's
 * grid/list choice, and with `?side={id}` the note to show beside the list (one it may see).
 */
export async function loadList(env: Env, tenantId: string, viewer: NoteViewer, kind: NoteListKind, params: URLSearchParams, folderId: string | null = null) {
  const db = dbFor(env, tenantId);
  const now = Date.now();
  const q = (params.get("q") ?? "").slice(0, 200).trim();
  const match = kind !== "trash" ? ftsQuery(q) : null;
  const cursor = decodeCursor(params.get("after"));
  const side = noteQuery(db, tenantId, viewer, (params.get("side") ?? "").slice(0, 64));
  if (match) {
    const [found, pref, opened] = await db.batch([searchQuery(db, tenantId, viewer, match), viewModeQuery(db, tenantId, viewer.id), side]);
    const rows: ListNote[] = found.map((r) => ({
      id: r.id,
      title: r.title,
      titleParts: snippetParts(r.titleHl),
      text: "",
      snippet: snippetParts(r.snippet),
      hasLinks: false,
      tags: parseTags(r.tags),
      color: r.color,
      folderName: r.folderName,
      isPinned: r.isPinned,
      isFavorite: r.isFavorite,
      ownerId: r.ownerId,
      ownerName: r.ownerName,
      sharedCount: 0,
      updatedAt: r.updatedAt,
      deletedAt: null,
      ...dateLabels(r.updatedAt, now),
    }));
    return { q, searching: true, rows, total: rows.length, next: null, view: pref[0]?.viewMode ?? "grid", side: sideNote(opened) };
  }
  const [list, count, pref, opened] = await db.batch([
    listQuery(db, tenantId, viewer, kind, { folderId, cursor }),
    countQuery(db, tenantId, viewer, kind, folderId),
    viewModeQuery(db, tenantId, viewer.id),
    side,
  ]);
  const page = pageOf(list);
  const rows = toListNotes(page.rows, now);
  return { q, searching: false, rows, total: Number(count[0]?.n ?? 0), next: page.next, view: pref[0]?.viewMode ?? "grid", side: sideNote(opened) };
}

/** List rows as the page shows them, with their dates worked out here. */
export function toListNotes(rows: NoteListRow[], now = Date.now()): ListNote[] {
  return rows.map((r) => ({
    ...r,
    tags: parseTags(r.tags),
    hasLinks: Boolean(r.hasLinks),
    sharedCount: Number(r.sharedCount),
    ...dateLabels(r.updatedAt, now),
  }));
}
