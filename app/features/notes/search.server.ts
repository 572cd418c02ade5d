/** Full-text search over the notes a person may see: SQLite FTS5, ranked, with highlighted snippets. */
import { and, eq, isNull, sql } from "drizzle-orm";
import { sqliteTable, text } from "drizzle-orm/sqlite-core";
import type { Db } from "~/db/client.server";
import { noteFolders, notes, users } from "~/db/schema";
import type { NoteViewer } from "./access";
import { visibleTo } from "./notes.server";

/** Marks around a match in a snippet; control characters, so no typed text can forge them. */
export const HIT_OPEN = "\u0001";
export const HIT_CLOSE = "\u0002";

/**
 * The search box's words as an FTS5 query: each word a quoted prefix term ("site"* finds
 * 'sites'), all of them required. Quotes are doubled inside a term, so no operator can be typed.
 * Null when nothing searchable is left.
 */
export function ftsQuery(q: string): string | null {
  const words = q
    .normalize("NFKC")
    .split(/[^\p{L}\p{N}_]+/u)
    .filter(Boolean)
    .slice(0, 8);
  if (words.length === 0) return null;
  return words.map((w) => `"${w.replace(/"/g, '""')}"*`).join(" ");
}

/**
 * The FTS5 index (migration 0034, filled by triggers on `notes`). Declared here for queries only:
 * it is not part of the schema drizzle-kit generates from, since it is a virtual table.
 */
const notesFts = sqliteTable("notes_fts", { noteId: text("note_id").notNull(), tenantId: text("tenant_id").notNull() });

/** The best 30 matches the person may see (live notes only), best first: title counts most, then tags, then the text. */
export function searchQuery(db: Db, tenantId: string, viewer: NoteViewer, match: string) {
  return db
    .select({
      id: notes.id,
      title: notes.title,
      titleHl: sql<string>`highlight(${notesFts}, 2, ${HIT_OPEN}, ${HIT_CLOSE})`,
      snippet: sql<string>`snippet(${notesFts}, 3, ${HIT_OPEN}, ${HIT_CLOSE}, '\u2026', 20)`,
      tags: notes.tags,
      color: notes.color,
      folderName: noteFolders.name,
      isPinned: notes.isPinned,
      isFavorite: notes.isFavorite,
      ownerId: notes.ownerId,
      ownerName: users.displayName,
      updatedAt: notes.updatedAt,
    })
    .from(notesFts)
    .innerJoin(notes, eq(notes.id, notesFts.noteId))
    .leftJoin(users, and(eq(users.id, notes.ownerId), eq(users.tenantId, notes.tenantId)))
    .leftJoin(noteFolders, and(eq(noteFolders.id, notes.folderId), eq(noteFolders.tenantId, notes.tenantId)))
    .where(and(sql`${notesFts} MATCH ${match}`, eq(notesFts.tenantId, tenantId), eq(notes.tenantId, tenantId), isNull(notes.deletedAt), visibleTo(viewer)))
    .orderBy(sql`bm25(${notesFts}, 0.0, 0.0, 10.0, 1.0, 4.0)`)
    .limit(30);
}

/** A snippet split into plain runs and matches, for rendering as text with <mark> around the matches. */
export function snippetParts(s: string): { text: string; hit: boolean }[] {
  const parts: { text: string; hit: boolean }[] = [];
  for (const [i, chunk] of s.split(HIT_OPEN).entries()) {
    if (i === 0) {
      if (chunk) parts.push({ text: chunk, hit: false });
      continue;
    }
    const [hit, rest] = chunk.split(HIT_CLOSE);
    if (hit) parts.push({ text: hit, hit: true });
    if (rest) parts.push({ text: rest, hit: false });
  }
  return parts;
}
