import type { CisScope } from "../domain/scopes";
import type { ReturnStatus } from "../domain/types";

/**
 * Constants and error codes of the returns screen, safe to import in the browser bundle
 * (returns.server.ts re-exports them).
 */

/** Anyone who reads CIS data, compiles or submits returns may see them (page, nav link, export). */
export const RETURNS_READ_SCOPES: readonly CisScope[] = ["cis.read", "cis.ret.compile", "cis.ret.submit"];

/** Historical Returns shows this many of the most recent returns. */
export const RETURN_HISTORY_LIMIT = 12;
/** Lines the current return shows on the page (a page of 1,000 table rows renders slowly); Export CSV has them all. */
export const RETURN_LINES_SHOWN = 200;
/** Lines shown inside each expanded historical return; Export CSV has them all. */
export const RETURN_HISTORY_LINES_SHOWN = 50;

export const RETURN_ERROR_CODES = [
  "invalid_month",
  "compile_running",
  "locked",
  "not_found",
  "not_locked",
  "not_submitted",
  "amendment_open",
  "has_payments",
  "empty",
  "unlock_disabled",
] as const;
export type ReturnErrorCode = (typeof RETURN_ERROR_CODES)[number];

/** The words a person sees for each refusal: a title and a sentence, as the product's error catalogue has them. */
export const RETURN_ERROR_MESSAGES: Readonly<Record<ReturnErrorCode, { title: string; message: string }>> = {
  invalid_month: { title: "Unable to Compile", message: "That is not a tax month the returns page offers. Choose a tax month from the list" },
  compile_running: { title: "Compilation Failed", message: "This tax month's return is already being compiled. Wait a moment, then reload the page" },
  locked: { title: "Compilation Failed", message: "This return is locked because it has been submitted. To change it, start an amendment" },
  not_found: { title: "Return not found", message: "Return not found" },
  not_locked: { title: "Unlock Failed", message: "This return is not locked, so there is nothing to unlock" },
  not_submitted: { title: "Amend Failed", message: "Only a submitted return can be amended. Compile and submit this month's return first" },
  amendment_open: { title: "Amend Failed", message: "An amendment of this return is already open" },
  has_payments: { title: "Unable to Compile", message: "Payments were made in this tax month: compile the return instead of a nil return" },
  empty: { title: "Export Failed", message: "There is nothing to export: this return has no lines" },
  unlock_disabled: { title: "Unlock Failed", message: "Unlocking is only for testing. To change a submitted return, start an amendment" },
};

export const RETURN_STATUS_LABELS: Readonly<Record<ReturnStatus, string>> = {
  draft: "Draft",
  ready: "Ready",
  submitted: "Submitted",
  amended: "Amended",
  nil: "Nil",
};

/** Said (as information, not an error) when a compile reaches a return HMRC has already accepted. */
export const ALREADY_FILED_TITLE = "Already submitted";
export const ALREADY_FILED = "HMRC has already accepted this return. To change it, start an amendment.";

export const NOT_COMPILED = "Not compiled";
export const NO_RETURN_FOR_MONTH = "No return compiled for this tax month";
export const NO_HISTORY = "No historical returns found";
export const NO_TAX_MONTH = "Unable to determine current tax month";

/** The inactivity declaration a nil return rests on (the CIS300 asks it again at submission). */
export function nilConfirmText(displayLabel: string): string {
  return `Create a nil return for ${displayLabel}? This declares that no payments were made to subcontractors in this tax month.`;
}

export function amendConfirmText(id: string): string {
  return `Amend return ${id}? A new amendment starts from the submitted figures; the submitted return is kept as it was.`;
}

export const UNLOCK_CONFIRM_TEXT = "Unlock this return? It goes back to draft and its submission details are cleared. Testing only.";

/** The CSV download's file name. */
export function returnExportFileName(id: string): string {
  return `CIS_Return_${id.replace(/[^A-Za-z0-9-]/g, "_")}.csv`;
}

export const RETURN_EXPORT_HEADER = ["Subcontractor", "UTR", "NINO", "Gross", "Materials", "CIS Deducted", "CIS Rate", "Invoices"] as const;
