import { registerSubcontractorSigners } from "~/features/files/index.server";
import { CRONS, type JobInputsOf, type ServerFeature } from "~/features/platform/index.server";
import { CIS_AUDIT_NAMERS } from "./audit-namers.server";
import { cisEraser } from "./erasure.server";
import { runCisDeadlineAlerts } from "./dashboard/deadline-alerts.server";
import { hmrcPollJob, hmrcSendJob } from "./hmrc/jobs.server";
import { onSubmissionResult } from "./hmrc/gateway.server";
import { runHmrcRecordsHousekeeping } from "./hmrc/records.server";
import { registerReturnSubmissionSource } from "./hmrc/return-submission.server";
import { registerHmrcResultHandlers } from "./hmrc/verification.server";
import { runCisImportCleanup } from "./subcontractors/import.server";
import { runUtrCheckBackfill } from "./subcontractors/utr-check.server";
import { statementsGenerateJob } from "./invoices/jobs.server";
import { applyReturnSubmission, returnSubmissionSource } from "./returns/submission.server";
import { statementsGenerateAllJob } from "./statements/jobs.server";
import { cisSubcontractorSigners } from "./portal-invites/signature-signers.server";
import { registerReadOnlyEvents } from "~/features/schedule/index.server";
import { cisCalendarDeadlines } from "./returns/calendar-deadlines.server";
import { CIS_PAGE_PREFETCH } from "./page-prefetch.server";

const CIS_JOBS = [statementsGenerateJob, statementsGenerateAllJob, hmrcSendJob, hmrcPollJob] as const;

declare module "~/features/platform/jobs/definitions.server" {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface RegisteredJobs extends JobInputsOf<typeof CIS_JOBS> {}
}

/** CIS in the server runtime: statement and HMRC jobs, deadline alerts and housekeeping, HMRC result hooks. */
export const cisServer: ServerFeature = {
  name: "cis",
  jobs: CIS_JOBS,
  cron: [
    // Deadlines (statements, filing, payment) still to be met: in-app notifications and a digest
    // e-mail. Suspended tenants are skipped.
    { cron: CRONS.daily, name: "cis-deadline-alerts", run: (env, t) => runCisDeadlineAlerts(env, t) },
    { cron: CRONS.hourly, name: "cis-stale-imports", run: (env, t) => runCisImportCleanup(env, t) },
    // HMRC messages: legacy plaintext XML encrypted, submissions past six tax years deleted.
    { cron: CRONS.hourly, name: "cis-hmrc-records", run: (env, t) => runHmrcRecordsHousekeeping(env, t) },
    // UTRs stored before their check digit was recorded: checked a slice at a time until none is left.
    { cron: CRONS.hourly, name: "cis-utr-check", run: (env) => runUtrCheckBackfill(env) },
  ],
  auditNamers: CIS_AUDIT_NAMERS,
  erasure: cisEraser,
  pagePrefetch: CIS_PAGE_PREFETCH,
  register() {
    registerHmrcResultHandlers();
    // The CIS300 submit page reads the month's return from the returns layer, and HMRC's acceptance locks it.
    registerReturnSubmissionSource(returnSubmissionSource);
    onSubmissionResult("cis300", applyReturnSubmission);
    // Signature requests in files may go to subcontractors, who sign in the portal.
    registerSubcontractorSigners(cisSubcontractorSigners);
    // The calendar shows the return and payment deadlines to those who compile or submit returns.
    registerReadOnlyEvents("cis-deadlines", cisCalendarDeadlines);
  },
};
