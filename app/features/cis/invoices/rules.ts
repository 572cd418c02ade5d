/**
 * Which invoice statuses each action starts from. Pure: the transitions (transitions on the
 * server) refuse anything else, and the detail page offers a button only where it would start.
 */
import type { InvoiceStatus } from "../domain/types";

export const INVOICE_ACTIONS = ["approve", "reject", "pay", "cancel", "delete", "statement"] as const;
export type InvoiceAction = (typeof INVOICE_ACTIONS)[number];

/** The states each action starts from. */
export const INVOICE_STARTS_FROM: Readonly<Record<InvoiceAction, readonly InvoiceStatus[]>> = {
  approve: ["draft", "portal_draft"],
  // A rejected portal submission is cancelled, and recorded as such.
  reject: ["portal_draft"],
  pay: ["approved"],
  // Paid invoices are part of the tax record (returns read them): they are not cancelled.
  cancel: ["draft", "portal_draft", "approved"],
  // Soft delete hides an invoice from lists; approved and paid ones carry a deduction and stay.
  delete: ["draft", "portal_draft", "cancelled"],
  // A statement reports payments made: only a paid invoice can be asked to go on one.
  statement: ["paid"],
};

/** Whether `action` may start from an invoice in `status`. */
export function startsFrom(action: InvoiceAction, status: InvoiceStatus): boolean {
  return INVOICE_STARTS_FROM[action].includes(status);
}
