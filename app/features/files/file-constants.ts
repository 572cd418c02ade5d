/** The files area's enumerations, shared by the schema, the server and the pages. */
import type { AuditAction } from "~/features/platform/audit-actions";

export const FILE_VISIBILITIES = ["private", "shared", "restricted"] as const;
export type FileVisibility = (typeof FILE_VISIBILITIES)[number];

export const STORAGE_TIERS = ["free", "starter", "professional", "enterprise", "custom"] as const;
export type StorageTier = (typeof STORAGE_TIERS)[number];

export const USAGE_CATEGORIES = ["pdf", "images", "video", "audio", "documents", "spreadsheets", "presentations", "archives", "other"] as const;
export type UsageCategory = (typeof USAGE_CATEGORIES)[number];

/** The background job that rewrites a tenant's usage from what storage holds, and its audit action. */
export const USAGE_RECALC_JOB = "files.usage-recalculate";
export const USAGE_RECALC_AUDIT = "files.storage.usage_recalculated" satisfies AuditAction;
