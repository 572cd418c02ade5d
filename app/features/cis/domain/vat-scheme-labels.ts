import type { VatScheme } from "./types";

/** The contractor's VAT scheme as the settings form names it (no zod here: the form imports it). */
export const VAT_SCHEME_LABELS: Readonly<Record<VatScheme, string>> = {
  standard: "Standard 20%",
  reduced: "Reduced 5%",
  zero: "Zero 0%",
  flat: "Flat",
};
