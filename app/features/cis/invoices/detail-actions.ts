import { z } from "zod";
import { isIsoDate } from "../domain/schemas";

/** The buttons of the invoice detail page, told apart by the posted `intent`. */
export const DETAIL_INTENTS = ["approve", "reject", "pay", "cancel", "delete", "statement", "email"] as const;
export type DetailIntent = (typeof DETAIL_INTENTS)[number];

/** Intents that ask first: a dialog with JavaScript, a confirmation step rendered by the server without it. */
export const CONFIRMED_INTENTS = ["reject", "cancel", "delete"] as const;
export type ConfirmedIntent = (typeof CONFIRMED_INTENTS)[number];

export function isConfirmedIntent(intent: DetailIntent): intent is ConfirmedIntent {
  return (CONFIRMED_INTENTS as readonly string[]).includes(intent);
}

export function confirmText(intent: ConfirmedIntent, invoiceNumber: string): string {
  const name = invoiceNumber || "Untitled";
  switch (intent) {
    case "reject":
      return "Reject this portal-submitted invoice?";
    case "cancel":
      return `Cancel invoice ${name}?`;
    case "delete":
      return `Delete invoice ${name}? It will no longer appear in the invoice list.`;
  }
}

export const INVALID_DATE = "Invalid date";

/** Mark Paid: a blank date means today in London. */
export const payFormSchema = z.object({
  intent: z.literal("pay"),
  paymentDate: z
    .string()
    .trim()
    .optional()
    .refine((v) => v === undefined || isIsoDate(v), INVALID_DATE),
});

export const intentFormSchema = z.object({
  intent: z.enum(DETAIL_INTENTS),
  confirmed: z.literal("yes").optional().catch(undefined),
});
