import type { SubmissionResult } from "@conform-to/react";

/** A conform result carrying one form-level error, for failures that are not about a field. */
export function formErrorReply(message: string): SubmissionResult<string[]> {
  return { status: "error", error: { "": [message] } };
}
