/**
 * Composition root for background jobs: features' job types are registered with the platform's
 * JOBS consumer here, at run time for enqueue() and the consumer and at type level for JobType.
 * Server only (job code reaches the database), so it is imported by workers/app.ts rather than
 * app/scopes.ts, which the client bundle also loads.
 */
import type { z } from "zod";
import { statementsGenerateJob } from "~/features/cis/invoices/jobs.server";
import { statementsGenerateAllJob } from "~/features/cis/statements/jobs.server";
import { registerJobs } from "~/features/platform/jobs/definitions.server";
import type { JobDefinition } from "~/features/platform/jobs/registry.server";

declare module "~/features/platform/jobs/definitions.server" {
  interface RegisteredJobs {
    "statements.generate": z.input<typeof statementsGenerateJob.input>;
    "statements.generate-all": z.input<typeof statementsGenerateAllJob.input>;
  }
}

registerJobs(statementsGenerateJob as unknown as JobDefinition, statementsGenerateAllJob as unknown as JobDefinition);
