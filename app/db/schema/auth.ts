import { sql } from "drizzle-orm";
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { ROLES, THEME_PREFERENCES, USER_STATUSES } from "../enums";
import { tenants } from "./platform";

export { ROLES, THEME_PREFERENCES, USER_STATUSES, type Role, type ThemePreference, type UserStatus } from "../enums";

export const users = sqliteTable(
  "users",
  {
    id: text("id").primaryKey(),
    tenantId: text("tenant_id")
      .notNull()
      .references(() => tenants.id),
    email: text("email").notNull(),
    displayName: text("display_name").notNull(),
    firstName: text("first_name"),
    lastName: text("last_name"),
    username: text("username"),
    role: text("role", { enum: ROLES }).notNull().default("standard"),
    teamIds: text("team_ids", { mode: "json" })
      .$type<string[]>()
      .notNull()
      .default(sql`'[]'`),
    siteIds: text("site_ids", { mode: "json" })
      .$type<string[]>()
      .notNull()
      .default(sql`'[]'`),
    themePreference: text("theme_preference", { enum: THEME_PREFERENCES }).notNull().default("system"),
    userStatus: text("user_status", { enum: USER_STATUSES }).notNull().default("active"),
    userStatusUpdatedAt: integer("user_status_updated_at"),
    twoFactorRequired: integer("two_factor_required", { mode: "boolean" }).notNull().default(false),
    disabled: integer("disabled", { mode: "boolean" }).notNull().default(false),
    // Set while the person is invited and has not yet chosen a password: the id (jti) of the one
    // activation link that still works. A new invitation replaces it, which voids the old link.
    inviteId: text("invite_id"),
    // When their personal data was erased (users.scrub_pii); the row stays so audit entries resolve.
    scrubbedAt: integer("scrubbed_at"),
    passwordHash: text("password_hash").notNull(),
    passwordChangedAt: integer("password_changed_at").notNull(),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [uniqueIndex("users_tenant_email").on(t.tenantId, t.email), index("users_email").on(t.email)],
);

// Platform operators (super-admins) belong to no tenant.
export const platformAdmins = sqliteTable(
  "platform_admins",
  {
    id: text("id").primaryKey(),
    email: text("email").notNull(),
    displayName: text("display_name").notNull(),
    isSuperAdmin: integer("is_super_admin", { mode: "boolean" }).notNull().default(false),
    isSuper: integer("is_super", { mode: "boolean" }).notNull().default(false),
    scopes: text("scopes", { mode: "json" })
      .$type<string[]>()
      .notNull()
      .default(sql`'[]'`),
    disabled: integer("disabled", { mode: "boolean" }).notNull().default(false),
    passwordHash: text("password_hash").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [uniqueIndex("platform_admins_email").on(t.email)],
);

export const roleBundles = sqliteTable(
  "role_bundles",
  {
    tenantId: text("tenant_id")
      .notNull()
      .references(() => tenants.id),
    name: text("name").notNull(),
    scopes: text("scopes", { mode: "json" })
      .$type<string[]>()
      .notNull()
      .default(sql`'[]'`),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.name] })],
);

export const SESSION_KINDS = ["staff", "platform", "portal"] as const;
export type SessionKind = (typeof SESSION_KINDS)[number];

export const sessions = sqliteTable(
  "sessions",
  {
    // SHA-256 of the random session token: a copy of the table does not hand out live sessions.
    idHash: text("id_hash").primaryKey(),
    kind: text("kind", { enum: SESSION_KINDS }).notNull(),
    tenantId: text("tenant_id"),
    userId: text("user_id").notNull(),
    createdAt: integer("created_at").notNull(),
    lastSeenAt: integer("last_seen_at").notNull(),
    idleExpiresAt: integer("idle_expires_at").notNull(),
    absoluteExpiresAt: integer("absolute_expires_at").notNull(),
    revokedAt: integer("revoked_at"),
    ip: text("ip"),
    // Portal sessions only: opened with a link a staff member was shown (their user id), so
    // every invoice submitted in the session carries it.
    portalLinkRevealedBy: text("portal_link_revealed_by"),
  },
  (t) => [index("sessions_tenant_user").on(t.tenantId, t.userId), index("sessions_absolute_expiry").on(t.absoluteExpiresAt)],
);

export const CHALLENGE_KINDS = ["staff", "platform"] as const;
export type ChallengeKind = (typeof CHALLENGE_KINDS)[number];

export const loginChallenges = sqliteTable(
  "login_challenges",
  {
    id: text("id").primaryKey(),
    // 'staff': a tenant user (tenant_id set); 'platform': a platform admin (tenant_id null, user_id = platform_admins.id).
    kind: text("kind", { enum: CHALLENGE_KINDS }).notNull().default("staff"),
    tenantId: text("tenant_id"),
    userId: text("user_id").notNull(),
    // SHA-256(challenge id + code): the code itself is never stored.
    codeHash: text("code_hash").notNull(),
    attempts: integer("attempts").notNull().default(0),
    redirectTo: text("redirect_to"),
    createdAt: integer("created_at").notNull(),
    expiresAt: integer("expires_at").notNull(),
    consumedAt: integer("consumed_at"),
  },
  (t) => [index("login_challenges_tenant_user").on(t.tenantId, t.userId), index("login_challenges_expiry").on(t.expiresAt)],
);

export const authThrottle = sqliteTable("auth_throttle", {
  key: text("key").primaryKey(),
  failures: integer("failures").notNull().default(0),
  windowStartedAt: integer("window_started_at").notNull(),
  lockedUntil: integer("locked_until"),
});

// Single-use signed tokens (accept-session hand-over, portal magic links) are burned here by jti.
export const usedTokens = sqliteTable(
  "used_tokens",
  {
    jti: text("jti").primaryKey(),
    kind: text("kind").notNull(),
    tenantId: text("tenant_id"),
    usedAt: integer("used_at").notNull(),
    expiresAt: integer("expires_at").notNull(),
  },
  (t) => [index("used_tokens_expiry").on(t.expiresAt)],
);
