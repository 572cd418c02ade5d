import { sql } from "drizzle-orm";
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

import { FILE_VISIBILITIES, STORAGE_TIERS, USAGE_CATEGORIES, type UsageCategory } from "../enums";

export { FILE_VISIBILITIES, STORAGE_TIERS, USAGE_CATEGORIES };
export type { FileVisibility, StorageTier, UsageCategory } from "../enums";

/** Folders form a tree; `path` is the slug path from the root ('reports/2026'), unique per tenant. */
export const fileFolders = sqliteTable(
  "file_folders",
  {
    id: text("id").primaryKey(),
    tenantId: text("tenant_id").notNull(),
    name: text("name").notNull(),
    color: text("color").notNull().default("#64748b"),
    icon: text("icon").notNull().default("folder"),
    parentId: text("parent_id"),
    slug: text("slug").notNull(),
    path: text("path").notNull(),
    createdBy: text("created_by").notNull(),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [uniqueIndex("file_folders_tenant_path").on(t.tenantId, t.path), index("file_folders_tenant_parent").on(t.tenantId, t.parentId)],
);

export const files = sqliteTable(
  "files",
  {
    id: text("id").primaryKey(),
    tenantId: text("tenant_id").notNull(),
    name: text("name").notNull(),
    /** The current version's size. */
    size: integer("size").notNull(),
    /** Every stored version's bytes: what deleting the file gives back to the quota. */
    storedBytes: integer("stored_bytes").notNull(),
    mimeType: text("mime_type").notNull(),
    category: text("category", { enum: USAGE_CATEGORIES }).notNull(),
    /** The R2 key of the current version. */
    storageKey: text("storage_key").notNull(),
    version: integer("version").notNull().default(1),
    visibility: text("visibility", { enum: FILE_VISIBILITIES }).notNull().default("private"),
    folderId: text("folder_id"),
    ownerId: text("owner_id").notNull(),
    ownerEmail: text("owner_email").notNull(),
    ownerName: text("owner_name").notNull(),
    signed: integer("signed", { mode: "boolean" }).notNull().default(false),
    pendingSign: integer("pending_sign", { mode: "boolean" }).notNull().default(false),
    signedAt: integer("signed_at"),
    signedFileKey: text("signed_file_key"),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [
    index("files_tenant_created").on(t.tenantId, t.createdAt),
    index("files_tenant_owner_created").on(t.tenantId, t.ownerId, t.createdAt),
    index("files_tenant_visibility_created").on(t.tenantId, t.visibility, t.createdAt),
    index("files_tenant_folder").on(t.tenantId, t.folderId),
  ],
);

export const fileVersions = sqliteTable(
  "file_versions",
  {
    id: text("id").primaryKey(),
    tenantId: text("tenant_id").notNull(),
    fileId: text("file_id").notNull(),
    version: integer("version").notNull(),
    storageKey: text("storage_key").notNull(),
    size: integer("size").notNull(),
    mimeType: text("mime_type").notNull(),
    type: text("type").notNull().default("original"),
    createdBy: text("created_by").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [uniqueIndex("file_versions_file_version").on(t.fileId, t.version), index("file_versions_tenant_file").on(t.tenantId, t.fileId)],
);

/**
 * Who may see a restricted file: the allowed users chosen at upload ('allowed') and the people it
 * was shared with ('shared'). One row per person, so the list query is an indexed EXISTS.
 */
export const fileAccess = sqliteTable(
  "file_access",
  {
    tenantId: text("tenant_id").notNull(),
    fileId: text("file_id").notNull(),
    userId: text("user_id").notNull(),
    via: text("via", { enum: ["allowed", "shared"] }).notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.fileId, t.userId] }), index("file_access_tenant_user").on(t.tenantId, t.userId)],
);

/** One row per tenant: its tier, limit override and running usage. */
export const storageUsage = sqliteTable("storage_usage", {
  tenantId: text("tenant_id").primaryKey(),
  tier: text("tier", { enum: STORAGE_TIERS }).notNull().default("free"),
  customLimit: integer("custom_limit"),
  usedBytes: integer("used_bytes").notNull().default(0),
  fileCount: integer("file_count").notNull().default(0),
  categoryBytes: text("category_bytes", { mode: "json" })
    .$type<Partial<Record<UsageCategory, number>>>()
    .notNull()
    .default(sql`'{}'`),
  lastCalculated: integer("last_calculated"),
  createdAt: integer("created_at").notNull(),
  updatedAt: integer("updated_at").notNull(),
});

/**
 * Bytes promised to uploads in flight. A reservation is taken before the first byte goes to R2
 * and removed when the upload is recorded or fails; one older than an hour no longer counts (its
 * Worker died), so a crash cannot hold quota for ever.
 */
export const storageReservations = sqliteTable(
  "storage_reservations",
  {
    id: text("id").primaryKey(),
    tenantId: text("tenant_id").notNull(),
    bytes: integer("bytes").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [index("storage_reservations_tenant_created").on(t.tenantId, t.createdAt)],
);

/** Daily usage counters (months are sums of days): bytes added and removed, uploads, shares, deletions. */
export const storageDaily = sqliteTable(
  "storage_daily",
  {
    tenantId: text("tenant_id").notNull(),
    day: text("day").notNull(),
    bytesAdded: integer("bytes_added").notNull().default(0),
    bytesRemoved: integer("bytes_removed").notNull().default(0),
    uploads: integer("uploads").notNull().default(0),
    shared: integer("shared").notNull().default(0),
    deleted: integer("deleted").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.day] })],
);

/**
 * A file going up in parts from the browser (larger than one request may carry). The row binds
 * the R2 upload to the tenant and the person who started it, holds what the file will be once
 * complete, and shares its id with the storage reservation of the declared size. `touched_at`
 * moves with every part; an upload idle for an hour has expired (its reservation no longer
 * counts) and the hourly housekeeping aborts it.
 */
export const fileMultipartUploads = sqliteTable(
  "file_multipart_uploads",
  {
    id: text("id").primaryKey(),
    tenantId: text("tenant_id").notNull(),
    userId: text("user_id").notNull(),
    /** 'open' takes parts; 'completing' is the one complete call that won. */
    state: text("state", { enum: ["open", "completing"] })
      .notNull()
      .default("open"),
    storageKey: text("storage_key").notNull(),
    r2UploadId: text("r2_upload_id").notNull(),
    fileId: text("file_id").notNull(),
    /** 1 for a new file; otherwise the version this upload will become. */
    version: integer("version").notNull(),
    name: text("name").notNull(),
    mimeType: text("mime_type").notNull(),
    category: text("category", { enum: USAGE_CATEGORIES }).notNull(),
    size: integer("size").notNull(),
    partSize: integer("part_size").notNull(),
    visibility: text("visibility", { enum: FILE_VISIBILITIES }).notNull(),
    folderId: text("folder_id"),
    allowedUserIds: text("allowed_user_ids", { mode: "json" }).$type<string[]>().notNull(),
    createdAt: integer("created_at").notNull(),
    touchedAt: integer("touched_at").notNull(),
  },
  (t) => [index("file_multipart_uploads_tenant_user").on(t.tenantId, t.userId), index("file_multipart_uploads_touched").on(t.touchedAt)],
);

/** The parts R2 has acknowledged, with their etags for the completion. */
export const fileMultipartParts = sqliteTable(
  "file_multipart_parts",
  {
    tenantId: text("tenant_id").notNull(),
    uploadId: text("upload_id").notNull(),
    partNumber: integer("part_number").notNull(),
    etag: text("etag").notNull(),
    size: integer("size").notNull(),
  },
  (t) => [primaryKey({ columns: [t.uploadId, t.partNumber] })],
);
