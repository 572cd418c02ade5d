/** Client-safe: the gateway's typed codes and the sentences a person sees for them. */
import { DEV_HMRC_MODES, HMRC_IN_FLIGHT_STATUSES } from "~/db/enums";

export { DEV_HMRC_MODES };

/** Whether a submission in this state is still waiting on HMRC's answer. */
export function isInFlight(status: string): boolean {
  return (HMRC_IN_FLIGHT_STATUSES as readonly string[]).includes(status);
}

export const GATEWAY_ERROR_CODES = [
  "transport_not_configured",
  "credentials_missing",
  "credentials_unreadable",
  "invalid_message",
  "outcome_unknown",
  "transport_error",
  "protocol_error",
  "poll_limit",
  "transport_changed",
  "enqueue_failed",
  "message_unreadable",
] as const;
export type GatewayErrorCode = (typeof GATEWAY_ERROR_CODES)[number];

export const GATEWAY_MESSAGES: Record<GatewayErrorCode, string> = {
  transport_not_configured: "Sending to HMRC is not configured for this workspace. Ask your administrator to set it up.",
  credentials_missing: "Enter your Government Gateway user ID and password in CIS settings before sending anything to HMRC.",
  credentials_unreadable: "Your Government Gateway credentials could not be read. Enter them again in CIS settings.",
  invalid_message: "The message for HMRC could not be built correctly.",
  outcome_unknown: "We could not tell whether HMRC received this message. Check with HMRC before sending it again.",
  transport_error: "HMRC's Transaction Engine could not be reached. Try again later.",
  protocol_error: "HMRC's answer could not be understood. Try again later.",
  poll_limit: "HMRC did not give a final answer in time. Check with HMRC before sending it again.",
  transport_changed: "The connection to HMRC was reconfigured while this message was in progress. Send it again.",
  enqueue_failed: "The message could not be queued for sending. Try again.",
  message_unreadable: "The stored message could not be read (its encryption key is no longer available). Send it again.",
};

export const SUBMISSION_STATUS_LABELS = {
  queued: "Sending",
  acknowledged: "Waiting for HMRC",
  polling: "Waiting for HMRC",
  accepted: "Accepted by HMRC",
  rejected: "Rejected by HMRC",
  failed: "Failed",
} as const;

export function isGatewayErrorCode(code: unknown): code is GatewayErrorCode {
  return (GATEWAY_ERROR_CODES as readonly unknown[]).includes(code);
}

/** Why a verification request could not be sent, in the words a person sees. */
export const VERIFY_MESSAGES = {
  not_found: "Subcontractor not found",
  too_many: "Select at most 100 subcontractors for one verification request",
  settings_incomplete: "Enter the employer reference, Accounts Office reference and UTR in CIS settings before verifying with HMRC.",
  ...GATEWAY_MESSAGES,
} as const;

export type VerifyRefusal = { code: keyof typeof VERIFY_MESSAGES } | { code: "invalid_subcontractor"; message: string };

export function verifyRefusalMessage(refusal: VerifyRefusal): string {
  return refusal.code === "invalid_subcontractor" ? refusal.message : VERIFY_MESSAGES[refusal.code];
}

export const VERIFY_SENT_TITLE = "Verification sent to HMRC";
export function verifySentMessage(count: number, created: boolean): string {
  if (!created) return "A verification request for this selection is already with HMRC. The result appears here when HMRC answers.";
  return count === 1
    ? "HMRC's answer will update the verification status, rate and number."
    : `HMRC's answer will update the verification of ${count} subcontractors.`;
}

export type DevHmrcMode = (typeof DEV_HMRC_MODES)[number];
