/** The hidden field that carries a form's one-time submission key. */
export const SUBMISSION_KEY_FIELD = "submissionKey";

/** Why a submission key was not accepted. */
export const SUBMISSION_KEY_REFUSALS = ["missing", "invalid", "expired"] as const;
export type SubmissionKeyRefusal = (typeof SUBMISSION_KEY_REFUSALS)[number];

export const SUBMISSION_KEY_MESSAGES: Readonly<Record<SubmissionKeyRefusal | "pending", string>> = {
  missing: "This form could not be accepted: it was sent without its submission key. Reload the page and try again.",
  invalid: "This form could not be accepted: its submission key is not valid for you. Reload the page and try again.",
  expired: "This form has expired. Reload the page and try again.",
  pending: "This form was already sent and is still being processed. Reload the page in a moment to see its result.",
};
