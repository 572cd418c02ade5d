/**
 * The contractor's logo for documents: where it is kept, what it may be, and the messages for a
 * refused upload. Client-safe, so the page and the statements (cis) share the same rules.
 */

/** Where a tenant's branding files live in R2; a logo is read back only from under it. */
export function brandingPrefix(tenantId: string): string {
  return `tenants/${tenantId}/branding/`;
}

/** The largest logo accepted: a document logo needs no more. */
export const LOGO_MAX_BYTES = 512 * 1024;

export type LogoErrorCode = "logo_missing" | "logo_type" | "logo_too_large";

export const LOGO_ERROR_MESSAGES: Readonly<Record<LogoErrorCode, string>> = {
  logo_missing: "Choose a PNG or JPEG file to upload",
  logo_type: "The logo must be a PNG or JPEG image",
  logo_too_large: "The logo must be 512 KB or smaller",
};
