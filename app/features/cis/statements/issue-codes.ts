import { STATEMENT_ISSUE_METHODS } from "../domain/types";

/**
 * What the statement issue form posts and the words each outcome shows. Client-safe: the
 * statements page renders the forms from these, the issue route maps results with them.
 */
export { STATEMENT_ISSUE_METHODS };
export type IssueMethod = (typeof STATEMENT_ISSUE_METHODS)[number];

export type IssueErrorCode = "not_found" | "already_issued" | "email_disabled" | "no_email" | "settings_incomplete" | "email_not_queued";

/** The {message} of 'Failed to issue statement: {message}'. */
export const ISSUE_ERROR_MESSAGES: Readonly<Record<IssueErrorCode, string>> = {
  not_found: "Statement not found",
  already_issued: "Only a generated statement can be issued; this one has already been issued",
  email_disabled: "E-mailing statements is switched off in CIS settings",
  no_email: "The subcontractor has no e-mail address",
  settings_incomplete: "Set the company name and employer reference in CIS settings first",
  email_not_queued: "The statement is marked issued but its e-mail could not be queued. Use Resend on the statement, or send the PDF another way",
};

export const issueFailedTitle = (message: string) => `Failed to issue statement: ${message}`;

export const ISSUE_SUCCESS_TITLES: Readonly<Record<IssueMethod, string>> = {
  email: "Statement issued by e-mail",
  portal: "Statement issued to the portal",
  print: "Statement issued for printing",
};

export const ISSUE_METHOD_LABELS: Readonly<Record<IssueMethod, string>> = { email: "E-mail", portal: "Portal", print: "Print" };

/** Why Resend refused: the statement's latest e-mail has not failed, or it cannot be sent now. */
export type ResendErrorCode = "not_found" | "not_failed" | "email_disabled" | "no_email" | "settings_incomplete" | "email_not_queued";

export const RESEND_ERROR_MESSAGES: Readonly<Record<ResendErrorCode, string>> = {
  not_found: "Statement not found",
  not_failed: "Only an e-mailed statement whose e-mail was not sent can be sent again",
  email_disabled: ISSUE_ERROR_MESSAGES.email_disabled,
  no_email: ISSUE_ERROR_MESSAGES.no_email,
  settings_incomplete: ISSUE_ERROR_MESSAGES.settings_incomplete,
  email_not_queued: "The e-mail could not be queued again. Try again later, or send the PDF another way",
};

export const resendFailedTitle = (message: string) => `E-mail not sent: ${message}`;
export const RESEND_SUCCESS_TITLE = "Statement e-mail sent again";

/** Why the statement's latest e-mail failed, as the statements page says it after 'E-mail not sent: '. */
export type EmailFailure = "not_queued" | "delivery_failed";
export const EMAIL_FAILURE_MESSAGES: Readonly<Record<EmailFailure, string>> = {
  not_queued: "it could not be queued",
  delivery_failed: "delivery failed",
};
