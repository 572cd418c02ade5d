/**
 * Composition root for background jobs: features' job types are registered with the platform's
 * JOBS consumer here, at run time for enqueue() and the consumer and at type level for JobType.
 * Server only (job code reaches the database), so it is imported by workers/app.ts rather than
 * app/scopes.ts, which the client bundle also loads. HMRC gateway result handlers (what a
 * feature does when its submission ends) are registered here too.
 */
import type { z } from "zod";
import { hmrcPollJob, hmrcSendJob } from "~/features/cis/index.server";
import { onSubmissionResult } from "~/features/cis/index.server";
import { registerReturnSubmissionSource } from "~/features/cis/index.server";
import { registerHmrcResultHandlers } from "~/features/cis/index.server";
import { statementsGenerateJob } from "~/features/cis/index.server";
import { applyReturnSubmission, returnSubmissionSource } from "~/features/cis/index.server";
import { statementsGenerateAllJob } from "~/features/cis/index.server";
import { usageRecalculateJob } from "~/features/files/index.server";
// E-signature: stamping a signed PDF.
import { signatureStampJob } from "~/features/files/index.server";
import { registerJobs } from "~/features/platform/index.server";
import type { JobDefinition } from "~/features/platform/index.server";

declare module "~/features/platform/jobs/definitions.server" {
  interface RegisteredJobs {
    "statements.generate": z.input<typeof statementsGenerateJob.input>;
    "statements.generate-all": z.input<typeof statementsGenerateAllJob.input>;
    "hmrc.send": z.input<typeof hmrcSendJob.input>;
    "hmrc.poll": z.input<typeof hmrcPollJob.input>;
    "files.usage-recalculate": z.input<typeof usageRecalculateJob.input>;
    "files.signature.stamp": z.input<typeof signatureStampJob.input>;
  }
}

registerJobs(
  statementsGenerateJob as unknown as JobDefinition,
  statementsGenerateAllJob as unknown as JobDefinition,
  hmrcSendJob as unknown as JobDefinition,
  hmrcPollJob as unknown as JobDefinition,
  usageRecalculateJob as unknown as JobDefinition,
  signatureStampJob as unknown as JobDefinition,
);
registerHmrcResultHandlers();
// The CIS300 submit page reads the month's return from the returns layer, and HMRC's acceptance locks it.
registerReturnSubmissionSource(returnSubmissionSource);
onSubmissionResult("cis300", applyReturnSubmission);
