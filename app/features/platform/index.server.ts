// Public surface of the platform feature for server code (loaders, actions, jobs, other *.server.ts modules).
// Other code imports this feature only through here or index.ts (ADR 0049, checked by `npm run lint`).
export {
  activityInsert,
  auditSentence,
  type AuditAction,
  type AuditEntry,
  auditInsert,
  auditInsertMany,
  auditInsertWhere,
  clientIp,
  listAudit,
  recentActivityQuery,
  writeAudit,
} from "./audit.server";
export { type AuditActorNamer, type AuditRef, type AuditTargetNamer } from "./audit-targets.server";
export { addressUnused, type ErasedPerson, erasureStatements, mentions, type PersonalDataEraser, replaced, replacementsFor } from "./erasure/erasure.server";
export { handleEmailBatch, handleEmailDeadLetters } from "./email/consumer.server";
export { QUEUE_REFUSED, queueEmail, queueEmailIf } from "./email/send.server";
export { ConfigurationError, devToolsEnabled, isDevelopment, requestEnvironment, secureCookies, sessionSecrets } from "./environment.server";
export { consumeToast, redirectWithToast, setToastHeader } from "./flash.server";
export { runHousekeeping } from "./housekeeping.server";
export { handleJobDeadLetters, handleJobsBatch } from "./jobs/consumer.server";
export { registerJobs } from "./jobs/definitions.server";
export { enqueue, jobRowWhen, sendCommittedJob } from "./jobs/enqueue.server";
export { continueJob, defineJob, type JobDefinition, PermanentJobError } from "./jobs/registry.server";
export { resumeParkedWork } from "./parked-work.server";
export { claimSubmission, mintSubmissionKey, type SubmissionClaim, submitOnce } from "./submission-keys.server";
export { tenantBySlugStatements, type TenantContextValue, toTenantContext } from "./tenants.server";
export { readTheme, themeFormSchema, themeSetCookie } from "./theme.server";
export { cronRegistry, CRONS, type JobInputsOf, registerServerFeatures, type ServerFeature } from "./jobs/features.server";
export { platformServer } from "./register.server";
export { listNotifications, markAllNotificationsRead, markNotificationRead } from "./notifications/notifications.server";
export { notificationActionSchema, notificationsQuerySchema } from "./notifications/notifications";
export { afterPersonDisabled } from "./jobs/features.server";
export {
  knownTenantId,
  pagePrefetchContext,
  pagePrefetchFor,
  rememberTenantId,
  takePagePrefetch,
  type PagePrefetch,
  type PagePrefetched,
} from "./page-prefetch.server";
