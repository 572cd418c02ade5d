// Public surface of the cis feature for server code (loaders, actions, jobs, other *.server.ts modules).
// Other code imports this feature only through here or index.ts (ADR 0049, checked by `npm run lint`).
export { runCisDeadlineAlerts } from "./deadline-alerts.server";
export { onSubmissionResult } from "./hmrc/gateway.server";
export { hmrcPollJob, hmrcSendJob } from "./hmrc/jobs.server";
export { runHmrcRecordsHousekeeping } from "./hmrc/records.server";
export { registerReturnSubmissionSource } from "./hmrc/return-submission.server";
export { registerHmrcResultHandlers } from "./hmrc/verification.server";
export { runCisImportCleanup } from "./import.server";
export { londonToday } from "./invoices/invoices.server";
export { statementsGenerateJob } from "./invoices/jobs.server";
export { type PortalInvoice, portalInvoiceAttachment, portalInvoicesData, submitPortalInvoice } from "./invoices/portal-invoices.server";
export { hasCisModule } from "./module.server";
export { maskEmail } from "./pii.server";
export { contractorDetails, findPortalInvite, isTokenUsed, linkWithdrawn, recordPortalSignIn } from "./portal-invites.server";
export { applyReturnSubmission, returnSubmissionSource } from "./returns/submission.server";
export { statementsGenerateAllJob } from "./statements/jobs.server";
export { portalHomeData, portalStatementPdf } from "./statements/portal.server";
export { activeSubcontractorStatement, getSubcontractor, type SubcontractorRow } from "./subcontractors.server";
