import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";

/** A note folder: a flat list per tenant, each with one of the folder palette's colours. */
export const noteFolders = sqliteTable(
  "note_folders",
  {
    id: text("id").primaryKey(),
    tenantId: text("tenant_id").notNull(),
    name: text("name").notNull(),
    color: text("color").notNull(),
    createdBy: text("created_by").notNull(),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [index("note_folders_tenant_created").on(t.tenantId, t.createdAt)],
);

/**
 * A note. `content` is HTML that passed the server's allow-list; `text` is its plain text (for
 * previews and search). `version` starts at 1 and grows by one on every saved edit: an edit made
 * from an older version is refused. Trashed notes keep `deletedAt` until restored or purged.
 */
export const notes = sqliteTable(
  "notes",
  {
    id: text("id").primaryKey(),
    tenantId: text("tenant_id").notNull(),
    title: text("title").notNull().default(""),
    content: text("content").notNull().default(""),
    text: text("text").notNull().default(""),
    tags: text("tags", { mode: "json" }).$type<string[]>().notNull().default([]),
    color: text("color"),
    folderId: text("folder_id"),
    isPinned: integer("is_pinned", { mode: "boolean" }).notNull().default(false),
    isFavorite: integer("is_favorite", { mode: "boolean" }).notNull().default(false),
    ownerId: text("owner_id").notNull(),
    /** Who saved the current version. */
    updatedBy: text("updated_by").notNull(),
    version: integer("version").notNull().default(1),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
    deletedAt: integer("deleted_at"),
  },
  (t) => [
    // The lists' order (pinned first, newest update first) for one owner, and for the whole tenant.
    // (deleted_at IS NULL is an equality for the index, so a live list reads in order without sorting.)
    index("notes_tenant_owner_order").on(t.tenantId, t.ownerId, t.deletedAt, t.isPinned, t.updatedAt, t.id),
    index("notes_tenant_order").on(t.tenantId, t.deletedAt, t.isPinned, t.updatedAt, t.id),
    index("notes_tenant_folder").on(t.tenantId, t.folderId),
  ],
);

/** Who a note is shared with, one row per person (read-only to them unless they hold notes.edit). */
export const noteShares = sqliteTable(
  "note_shares",
  {
    tenantId: text("tenant_id").notNull(),
    noteId: text("note_id").notNull(),
    userId: text("user_id").notNull(),
    sharedBy: text("shared_by").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.noteId, t.userId] }), index("note_shares_tenant_user").on(t.tenantId, t.userId)],
);

/** A note as it was after each save; the newest 50 per note are kept. */
export const noteVersions = sqliteTable(
  "note_versions",
  {
    id: text("id").primaryKey(),
    tenantId: text("tenant_id").notNull(),
    noteId: text("note_id").notNull(),
    version: integer("version").notNull(),
    title: text("title").notNull(),
    content: text("content").notNull(),
    tags: text("tags", { mode: "json" }).$type<string[]>().notNull(),
    editedBy: text("edited_by").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [index("note_versions_tenant_note_version").on(t.tenantId, t.noteId, t.version)],
);

/** A person's unsaved new note, kept on the server so it survives a lost signal or another device. */
export const noteDrafts = sqliteTable(
  "note_drafts",
  {
    id: text("id").primaryKey(),
    tenantId: text("tenant_id").notNull(),
    userId: text("user_id").notNull(),
    title: text("title").notNull().default(""),
    content: text("content").notNull().default(""),
    tags: text("tags", { mode: "json" }).$type<string[]>().notNull().default([]),
    color: text("color"),
    folderId: text("folder_id"),
    savedAt: integer("saved_at").notNull(),
  },
  (t) => [index("note_drafts_tenant_user_saved").on(t.tenantId, t.userId, t.savedAt)],
);

/** Per person: how the notes lists are shown (grid or list). */
export const notePreferences = sqliteTable(
  "note_preferences",
  {
    tenantId: text("tenant_id").notNull(),
    userId: text("user_id").notNull(),
    viewMode: text("view_mode", { enum: ["grid", "list"] })
      .notNull()
      .default("grid"),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.userId] })],
);
