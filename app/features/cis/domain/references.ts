/**
 * Check characters of HMRC references, computed as HMRC computes them, so a mistyped reference is
 * caught on entry instead of coming back from HMRC as an unmatched subcontractor (taxed at the
 * higher rate) or a rejected return.
 *
 * - UTR (Self Assessment and Corporation Tax): ten digits, the first is the check digit. Weights
 *   6, 7, 8, 9, 10, 5, 4, 3, 2 apply to digits two to ten; the remainder of their sum divided by 11
 *   picks the check digit from "21987654321".
 * - Accounts Office reference (ePAYE, as used on the CIS300): three digits, "P", a check letter,
 *   eight digits. Weights 9, 10, 11, 12, 0, 8, 7, 6, 5, 4, 3, 2, 1 apply to the thirteen characters
 *   ("P" counts as 48, the check letter itself weighs 0); the remainder of the sum divided by 23
 *   picks the check letter from "ABCDEFGHXJKLMNYPQRSTZVW".
 *
 * HMRC's own sample return uses UTR 2234567890 and Accounts Office reference 754PT00002240; both
 * pass. 1234567890 and 123PA00012345 do not.
 */

const UTR_WEIGHTS = [6, 7, 8, 9, 10, 5, 4, 3, 2] as const;
const UTR_CHECK_DIGITS = "21987654321";

/** The check digit a UTR with these nine trailing digits must start with; null when not nine digits. */
export function utrCheckDigit(trailingNine: string): string | null {
  if (!/^\d{9}$/.test(trailingNine)) return null;
  let sum = 0;
  for (let i = 0; i < 9; i++) sum += UTR_WEIGHTS[i] * Number(trailingNine[i]);
  return UTR_CHECK_DIGITS[sum % 11];
}

/** Ten digits whose first is the check digit of the other nine. Spaces must be removed first. */
export function hasValidUtrCheckDigit(utr: string): boolean {
  if (!/^\d{10}$/.test(utr)) return false;
  return utrCheckDigit(utr.slice(1)) === utr[0];
}

const AO_WEIGHTS = [9, 10, 11, 12, 0, 8, 7, 6, 5, 4, 3, 2, 1] as const;
const AO_CHECK_LETTERS = "ABCDEFGHXJKLMNYPQRSTZVW";
/** The value of "P", the only letter the weighted positions of an Accounts Office reference hold. */
const P_VALUE = 48;

/** The check letter (fifth character) an Accounts Office reference "dddP?dddddddd" must carry. */
export function accountsOfficeCheckLetter(reference: string): string | null {
  if (!/^\d{3}P[A-Z]\d{8}$/.test(reference)) return null;
  let sum = 0;
  for (let i = 0; i < 13; i++) {
    const ch = reference[i];
    const value = ch === "P" && i === 3 ? P_VALUE : i === 4 ? 0 : Number(ch);
    sum += AO_WEIGHTS[i] * value;
  }
  return AO_CHECK_LETTERS[sum % 23];
}

/** Three digits, "P", the right check letter, eight digits. Spaces removed, upper case, first. */
export function hasValidAccountsOfficeCheckLetter(reference: string): boolean {
  const expected = accountsOfficeCheckLetter(reference);
  return expected !== null && reference[4] === expected;
}
