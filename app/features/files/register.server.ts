import { and, eq, sql } from "drizzle-orm";
import { fileFolders, files, signatureRequests } from "~/db/schema";
import { CRONS, type JobInputsOf, type ServerFeature } from "~/features/platform/index.server";
import { filesEraser } from "./erasure.server";
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
  erasure: filesEraser,
  auditNamers: {
    // Files and signature requests by the file's name ("agreement.pdf"), folders by theirs.
    targets: [
      {
        targetType: "file",
        name: (target) => sql`SELECT ${files.name} FROM ${files} WHERE ${and(eq(files.id, target.id), eq(files.tenantId, target.tenantId))}`,
      },
      {
        targetType: "folder",
        name: (target) =>
          sql`SELECT ${fileFolders.name} FROM ${fileFolders} WHERE ${and(eq(fileFolders.id, target.id), eq(fileFolders.tenantId, target.tenantId))}`,
      },
      {
        targetType: "signature_request",
        name: (target) =>
          sql`SELECT ${signatureRequests.fileName} FROM ${signatureRequests} WHERE ${and(eq(signatureRequests.id, target.id), eq(signatureRequests.tenantId, target.tenantId))}`,
      },
    ],
  },
};
