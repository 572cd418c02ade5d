import { CRONS, type JobInputsOf, type ServerFeature } from "~/features/platform/index.server";
import { expireMultipartUploads } from "./multipart-upload.server";
import { signatureStampJob } from "./signatures/stamp.server";
import { usageRecalculateJob } from "./usage-recalculation.server";

const FILES_JOBS = [usageRecalculateJob, signatureStampJob] as const;

declare module "~/features/platform/jobs/definitions.server" {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface RegisteredJobs extends JobInputsOf<typeof FILES_JOBS> {}
}

/** Files in the server runtime: usage recalculation and signature stamping jobs, stale multipart uploads. */
export const filesServer: ServerFeature = {
  name: "files",
  jobs: FILES_JOBS,
  cron: [{ cron: CRONS.hourly, name: "files-stale-multipart-uploads", run: (env, t) => expireMultipartUploads(env, t) }],
};
