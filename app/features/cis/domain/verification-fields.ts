/**
 * The fields that record a subcontractor's HMRC verification. Changing any of them (the rate
 * follows the status) needs cis.sub.verify; cis.sub.write alone edits everything else.
 */
import { RATE_FOR_VERIFICATION_STATUS, type CisRate, type VerificationStatus } from "./calculation";
import type { VerificationMethod } from "./types";

export const VERIFICATION_FIELDS = ["verificationStatus", "verificationMethod", "verificationReference", "verifiedDate"] as const;
export type VerificationField = (typeof VERIFICATION_FIELDS)[number];

export type VerificationValues = {
  verificationStatus: VerificationStatus;
  verificationMethod?: VerificationMethod | null;
  verificationReference?: string | null;
  verifiedDate?: string | null;
};

/** What a subcontractor starts with when nobody entitled to verify has recorded anything. */
export const UNVERIFIED: Readonly<Required<VerificationValues>> = Object.freeze({
  verificationStatus: "standard",
  verificationMethod: null,
  verificationReference: null,
  verifiedDate: null,
});

export const VERIFY_PERMISSION_MESSAGE = "You don't have permission to change verification details (cis.sub.verify)";

/** The verification fields whose value differs; blank (null or undefined) counts as one value. */
export function changedVerificationFields(before: VerificationValues, after: VerificationValues): VerificationField[] {
  return VERIFICATION_FIELDS.filter((f) => (before[f] ?? null) !== (after[f] ?? null));
}

/** The rate that goes with a status: the rate is never chosen on its own. */
export function rateFor(values: Pick<VerificationValues, "verificationStatus">): CisRate {
  return RATE_FOR_VERIFICATION_STATUS[values.verificationStatus];
}
