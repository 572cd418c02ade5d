/**
 * What people read for each typed failure of the subcontractor data layer. The data layer
 * returns codes; routes turn them into these words. No server code here: pages import it too.
 */
import type { Err } from "~/utils/result";
import { VERIFY_PERMISSION_MESSAGE, type VerificationField } from "../domain/verification-fields";

export type SaveError =
  | Err<"not_found">
  | Err<"duplicate_utr", { field: "utr" }>
  /** The actor lacks cis.sub.verify and the save would change these verification fields. */
  | Err<"verification_forbidden", { fields: VerificationField[] }>;

/** Why one id of a bulk request did not change. */
export type BulkFailure = "not_found" | "already_archived" | "too_many";

/**
 * Ids accepted by one bulk request; the rest are reported as failed, never silently dropped.
 * D1 binds at most 100 parameters a statement, and the ids share it with the tenant and state conditions.
 */
export const BULK_LIMIT = 50;

export const SUBCONTRACTOR_SAVE_MESSAGES: Readonly<Record<SaveError["code"], string>> = {
  not_found: "Subcontractor not found",
  duplicate_utr: "A subcontractor with this UTR already exists",
  verification_forbidden: VERIFY_PERMISSION_MESSAGE,
};

export const BULK_FAILURE_MESSAGES: Readonly<Record<BulkFailure, string>> = {
  not_found: "Subcontractor not found",
  already_archived: "Already archived",
  too_many: `Too many items: at most ${BULK_LIMIT} at a time`,
};
