import { z } from "zod";
import { isTaxMonthLabel } from "../domain/tax-month";
import { DEV_HMRC_MODES } from "./codes";

/** The development HMRC stand-in: how it answers for one employer reference. */
export const devHmrcModeSchema = z.object({
  employerRef: z
    .string()
    .trim()
    .regex(/^[0-9]{3}\/[A-Za-z0-9]{1,10}$/, "Enter an employer reference in the correct format, like 123/AB12345"),
  mode: z.enum(DEV_HMRC_MODES, { error: "Select how the fake answers" }),
});

/** /cis/returns/:taxMonth/submit: any other month label is simply not found. */
export const returnSubmitParamsSchema = z.object({ taxMonth: z.string().refine(isTaxMonthLabel) });

const checked = z
  .literal("yes")
  .optional()
  .catch(undefined)
  .transform((v) => v === "yes");

/** The declarations ticked before a return goes to HMRC (each box on or off). */
export const returnDeclarationsSchema = z.object({ employmentStatus: checked, verification: checked, informationCorrect: checked, inactivity: checked });
