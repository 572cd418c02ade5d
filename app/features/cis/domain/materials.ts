// The materials share of an invoice: when the form warns and when it needs a note. No zod here,
// so the invoice form can import these without carrying the schemas (the server validates).

/** Materials at or above this share of gross show a warning. */
export const MATERIALS_WARNING_PERCENT = 60;
/** Materials at or above this share of gross need a justification note. */
export const MATERIALS_JUSTIFICATION_PERCENT = 80;
export const MATERIALS_JUSTIFICATION_MIN_LENGTH = 10;

// Integer share checks, so 80% is exactly 80% with no float rounding at the edge.
const atLeastPercent = (grossP: number, materialsP: number, percent: number) => grossP > 0 && materialsP * 100 >= grossP * percent;

export function materialsNeedJustification(grossP: number, materialsP: number): boolean {
  return atLeastPercent(grossP, materialsP, MATERIALS_JUSTIFICATION_PERCENT);
}

/** The 60% warning, e.g. 'High materials percentage (65%) - please verify this is correct'; null below 60%. */
export function materialsWarning(grossP: number, materialsP: number): string | null {
  if (!atLeastPercent(grossP, materialsP, MATERIALS_WARNING_PERCENT)) return null;
  const hundredths = Math.round((materialsP * 10000) / grossP);
  const pct = (hundredths / 100).toFixed(2).replace(/\.?0+$/, "");
  return `High materials percentage (${pct}%) - please verify this is correct`;
}
