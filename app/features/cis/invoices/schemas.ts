/**
 * The invoices area's input shapes: route params, the detail page's buttons, the form's intents
 * and the list's bulk form. Pure zod: read by the routes on the server and by the toolbar in the
 * browser (Mark Paid checks its date before posting).
 */
import { z } from "zod";
import { isIsoDate } from "../domain/schemas";
import { DETAIL_INTENTS } from "./detail-actions";
import { BULK_INVOICE_ACTIONS } from "./invoice-codes";

/** `/cis/invoices/:id…`: an id that cannot exist is treated as absent. */
export const invoiceParamsSchema = z.object({ id: z.string().min(1).max(64) });

/** One module for /cis/invoices/new and /cis/invoices/:id/edit: the id decides. */
export const invoiceFormParamsSchema = z.object({ id: z.string().min(1).max(64).optional() });
/** The subcontractor picker's search: what a name contains (blank for the first by name). */
export const subcontractorSearchSchema = z.string().trim().max(100).catch("");

/**
 * `?subcontractorId=` preselects the subcontractor of a new invoice (and keeps the chosen one
 * among the choices of a search); `?subcontractorQ=` is the picker's search.
 */
export const invoiceFormQuerySchema = z.object({
  subcontractorId: z.string().max(64).optional().catch(undefined),
  subcontractorQ: subcontractorSearchSchema.optional(),
});

/**
 * The buttons of the invoice form: a new invoice may also be saved and followed by another;
 * 'find-subcontractor' is the picker's search step (the form comes back with what was typed).
 */
export const INVOICE_FORM_INTENTS = {
  create: ["save", "save-new", "calculate", "find-subcontractor"],
  edit: ["save", "calculate", "find-subcontractor"],
} as const;
export function invoiceFormIntentSchema(editing: boolean) {
  return z.enum(editing ? INVOICE_FORM_INTENTS.edit : INVOICE_FORM_INTENTS.create);
}

/** Mark Paid's date that is not a real calendar date (a blank one is today). */
export const INVALID_DATE = "Payment date must be a real date";

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

const idList = z.array(z.string().min(1).max(64)).transform((v) => [...new Set(v)]);

/** The list's bulk toolbar (and its server-rendered confirmation step). */
export const invoiceBulkFormSchema = z.object({
  intent: z.enum(BULK_INVOICE_ACTIONS),
  confirmed: z.literal("yes").optional().catch(undefined),
  selectAll: z.literal("page").optional().catch(undefined),
  ids: idList,
  pageIds: idList,
  paymentDate: z
    .string()
    .optional()
    .transform((v) => v?.trim() || undefined),
});
