/**
 * The enumerations the schema stores as text enums, in one feature-free module: the schema
 * imports them from here (it knows no feature), and each feature re-exports its own from the
 * module it always had them in, so feature code keeps importing them from there.
 */

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
export const STAMP_STATUSES = ["queued", "done", "failed"] as const;
