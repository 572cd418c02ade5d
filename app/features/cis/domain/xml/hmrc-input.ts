/**
 * Input checks for messages sent to HMRC. They mirror the XSD facets
 * (CISreturn-v1-2, CISverification-v1-2, core-v2-0) so that a message we build
 * is one HMRC's schema accepts; anything else is refused before sending, with
 * the offending field named.
 */
import { isValidPence } from "../money";
import { EMPLOYER_REF_RE } from "../schemas";
import { isCalendarDate } from "../tax-month";

export class HmrcInputError extends Error {
  readonly field: string;
  constructor(field: string, message: string) {
    super(`${field}: ${message}`);
    this.name = "HmrcInputError";
    this.field = field;
  }
}

// core-v2-0 PAYEstringType: the characters HMRC accepts in free text.
const PAYE_CHARS = /^[A-Za-z0-9 ~!"@#$%&'()*+,\-./:;<=>?[\\\]^_{}£€]*$/;
// core-v2-0 IRheaderStringType.
const IRHEADER_CHARS = /^[A-Za-z0-9 &'()*,\-./]*$/;
// core-v2-0 NameStructure.
const FORE_RE = /^[A-Za-z][A-Za-z'-]*$/;
const TITLE_RE = /^[A-Za-z][A-Za-z'-]*$/;
const SUR_RE = /^[A-Za-z0-9 ,.()/&\-']+$/;
// core-v2-0 NINOtype (suffix may be a space in the schema; we require A-D).
export const HMRC_NINO_RE = /^[ABCEGHJKLMNOPRSTWXYZ][ABCEGHJKLMNPRSTWXYZ][0-9]{6}[A-D]$/;
// CISreturn CRNtype.
export const CRN_RE = /^(?:[A-Za-z]{2}[0-9]{1,6}|[0-9]{1,8})$/;
// CISreturn AOrefType.
export const AOREF_RE = /^[0-9]{3}P[A-Za-z][A-Za-z0-9]{8}$/;
// CISreturn VerificationNumber (length 11 to 13 follows from the pattern).
export const VERIFICATION_NUMBER_RE = /^V[0-9]{10}[A-HJ-NP-Z]{0,2}$/;
// GovTalk envelope CorrelationID.
const CORRELATION_ID_RE = /^[0-9A-F]{1,32}$/;
const DATE_TIME_RE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?(?:Z|[+-]\d{2}:\d{2})?$/;
const TELEPHONE_RE = /^[0-9()\-\s]{1,35}$/;

/** HMRC's verification number: 'V', ten digits, then up to two letters (no I or O). */
export function isValidVerificationNumber(v: unknown): v is string {
  return typeof v === "string" && VERIFICATION_NUMBER_RE.test(v);
}

export function escapeXml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

export const req = {
  string(field: string, value: unknown): string {
    if (typeof value !== "string") throw new HmrcInputError(field, "is required");
    return value;
  },
  payeString(field: string, value: unknown, opts: { max: number; min?: number; leadingNonSpace?: boolean }): string {
    const v = req.string(field, value);
    if (v.length < (opts.min ?? 0)) throw new HmrcInputError(field, opts.min === 1 ? "must not be empty" : `must be at least ${opts.min} characters`);
    if (v.length > opts.max) throw new HmrcInputError(field, `must be at most ${opts.max} characters`);
    if (!PAYE_CHARS.test(v)) throw new HmrcInputError(field, "contains characters HMRC does not accept");
    if (opts.leadingNonSpace && /^\s/.test(v)) throw new HmrcInputError(field, "must not start with a space");
    return v;
  },
  utr(field: string, value: unknown): string {
    const v = req.string(field, value);
    if (!/^[0-9]{10}$/.test(v)) throw new HmrcInputError(field, "must be a 10-digit UTR");
    return v;
  },
  crn(field: string, value: unknown): string {
    const v = req.string(field, value);
    if (!CRN_RE.test(v)) throw new HmrcInputError(field, "must be a company registration number (2 letters and up to 6 digits, or up to 8 digits)");
    return v;
  },
  nino(field: string, value: unknown): string {
    const v = req.string(field, value);
    if (!HMRC_NINO_RE.test(v)) throw new HmrcInputError(field, "must be a National Insurance number like AB123456C");
    return v;
  },
  verificationNumber(field: string, value: unknown): string {
    const v = req.string(field, value);
    if (!isValidVerificationNumber(v)) throw new HmrcInputError(field, "must be V followed by 10 digits and up to 2 letters");
    return v;
  },
  aoRef(field: string, value: unknown): string {
    const v = req.string(field, value);
    if (!AOREF_RE.test(v)) throw new HmrcInputError(field, "must be a 13-character accounts office reference like 754PT00002240");
    return v;
  },
  employerRef(field: string, value: unknown): { taxOfficeNumber: string; taxOfficeReference: string } {
    const v = req.string(field, value);
    if (!EMPLOYER_REF_RE.test(v) || !IRHEADER_CHARS.test(v)) throw new HmrcInputError(field, "must look like 123/AB12345");
    const [taxOfficeNumber, taxOfficeReference] = v.split("/") as [string, string];
    return { taxOfficeNumber, taxOfficeReference };
  },
  isoDate(field: string, value: unknown): { year: number; month: number; day: number; text: string } {
    const v = req.string(field, value);
    const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(v);
    if (!m || !isCalendarDate(Number(m[1]), Number(m[2]), Number(m[3]))) throw new HmrcInputError(field, "must be a date YYYY-MM-DD");
    return { year: Number(m[1]), month: Number(m[2]), day: Number(m[3]), text: v };
  },
  correlationId(field: string, value: unknown): string {
    const v = req.string(field, value);
    if (!CORRELATION_ID_RE.test(v)) throw new HmrcInputError(field, "must be 1 to 32 upper-case hexadecimal characters");
    return v;
  },
  timestamp(field: string, value: unknown): string {
    if (value instanceof Date) {
      if (Number.isNaN(value.getTime())) throw new HmrcInputError(field, "is not a valid date");
      return value.toISOString();
    }
    const v = req.string(field, value);
    if (!DATE_TIME_RE.test(v) || Number.isNaN(Date.parse(v.replace(/(\.\d{3})\d+/, "$1")))) {
      throw new HmrcInputError(field, "must be a date-time like 2025-11-18T11:01:45.518");
    }
    return v;
  },
  name(field: string, value: unknown): { title?: string; fore: string[]; sur: string } {
    if (typeof value !== "object" || value === null) throw new HmrcInputError(field, "is required");
    const { fore, sur, title } = value as { fore?: unknown; sur?: unknown; title?: unknown };
    if (!Array.isArray(fore) || fore.length < 1 || fore.length > 2) throw new HmrcInputError(`${field}.fore`, "must hold one or two forenames");
    const fores = fore.map((f, i) => {
      const v = req.string(`${field}.fore[${i}]`, f);
      if (v.length < 1 || v.length > 35 || !FORE_RE.test(v)) {
        throw new HmrcInputError(`${field}.fore[${i}]`, "must be 1 to 35 letters, apostrophes or hyphens, starting with a letter");
      }
      return v;
    });
    const s = req.string(`${field}.sur`, sur);
    if (s.length < 1 || s.length > 35 || !SUR_RE.test(s)) {
      throw new HmrcInputError(`${field}.sur`, "must be 1 to 35 letters, digits, spaces or , . ( ) / & - '");
    }
    let t: string | undefined;
    if (title !== undefined && title !== null && title !== "") {
      t = req.string(`${field}.title`, title);
      if (t.length > 4 || !TITLE_RE.test(t)) throw new HmrcInputError(`${field}.title`, "must be at most 4 letters");
    }
    return { title: t, fore: fores, sur: s };
  },
  telephone(field: string, value: unknown): string {
    const v = req.string(field, value);
    if (!TELEPHONE_RE.test(v)) throw new HmrcInputError(field, "must be up to 35 digits, spaces, brackets or hyphens");
    return v;
  },
  nonEmpty(field: string, value: unknown, max = 100): string {
    const v = req.string(field, value);
    if (v.trim() === "") throw new HmrcInputError(field, "is required");
    if (v.length > max) throw new HmrcInputError(field, `must be at most ${max} characters`);
    return v;
  },
};

/** Largest whole-pound amount HMRC accepts for payments and materials per line. */
export const MAX_WHOLE_POUNDS = 99_999_999;
/** Largest deduction HMRC accepts per line, in pence (99,999,999.99). */
export const MAX_DEDUCTION_PENCE = 9_999_999_999;

function pence(field: string, value: unknown): number {
  if (!isValidPence(value)) throw new HmrcInputError(field, "must be a non-negative whole number of pence");
  return value;
}

/**
 * Payments and materials go to HMRC in whole pounds: pence are dropped
 * (truncated), see docs/decisions/0006-cis300-whole-pounds.md.
 */
export function wholePounds(field: string, value: unknown): string {
  const pounds = Math.trunc(pence(field, value) / 100);
  if (pounds > MAX_WHOLE_POUNDS) throw new HmrcInputError(field, "exceeds HMRC's maximum of £99,999,999");
  return `${pounds}.00`;
}

/** The deduction keeps its pence: '123.45'. */
export function poundsAndPence(field: string, value: unknown): string {
  const p = pence(field, value);
  if (p > MAX_DEDUCTION_PENCE) throw new HmrcInputError(field, "exceeds HMRC's maximum of £99,999,999.99");
  return `${Math.floor(p / 100)}.${String(p % 100).padStart(2, "0")}`;
}

/**
 * Splits a stored full name into HMRC's name structure (last word = surname,
 * up to two forenames). Null when it cannot be expressed, e.g. a single word
 * or characters the schema refuses; callers then send a trading name instead.
 */
export function hmrcNameFromFullName(fullName: string): { fore: string[]; sur: string } | null {
  const words = fullName.trim().split(/\s+/).filter(Boolean);
  if (words.length < 2) return null;
  const sur = words[words.length - 1]!;
  const fore = words.slice(0, -1);
  if (fore.length > 2) return null;
  if (!fore.every((f) => f.length <= 35 && FORE_RE.test(f))) return null;
  if (sur.length > 35 || !SUR_RE.test(sur)) return null;
  return { fore, sur };
}
