import { z } from "zod";

/** Exporting one return as CSV. */
export const returnExportSchema = z.object({ id: z.string().min(1).max(64) });

/** The returns page's forms: compile, nil return, amend, unlock (the last three confirmed first). */
export const returnsActionSchema = z.object({
  intent: z.enum(["compile", "nil", "amend", "unlock"]),
  month: z.string().max(20).default(""),
  id: z.string().max(64).optional(),
  confirmed: z.literal("yes").optional().catch(undefined),
});
