import { sql } from "drizzle-orm";
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import type { BrandAppearance } from "../enums";

export type TenantBranding = {
  accentHsl?: string;
  accentColor?: string;
  successHsl?: string;
  dangerHsl?: string;
  darkPrimary?: string;
  darkElevated?: string;
  darkSurface?: string;
  darkBorder?: string;
  lightPrimary?: string;
  lightElevated?: string;
  lightSurface?: string;
  lightBorder?: string;
  radius?: string;
  scaling?: number;
  appearance?: BrandAppearance;
  fontFamily?: string;
  fontUrl?: string;
  /** The postal address printed on documents (statements), lines separated by newlines. */
  address?: string;
  /** The logo printed on documents: a PNG or JPEG in R2 under the tenant's branding prefix. */
  logo?: { key: string; type: "image/png" | "image/jpeg"; bytes: number };
};

export const tenants = sqliteTable(
  "tenants",
  {
    id: text("id").primaryKey(),
    slug: text("slug").notNull(),
    name: text("name").notNull(),
    branding: text("branding", { mode: "json" })
      .$type<TenantBranding>()
      .notNull()
      .default(sql`'{}'`),
    // null = every catalogue module may be enabled; a list limits what the tenant can switch on.
    availableModules: text("available_modules", { mode: "json" }).$type<string[] | null>(),
    requireTwoFactor: integer("require_two_factor", { mode: "boolean" }).notNull().default(false),
    // Set while a platform admin has suspended the workspace: its hosts answer a suspended page and nobody signs in.
    suspendedAt: integer("suspended_at"),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
    // The D1 binding holding the workspace's rows (DB_<NAME>); null: the home database. Read in
    // the global database only: a shard's copy of the row is not kept in step with it.
    shard: text("shard"),
  },
  (t) => [uniqueIndex("tenants_slug_unique").on(t.slug)],
);

export const modules = sqliteTable("modules", {
  id: text("id").primaryKey(),
  label: text("label").notNull(),
  route: text("route").notNull(),
  icon: text("icon").notNull(),
  defaultConfig: text("default_config", { mode: "json" })
    .$type<Record<string, unknown>>()
    .notNull()
    .default(sql`'{}'`),
  sortOrder: integer("sort_order").notNull().default(0),
});

export const tenantModules = sqliteTable(
  "tenant_modules",
  {
    tenantId: text("tenant_id")
      .notNull()
      .references(() => tenants.id),
    moduleId: text("module_id")
      .notNull()
      .references(() => modules.id),
    enabled: integer("enabled", { mode: "boolean" }).notNull().default(false),
    config: text("config", { mode: "json" })
      .$type<Record<string, unknown>>()
      .notNull()
      .default(sql`'{}'`),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.moduleId] })],
);

export const auditEvents = sqliteTable(
  "audit_events",
  {
    id: text("id").primaryKey(),
    // null only for platform-level events (super-admin actions on the bare domain).
    tenantId: text("tenant_id"),
    actorId: text("actor_id"),
    actorEmail: text("actor_email"),
    action: text("action").notNull(),
    targetType: text("target_type"),
    targetId: text("target_id"),
    payload: text("payload", { mode: "json" })
      .$type<Record<string, unknown>>()
      .notNull()
      .default(sql`'{}'`),
    ip: text("ip"),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [
    index("audit_events_tenant_created").on(t.tenantId, t.createdAt),
    index("audit_events_tenant_action").on(t.tenantId, t.action),
    // The platform audit log pages every tenant's events newest first, optionally by action.
    index("audit_events_created").on(t.createdAt),
    index("audit_events_action_created").on(t.action, t.createdAt),
  ],
);

export const activityLog = sqliteTable(
  "activity_log",
  {
    id: text("id").primaryKey(),
    tenantId: text("tenant_id").notNull(),
    module: text("module").notNull(),
    action: text("action").notNull(),
    entityType: text("entity_type").notNull(),
    entityId: text("entity_id"),
    performedBy: text("performed_by"),
    performedByName: text("performed_by_name"),
    details: text("details", { mode: "json" })
      .$type<Record<string, unknown>>()
      .notNull()
      .default(sql`'{}'`),
    performedAt: integer("performed_at").notNull(),
  },
  (t) => [index("activity_log_tenant_module_at").on(t.tenantId, t.module, t.performedAt)],
);

export const notifications = sqliteTable(
  "notifications",
  {
    id: text("id").primaryKey(),
    tenantId: text("tenant_id").notNull(),
    targetUserId: text("target_user_id").notNull(),
    type: text("type").notNull(),
    title: text("title").notNull(),
    message: text("message").notNull().default(""),
    link: text("link"),
    subjectType: text("subject_type"),
    subjectId: text("subject_id"),
    fromUserId: text("from_user_id"),
    read: integer("read", { mode: "boolean" }).notNull().default(false),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [
    index("notifications_tenant_target_created").on(t.tenantId, t.targetUserId, t.createdAt),
    // The shell's unread count on every page, and Mark all as read, from index entries alone.
    index("notifications_tenant_target_unread").on(t.tenantId, t.targetUserId, t.read, t.createdAt),
  ],
);

/**
 * One-time submission keys, stored on first use: the first submission of a form inserts its key
 * in the same D1 batch as the form's effect (so the batch fails whole on a repeated key), and a
 * repeat reads the first result back from here. Purged a day after use.
 */
export const submissionKeys = sqliteTable(
  "submission_keys",
  {
    tenantId: text("tenant_id")
      .notNull()
      .references(() => tenants.id),
    key: text("key").notNull(),
    userId: text("user_id").notNull(),
    action: text("action").notNull(),
    // The first submission's answer, written once its effect is done; null while it runs.
    result: text("result", { mode: "json" }).$type<unknown>(),
    // Random per request: tells the submission that stored the row from a repeat that raced it.
    claimId: text("claim_id").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [uniqueIndex("submission_keys_tenant_key_unique").on(t.tenantId, t.key), index("submission_keys_created_idx").on(t.createdAt)],
);
