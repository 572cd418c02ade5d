import { currentTaxMonth, taxMonthFromLabel, type TaxMonth } from "../domain/tax-month";

/** The returns page's `month`: none (or blank) is the current London tax month at `now`, a malformed one null. */
export function parseReturnsMonth(raw: string | null, now: Date): TaxMonth | null {
  if (raw === null || raw.trim() === "") return currentTaxMonth(now);
  try {
    return taxMonthFromLabel(raw.trim());
  } catch {
    return null;
  }
}
