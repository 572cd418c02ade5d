/**
 * Lists of allowed values that the schema's columns, the zod schemas and the pages all use, each
 * written once. Feature-free and client-safe (imports nothing), so `app/db/schema` and client code
 * can both import it.
 */

/** A workspace member's role (the platform super-admin is not a member and has none of these). */
export const ROLES = ["standard", "lead", "manager", "admin"] as const;
export type Role = (typeof ROLES)[number];

export const USER_STATUSES = ["active", "busy", "unavailable"] as const;
export type UserStatus = (typeof USER_STATUSES)[number];

/** A member's own choice of colour scheme; 'system' follows the device. */
export const THEME_PREFERENCES = ["system", "light", "dark"] as const;
export type ThemePreference = (typeof THEME_PREFERENCES)[number];

/** The workspace's branding appearance; 'auto' leaves it to each member's preference. */
export const BRAND_APPEARANCES = ["auto", "light", "dark"] as const;
export type BrandAppearance = (typeof BRAND_APPEARANCES)[number];

/** A CIS payment and deduction statement: generated, then issued to the subcontractor. */
export const STATEMENT_STATUSES = ["generated", "issued"] as const;
export type StatementStatus = (typeof STATEMENT_STATUSES)[number];

/**
 * HMRC submission states. queued: stored, the send job has not had an answer yet. acknowledged:
 * the Transaction Engine took it and gave a correlation id; polling: at least one poll was
 * answered "not yet". accepted / rejected (business errors) / failed (protocol, configuration or
 * transport) are final; the first three are in flight.
 */
export const HMRC_SUBMISSION_STATUSES = ["queued", "acknowledged", "polling", "accepted", "rejected", "failed"] as const;
export type HmrcSubmissionStatus = (typeof HMRC_SUBMISSION_STATUSES)[number];
export const HMRC_IN_FLIGHT_STATUSES = ["queued", "acknowledged", "polling"] as const satisfies readonly HmrcSubmissionStatus[];

// CIS
export const SUBCONTRACTOR_TYPES = ["individual", "company", "partnership"] as const;
export const VERIFICATION_METHODS = ["online", "phone", "letter"] as const;
/** The contractor's VAT scheme (settings). */
export const VAT_SCHEMES = ["standard", "reduced", "zero", "flat"] as const;
export const INVOICE_STATUSES = ["draft", "portal_draft", "approved", "paid", "cancelled"] as const;
export const STATEMENT_ISSUE_METHODS = ["email", "portal", "print"] as const;
export const RETURN_STATUSES = ["draft", "ready", "submitted", "amended", "nil"] as const;
export const VERIFICATION_STATUSES = ["gross", "standard", "higher"] as const;

// HMRC
/** How the development Transaction Engine answers submissions for one employer reference. */
export const DEV_HMRC_MODES = ["accept", "business_error", "slow"] as const;

// Files
export const FILE_VISIBILITIES = ["private", "shared", "restricted"] as const;
export type FileVisibility = (typeof FILE_VISIBILITIES)[number];
export const STORAGE_TIERS = ["free", "starter", "professional", "enterprise", "custom"] as const;
export type StorageTier = (typeof STORAGE_TIERS)[number];
export const USAGE_CATEGORIES = ["pdf", "images", "video", "audio", "documents", "spreadsheets", "presentations", "archives", "other"] as const;
export type UsageCategory = (typeof USAGE_CATEGORIES)[number];

// Signatures
export const SIGNATURE_STATUSES = ["pending", "signed", "declined"] as const;
export const SIGNATURE_KINDS = ["typed", "drawn"] as const;
/** Who signs: a member of the tenant (a user) or one of its CIS subcontractors (through the portal). */
export const SIGNER_KINDS = ["user", "subcontractor"] as const;
export const STAMP_STATUSES = ["queued", "done", "failed"] as const;

// Schedule (calendar)
export const EVENT_TYPES = ["shift", "task", "delivery", "training", "meeting"] as const;
export type EventType = (typeof EVENT_TYPES)[number];
/** green On Track, amber At Risk, red Urgent. */
export const EVENT_STATUSES = ["green", "amber", "red"] as const;
export type EventStatus = (typeof EVENT_STATUSES)[number];
/** private 'Only me', users 'Specific people', team 'My teams', site 'My sites', org 'Entire organisation'. */
export const EVENT_VISIBILITIES = ["private", "users", "team", "site", "org"] as const;
export type EventVisibility = (typeof EVENT_VISIBILITIES)[number];
export const CALENDAR_TYPES = ["personal", "team", "project", "resource", "public"] as const;
export type CalendarType = (typeof CALENDAR_TYPES)[number];
export const SCHEDULE_VIEWS = ["day", "week", "month", "year"] as const;
export type ScheduleView = (typeof SCHEDULE_VIEWS)[number];
