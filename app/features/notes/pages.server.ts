/** What the notes pages read: each page's reads in one D1 batch. */
import { dbFor } from "~/db/client.server";
import { formatDate, formatDateTime } from "~/utils/dates";
import { toUsage, usageQuery } from "~/features/files/index.server";
import type { NoteViewer } from "./access";
import { draftsQuery, viewModeQuery } from "./drafts.server";
import { folderPreviewsQuery, foldersQuery } from "./folders.server";
import { preview } from "./note-rules";
import { toListNotes } from "./lists.server";
import { countQuery, decodeCursor, listQuery, noteQuery, pageOf, shareCandidatesQuery, sharesQuery, versionsQuery } from "./notes.server";

/** The new-note editor: the folders to file in and the person's server drafts. */
export async function newNotePage(env: Env, tenantId: string, viewer: NoteViewer) {
  const db = dbFor(env, tenantId);
  const [folders, drafts] = await db.batch([foldersQuery(db, tenantId, viewer), draftsQuery(db, tenantId, viewer.id)]);
  return { folders, drafts };
}

/** One note with who it is shared with, who it could be shared with, its history and the folders; `note` undefined when the person may not see it. */
export async function notePage(env: Env, tenantId: string, viewer: NoteViewer, id: string) {
  const db = dbFor(env, tenantId);
  const [found, shares, candidates, versions, folders] = await db.batch([
    noteQuery(db, tenantId, viewer, id),
    sharesQuery(db, tenantId, id),
    shareCandidatesQuery(db, tenantId, viewer),
    versionsQuery(db, tenantId, id),
    foldersQuery(db, tenantId, viewer),
  ]);
  const note = found[0];
  // Nothing about a note the person may not see leaves this function.
  if (!note) return { note: undefined, shares: [], candidates: [], versions: [], folders };
  return {
    note: { ...note, updated: formatDateTime(note.updatedAt) },
    shares,
    candidates,
    versions: versions.map((v) => ({ ...v, saved: formatDateTime(v.createdAt) })),
    folders,
  };
}

/** The folders with their counts, newest notes and the storage meter, and (inside a folder) a page of its notes. */
export async function foldersPage(env: Env, tenantId: string, viewer: NoteViewer, folderId: string | null, after: string | null) {
  const db = dbFor(env, tenantId);
  const [folders, usage, list, count, pref, previews] = await db.batch([
    foldersQuery(db, tenantId, viewer),
    usageQuery(db, tenantId),
    listQuery(db, tenantId, viewer, "folder", { folderId: folderId ?? "", cursor: decodeCursor(after) }),
    countQuery(db, tenantId, viewer, "folder", folderId ?? ""),
    viewModeQuery(db, tenantId, viewer.id),
    // The newest notes of each folder, for the root's list view where each folder expands.
    folderPreviewsQuery(db, tenantId, viewer),
  ]);
  const page = pageOf(list);
  return {
    folders,
    previews: previews.map((p) => ({ ...p, preview: preview(p.text, 100), date: formatDate(p.updatedAt) })),
    usage: toUsage(usage[0], 0),
    page: { rows: toListNotes(page.rows), next: page.next },
    total: Number(count[0]?.n ?? 0),
    view: pref[0]?.viewMode ?? "grid",
  };
}
