// Public surface of the platform feature: shared code and types, safe on client and server (no *.server module).
// Other code imports this feature only through here or index.server.ts (ADR 0049, checked by `npm run lint`).
export {
  accentAsText,
  BRAND_APPEARANCES,
  BRAND_FONT_IDS,
  BRAND_FONTS,
  BRAND_RADII,
  brandingCssVars,
  DEFAULT_BRANDING,
  effectiveTheme,
  fontStack,
  HEX_COLOUR_RE,
  hexToHsl,
  hslToHex,
  readableOn,
} from "./branding";
export { AppShell } from "./components/app-shell";
export { type SectionLink, SectionNav } from "./components/section-nav";
export { type ShellData } from "./components/shell-data";
export { SubmissionKeyInput } from "./components/submission-key-input";
export { FORMER_USER } from "./erasure/former-user";
export { errorReference, errorReferenceContext, ErrorReferenceProvider, InternalErrorMessage, newErrorReference, reportInternalError } from "./error-reference";
export { isValidSlug, resolveHost, tenantOrigin } from "./host";
export { type AcquireResult, canRelease, type Lease, tryAcquire } from "./lease";
export { isOfferedModule, MODULE_CATALOGUE, type ModuleId } from "./module-catalogue";
export { UNREAD_COUNT_CAP, unreadBadge } from "./notifications/badge";
export { routeError, routeErrorCode } from "./route-errors";
export { SUBMISSION_KEY_FIELD } from "./submission-key-codes";
export { type AuditAction } from "./audit-actions";
