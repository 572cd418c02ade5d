import { z } from "zod";
import { BRAND_APPEARANCES, BRAND_FONT_IDS, BRAND_RADII, HEX_COLOUR_RE } from "~/features/platform";

export const brandingSchema = z.object({
  accentColor: z
    .string({ error: "Enter an accent colour" })
    .trim()
    .regex(HEX_COLOUR_RE, "Enter the accent colour in the correct format: # and 6 hexadecimal digits, like #00D16A"),
  radius: z.enum(BRAND_RADII, { error: "Select a corner radius from the list" }),
  appearance: z.enum(BRAND_APPEARANCES, { error: "Select light, dark or follow the system" }),
  fontFamily: z.enum(BRAND_FONT_IDS, { error: "Select a font from the list" }),
  // Printed on documents such as CIS statements; blank removes it.
  address: z
    .string()
    .trim()
    .max(300, "Address must be 300 characters or less")
    .refine((v) => v.split(/\r?\n/).length <= 6, "Address must be 6 lines or less")
    .optional(),
});
export type BrandingInput = z.infer<typeof brandingSchema>;

/** Switching one module on or off; `enabled` must say which, nothing else counts. */
export const moduleToggleSchema = z.object({
  moduleId: z.string().trim().min(1).max(100),
  enabled: z.enum(["true", "false"]).transform((v) => v === "true"),
});
