/**
 * Money is held as integer pence everywhere. Pounds only exist at the edges
 * (forms, display, exports, HMRC XML), so these helpers are the only places
 * where floats are allowed in.
 */

/** Largest amount a single invoice may carry: HMRC's per-line ceiling on the CIS300 (£99,999,999.99). */
export const MAX_AMOUNT_PENCE = 9_999_999_999;

export function isValidPence(n: unknown): n is number {
  return typeof n === "number" && Number.isSafeInteger(n) && n >= 0;
}

/**
 * Rounds to the nearest penny, halves away from zero.
 * Works on the decimal text of the number (the shortest string that round-trips)
 * rather than on `pounds * 100`, because 1.005 * 100 is 100.49999999999999 in
 * binary floating point while the user typed, and means, 1.005.
 */
export function poundsToPence(pounds: number): number {
  if (typeof pounds !== "number" || !Number.isFinite(pounds)) {
    throw new RangeError(`poundsToPence: not a finite number: ${String(pounds)}`);
  }
  const negative = pounds < 0;
  const text = decimalText(Math.abs(pounds));
  const [intPart, fracPart = ""] = text.split(".");
  const padded = (fracPart + "000").slice(0, 3);
  const pennies = Number(padded.slice(0, 2));
  const roundUp = Number(padded[2]) >= 5 ? 1 : 0;
  const pence = Number(intPart) * 100 + pennies + roundUp;
  if (!Number.isSafeInteger(pence)) {
    throw new RangeError(`poundsToPence: amount too large: ${String(pounds)}`);
  }
  return negative && pence !== 0 ? -pence : pence;
}

// String(1e-7) is "1e-7" and String(1e21) is "1e+21": expand exponent forms so
// the digit arithmetic above always sees plain positional notation.
function decimalText(abs: number): string {
  const s = String(abs);
  if (!/e/i.test(s)) return s;
  if (abs < 1) return "0";
  return BigInt(Math.round(abs)).toString();
}

/** '£1,234.56'; negative amounts as '-£1.00'. */
export function formatPence(pence: number): string {
  if (!Number.isFinite(pence)) return "£0.00";
  const p = Math.round(pence);
  const sign = p < 0 ? "-" : "";
  const abs = Math.abs(p);
  const pounds = Math.floor(abs / 100);
  const pennies = abs % 100;
  const grouped = String(pounds).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  return `${sign}£${grouped}.${String(pennies).padStart(2, "0")}`;
}

/** Pounds with two decimals and no symbol or grouping, for CSV exports: '1234.56'. */
export function penceToPoundsString(pence: number): string {
  const p = Math.round(pence);
  const sign = p < 0 ? "-" : "";
  const abs = Math.abs(p);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, "0")}`;
}

/**
 * Parses what a user typed ('£1,234.56', '1 234.5', '.50') into pence.
 * Null when it is not a non-negative amount with at most two decimals.
 */
export function parseMoney(text: string): number | null {
  if (typeof text !== "string") return null;
  const cleaned = text.replace(/[£,\s]/g, "");
  const match = /^(\d*)(?:\.(\d{0,2}))?$/.exec(cleaned);
  if (!match) return null;
  const [, intDigits = "", fracDigits] = match;
  if (intDigits === "" && (fracDigits === undefined || fracDigits === "")) return null;
  const pence = Number(intDigits || "0") * 100 + Number((fracDigits ?? "").padEnd(2, "0"));
  return isValidPence(pence) ? pence : null;
}
