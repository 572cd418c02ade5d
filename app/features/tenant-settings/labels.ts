// What the branding page shows and its live preview reads. No zod here, so the page's browser code
// can import it without carrying the schemas: the action's schema is the one check of what is saved.
import { BRAND_APPEARANCES, type BrandAppearance } from "~/db/enums";
import { BRAND_FONT_IDS, BRAND_RADII, HEX_COLOUR_RE } from "~/features/platform";

export const RADIUS_LABELS: Record<(typeof BRAND_RADII)[number], string> = {
  "0rem": "None (0)",
  "0.25rem": "Small (0.25 rem)",
  "0.5rem": "Medium (0.5 rem)",
  "0.75rem": "Large (0.75 rem)",
  "1rem": "Extra large (1 rem)",
};

export const APPEARANCE_LABELS: Record<BrandAppearance, string> = {
  auto: "Follow the system",
  light: "Light",
  dark: "Dark",
};

/** What the preview draws: the choices that change how the shell looks. */
export type BrandingLook = {
  accentColor: string;
  radius: (typeof BRAND_RADII)[number];
  appearance: BrandAppearance;
  fontFamily: (typeof BRAND_FONT_IDS)[number];
};

/** `value` when it is one of `list`, else undefined. */
export function oneOf<T extends string>(list: readonly T[], value: unknown): T | undefined {
  return list.find((v) => v === value);
}

/**
 * The look the form's fields describe, or null while any of them is not a value the server
 * accepts (the preview then keeps the last good one). Only the page's preview reads this: it
 * decides nothing that is saved.
 */
export function lookFromForm(values: Record<string, unknown>): BrandingLook | null {
  const accentColor = typeof values.accentColor === "string" ? values.accentColor.trim() : "";
  const radius = oneOf(BRAND_RADII, values.radius);
  const appearance = oneOf(BRAND_APPEARANCES, values.appearance);
  const fontFamily = oneOf(BRAND_FONT_IDS, values.fontFamily);
  if (!HEX_COLOUR_RE.test(accentColor) || !radius || !appearance || !fontFamily) return null;
  return { accentColor, radius, appearance, fontFamily };
}
