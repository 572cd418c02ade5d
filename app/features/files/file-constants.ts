/** The files area's enumerations, shared by the schema (which holds them), the server and the pages. */
import type { AuditAction } from "~/features/platform";

export { FILE_VISIBILITIES, STORAGE_TIERS, USAGE_CATEGORIES, type FileVisibility, type StorageTier, type UsageCategory } from "~/db/enums";

/** The background job that rewrites a tenant's usage from what storage holds, and its audit action. */
export const USAGE_RECALC_JOB = "files.usage-recalculate";
export const USAGE_RECALC_AUDIT = "files.storage.usage_recalculated" satisfies AuditAction;
