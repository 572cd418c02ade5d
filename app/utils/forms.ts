import type { SubmissionResult } from "@conform-to/react";

/** A conform result carrying one form-level error, for failures that are not about a field. */
export function formErrorReply(message: string): SubmissionResult<string[]> {
  return { status: "error", error: { "": [message] } };
}

/**
 * One field of an action's conform reply, read without loading conform in the browser: the
 * messages for it (undefined when it has none) and the value the person sent, to show again.
 * For a form of one field on a page that is not a form (a date beside an action button), where
 * conform's form model (8 KB gzip) would cost more than the page itself.
 */
export function replyField(result: SubmissionResult<string[]> | null | undefined, name: string): { errors?: string[]; value?: string } {
  const errors = result?.error?.[name] ?? undefined;
  const sent = result?.initialValue?.[name];
  return { errors: errors && errors.length > 0 ? errors : undefined, value: typeof sent === "string" ? sent : undefined };
}
