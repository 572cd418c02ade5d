// Public surface of the files feature for server code (loaders, actions, jobs, other *.server.ts modules).
// Other code imports this feature only through here or index.ts (ADR 0049, checked by `npm run lint`).
export { expireMultipartUploads } from "./multipart-upload.server";
export { signatureStampJob } from "./signatures/stamp.server";
export { streamToR2 } from "./upload.server";
export { usageRecalculateJob } from "./usage-recalculation.server";
export { filesServer } from "./register.server";
export {
  registerSubcontractorSigners,
  type SubcontractorSignerChoice,
  type SubcontractorSigners,
  type SubcontractorSignLink,
} from "./signatures/subcontractor-signers.server";
export {
  declineRequest,
  getRequestForSubcontractor,
  signRequest,
  subcontractorReviewDocument,
  subcontractorSignatureRequests,
  type SignatureFail,
  type Signer,
} from "./signatures/signatures.server";
export { readSignPost, type SignPost } from "./signatures/sign-post.server";
export { requestIdParams, signSearch } from "./signatures/schemas";
export { toUsage, usageQuery, type UsageSummary } from "./quota.server";
export {
  ATTACHABLE_LIMIT,
  attachableFilesById,
  attachableFilesQuery,
  inAskedOrder as attachableInAskedOrder,
  searchAttachableFiles,
  searchAttachableFilesQuery,
  type AttachActor,
  type AttachableFile,
} from "./attachments.server";
export { attachableFilesAmongQuery } from "./attachments.server";
