/**
 * Zod 4 schemas shared by forms (conform's parseWithZod) and server actions.
 *
 * Written for conform's FormData coercion: empty strings arrive as undefined,
 * numbers and booleans arrive coerced. Blank optional text is therefore
 * "not given" whether it comes as undefined or as '' from a JSON caller.
 *
 * Booleans default to false: an unticked checkbox is simply absent from
 * FormData, so a default of true would make it impossible to untick. The
 * product's initial values (emailStatements true, new subcontractors active)
 * live in DEFAULT_CIS_SETTINGS / DEFAULT_SUBCONTRACTOR_VALUES for the form's
 * defaultValue instead.
 */
import { z } from "zod";
import { RATE_FOR_VERIFICATION_STATUS, VAT_RATES, VERIFICATION_STATUSES } from "./calculation";
import { MAX_AMOUNT_PENCE, formatPence, parseMoney } from "./money";
import { hasValidAccountsOfficeCheckLetter, hasValidUtrCheckDigit } from "./references";
import { isCalendarDate } from "./tax-month";
import { SUBCONTRACTOR_TYPES, VAT_SCHEMES, VERIFICATION_METHODS, type SubcontractorType } from "./types";
import type { VerificationStatus } from "./calculation";
import {
  MATERIALS_JUSTIFICATION_MIN_LENGTH,
  MATERIALS_JUSTIFICATION_PERCENT,
  MATERIALS_WARNING_PERCENT,
  materialsNeedJustification,
  materialsWarning,
} from "./materials";
import { VAT_SCHEME_LABELS } from "./vat-scheme-labels";

export {
  MATERIALS_JUSTIFICATION_MIN_LENGTH,
  MATERIALS_JUSTIFICATION_PERCENT,
  MATERIALS_WARNING_PERCENT,
  materialsNeedJustification,
  materialsWarning,
  VAT_SCHEME_LABELS,
};

// ---------------------------------------------------------------------------
// Patterns and small validators (also used outside forms)

export const UTR_RE = /^\d{10}$/;
/** HMRC NINO: no D, F, I, Q, U, V in either prefix letter, no O second, suffix A-D. */
export const NINO_RE = /^(?!BG|GB|NK|KN|TN|NT|ZZ)[A-CEGHJ-PR-TW-Z][A-CEGHJ-NPR-TW-Z]\d{6}[A-D]$/;
export const COMPANY_NUMBER_RE = /^[A-Z0-9]{8}$/;
export const VAT_NUMBER_RE = /^(?:GB)?(?:\d{9}|\d{12})$/;
export const UK_PHONE_RE = /^(?:\+44|0044|0)\d{9,10}$/;
export const EMPLOYER_REF_RE = /^\d{3}\/[A-Z0-9]{2,10}$/;
/**
 * Three digits, two letters, eight digits; HMRC's CIS300 and verification schemas
 * also require the first letter to be 'P'. Both hold here, so a saved reference is one a
 * return can carry (docs/decisions/0008-accounts-office-reference.md).
 */
export const ACCOUNTS_OFFICE_REF_RE = /^\d{3}P[A-Z]\d{8}$/;

export const normalizeUtr = (v: string) => v.replace(/\s+/g, "");
export const normalizeNino = (v: string) => v.replace(/\s+/g, "").toUpperCase();
export const normalizeCompanyNumber = (v: string) => v.replace(/\s+/g, "").toUpperCase();
export const normalizeVatNumber = (v: string) => v.replace(/\s+/g, "").toUpperCase();
const phoneDigits = (v: string) => v.replace(/\(0\)/g, "").replace(/[\s\-()]/g, "");

export const isValidUtr = (v: string) => hasValidUtrCheckDigit(normalizeUtr(v));
export const isValidNino = (v: string) => NINO_RE.test(normalizeNino(v));
export const isValidCompanyNumber = (v: string) => COMPANY_NUMBER_RE.test(normalizeCompanyNumber(v));
export const isValidVatNumber = (v: string) => VAT_NUMBER_RE.test(normalizeVatNumber(v));
export const isValidUkPhone = (v: string) => UK_PHONE_RE.test(phoneDigits(v));
export const isValidEmail = (v: string) => z.email().safeParse(v).success;

export function isIsoDate(v: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(v);
  return Boolean(m && isCalendarDate(Number(m[1]), Number(m[2]), Number(m[3])));
}

/**
 * Optional text: blank means absent; otherwise normalised and, if a check is
 * given, validated with the product's message.
 */
/** A further check after the shape, with its own message (e.g. HMRC's check character on a well-formed reference). */
interface SecondCheck {
  test: (v: string) => boolean;
  message: string;
}

/** When a reference has the right shape but not HMRC's check character. */
export const REFERENCE_CHECK_MESSAGES = {
  subcontractorUtr: "Enter a valid UTR: check the number on the subcontractor's letters from HMRC",
  contractorUtr: "Enter a valid UTR: check the number on your letters from HMRC",
  accountsOfficeRef: "Enter a valid Accounts Office reference: check it on your letters from HMRC (it looks like 754PT00002240)",
} as const;

function optionalText(
  opts: { normalize?: (v: string) => string; test?: (v: string) => boolean; message?: string; check?: SecondCheck; max?: number; maxMessage?: string } = {},
) {
  const normalize = opts.normalize ?? ((v: string) => v.trim());
  return z
    .string()
    .optional()
    .transform((raw, ctx) => {
      if (raw === undefined || raw.trim() === "") return undefined;
      const value = normalize(raw.trim());
      if (opts.test && !opts.test(value)) {
        ctx.issues.push({ code: "custom", message: opts.message ?? "Enter this in the correct format", input: raw });
        return z.NEVER;
      }
      if (opts.check && !opts.check.test(value)) {
        ctx.issues.push({ code: "custom", message: opts.check.message, input: raw });
        return z.NEVER;
      }
      if (opts.max !== undefined && value.length > opts.max) {
        ctx.issues.push({ code: "custom", message: opts.maxMessage ?? `Must be ${opts.max} characters or less`, input: raw });
        return z.NEVER;
      }
      return value;
    });
}

function requiredText(
  message: string,
  opts: { normalize?: (v: string) => string; test?: (v: string) => boolean; testMessage?: string; check?: SecondCheck } = {},
) {
  const normalize = opts.normalize ?? ((v: string) => v.trim());
  return z.string({ error: message }).transform((raw, ctx) => {
    const value = normalize(raw.trim());
    if (value === "") {
      ctx.issues.push({ code: "custom", message, input: raw });
      return z.NEVER;
    }
    if (opts.test && !opts.test(value)) {
      ctx.issues.push({ code: "custom", message: opts.testMessage ?? message, input: raw });
      return z.NEVER;
    }
    if (opts.check && !opts.check.test(value)) {
      ctx.issues.push({ code: "custom", message: opts.check.message, input: raw });
      return z.NEVER;
    }
    return value;
  });
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null;

// ---------------------------------------------------------------------------
// Subcontractor

export const SUBCONTRACTOR_MESSAGES = {
  name: "Enter the subcontractor's name, at least 2 characters",
  nameTooLong: "Name must be 100 characters or less",
  utrRequired: "Enter the subcontractor's UTR: 10 digits, like 2234567890",
  utr: "Enter a UTR in the correct format: 10 digits, like 2234567890",
  nino: "Enter a National Insurance number in the correct format, like QQ 12 34 56 C",
  companyNumber: "Enter a company number in the correct format: 8 characters, like 01234567 or SC123456",
  email: "Enter an email address in the correct format, like name@example.com",
  phone: "Enter a UK phone number, like 01632 960 001, 07700 900 982 or +44 7700 900 982",
  vatNumber: "Enter a VAT registration number in the correct format: 9 or 12 digits, like GB123456789",
  verificationStatus: "Select a verification status: gross, standard or higher",
  verificationMethod: "Select how the subcontractor was verified: online, phone or letter",
  verifiedDate: "Date verified must be a real date",
  type: "Select whether the subcontractor is an individual, a company or a partnership",
  verificationReference: "Verification reference must be 50 characters or less",
  verificationNotes: "Notes must be 1000 characters or less",
} as const;

export const DEFAULT_SUBCONTRACTOR_VALUES = {
  type: "individual",
  active: true,
  verificationStatus: "standard",
  verificationRate: 20,
} as const;

const subcontractorName = z
  .string({ error: SUBCONTRACTOR_MESSAGES.name })
  .trim()
  .min(2, SUBCONTRACTOR_MESSAGES.name)
  .max(100, SUBCONTRACTOR_MESSAGES.nameTooLong);

const utrTest = {
  normalize: normalizeUtr,
  test: (v: string) => UTR_RE.test(v),
  check: { test: hasValidUtrCheckDigit, message: REFERENCE_CHECK_MESSAGES.subcontractorUtr },
};

const subcontractorFields = {
  type: z.enum(SUBCONTRACTOR_TYPES, { error: SUBCONTRACTOR_MESSAGES.type }),
  name: subcontractorName,
  // Checked against the type in refineSubcontractor (NINO only for individuals).
  nino: optionalText({ normalize: normalizeNino }),
  companyNumber: optionalText({ normalize: normalizeCompanyNumber }),
  email: optionalText({ test: isValidEmail, message: SUBCONTRACTOR_MESSAGES.email }),
  phone: optionalText({ test: isValidUkPhone, message: SUBCONTRACTOR_MESSAGES.phone }),
  vatNumber: optionalText({ normalize: normalizeVatNumber, test: (v) => VAT_NUMBER_RE.test(v), message: SUBCONTRACTOR_MESSAGES.vatNumber }),
  verificationStatus: z.enum(VERIFICATION_STATUSES, { error: SUBCONTRACTOR_MESSAGES.verificationStatus }).default("standard"),
  verificationMethod: z.enum(VERIFICATION_METHODS, { error: SUBCONTRACTOR_MESSAGES.verificationMethod }).optional(),
  verificationReference: optionalText({ max: 50, maxMessage: SUBCONTRACTOR_MESSAGES.verificationReference }),
  verificationNotes: optionalText({ max: 1000, maxMessage: SUBCONTRACTOR_MESSAGES.verificationNotes }),
  verifiedDate: optionalText({ test: isIsoDate, message: SUBCONTRACTOR_MESSAGES.verifiedDate }),
  active: z.boolean().default(false),
  // A local authority or another public body the regulations list: payments to it from 6 April 2026 are outside CIS.
  publicBody: z.boolean().default(false),
};

interface SubcontractorIds {
  type: SubcontractorType;
  nino?: string;
  companyNumber?: string;
  verificationStatus: VerificationStatus;
}

function refineSubcontractor(v: SubcontractorIds, ctx: z.RefinementCtx): void {
  if (v.type === "individual" && v.nino !== undefined && !NINO_RE.test(v.nino)) {
    ctx.addIssue({ code: "custom", message: SUBCONTRACTOR_MESSAGES.nino, path: ["nino"] });
  }
  // Companies House numbers exist for companies and for LLP partnerships.
  if (v.type !== "individual" && v.companyNumber !== undefined && !COMPANY_NUMBER_RE.test(v.companyNumber)) {
    ctx.addIssue({ code: "custom", message: SUBCONTRACTOR_MESSAGES.companyNumber, path: ["companyNumber"] });
  }
}

const typeKnown = (payload: { value: unknown }) => isObject(payload.value) && (SUBCONTRACTOR_TYPES as readonly unknown[]).includes(payload.value.type);

function withDerivedFields<T extends SubcontractorIds>(v: T) {
  return {
    ...v,
    // Identifiers that do not belong to the type are dropped rather than stored.
    nino: v.type === "individual" ? v.nino : undefined,
    companyNumber: v.type === "individual" ? undefined : v.companyNumber,
    verificationRate: RATE_FOR_VERIFICATION_STATUS[v.verificationStatus],
  };
}

/** Create: UTR required. */
export const subcontractorCreateSchema = z
  .object({
    ...subcontractorFields,
    utr: requiredText(SUBCONTRACTOR_MESSAGES.utrRequired, { ...utrTest, testMessage: SUBCONTRACTOR_MESSAGES.utr }),
  })
  .superRefine(refineSubcontractor, { when: typeKnown })
  .transform(withDerivedFields);

export const REMOVE_NINO_CONFLICT = "Enter a new National Insurance number or remove the current one, not both";

/**
 * Edit: a blank UTR keeps the stored one (output utr undefined); a blank NINO keeps the stored
 * one unless removeNino is ticked, which clears it.
 */
export const subcontractorUpdateSchema = z
  .object({
    ...subcontractorFields,
    utr: optionalText({ ...utrTest, message: SUBCONTRACTOR_MESSAGES.utr }),
    removeNino: z.boolean().default(false),
  })
  .superRefine(refineSubcontractor, { when: typeKnown })
  .superRefine((v, ctx) => {
    if (v.removeNino && v.nino !== undefined) ctx.addIssue({ code: "custom", message: REMOVE_NINO_CONFLICT, path: ["removeNino"] });
  })
  .transform(withDerivedFields);

export const subcontractorSchema = subcontractorUpdateSchema;

export type SubcontractorCreateInput = z.input<typeof subcontractorCreateSchema>;
export type SubcontractorCreate = z.output<typeof subcontractorCreateSchema>;
export type SubcontractorUpdate = z.output<typeof subcontractorUpdateSchema>;

// ---------------------------------------------------------------------------
// Invoice

export const INVOICE_MESSAGES = {
  subcontractor: "Select a subcontractor",
  invoiceDate: "Enter the invoice date",
  invoiceDateReal: "Invoice date must be a real date",
  receivedDateReal: "Date received must be a real date",
  invoiceNumber: "Enter the invoice number",
  invoiceNumberTooLong: "Invoice number must be 50 characters or less",
  negative: "Enter an amount of £0.00 or more",
  wholePence: "Enter an amount in pounds and pence, like 1234.56",
  tooLarge: `Enter an amount of ${formatPence(MAX_AMOUNT_PENCE)} or less`,
  amountRequired: "Enter an amount",
  invalidAmount: "Enter an amount in pounds, like 1234.56",
  materialsExceedGross: "Materials must be the same as or less than the gross amount",
  vatRate: "Select a VAT rate: 0%, 5% or 20%",
  justification: "Materials are 80% or more of the gross amount: enter a note of at least 10 characters saying why",
  description: "Description must be 1000 characters or less",
  materialsJustification: "Justification must be 1000 characters or less",
} as const;

const penceAmount = z
  .number({ error: INVOICE_MESSAGES.amountRequired })
  .int(INVOICE_MESSAGES.wholePence)
  .min(0, INVOICE_MESSAGES.negative)
  .max(MAX_AMOUNT_PENCE, INVOICE_MESSAGES.tooLarge);

/** A pounds text field ('£1,234.56') read into pence. */
export const poundsAmount = z.string({ error: INVOICE_MESSAGES.amountRequired }).transform((raw, ctx) => {
  if (/^\s*-/.test(raw)) {
    ctx.issues.push({ code: "custom", message: INVOICE_MESSAGES.negative, input: raw });
    return z.NEVER;
  }
  const pence = parseMoney(raw);
  if (pence === null) {
    ctx.issues.push({ code: "custom", message: INVOICE_MESSAGES.invalidAmount, input: raw });
    return z.NEVER;
  }
  if (pence > MAX_AMOUNT_PENCE) {
    ctx.issues.push({ code: "custom", message: INVOICE_MESSAGES.tooLarge, input: raw });
    return z.NEVER;
  }
  return pence;
});

const invoiceCommon = {
  subcontractorId: requiredText(INVOICE_MESSAGES.subcontractor),
  invoiceNumber: z
    .string({ error: INVOICE_MESSAGES.invoiceNumber })
    .trim()
    .min(1, INVOICE_MESSAGES.invoiceNumber)
    .max(50, INVOICE_MESSAGES.invoiceNumberTooLong),
  invoiceDate: requiredText(INVOICE_MESSAGES.invoiceDate, { test: isIsoDate, testMessage: INVOICE_MESSAGES.invoiceDateReal }),
  receivedDate: optionalText({ test: isIsoDate, message: INVOICE_MESSAGES.receivedDateReal }),
  description: optionalText({ max: 1000, maxMessage: INVOICE_MESSAGES.description }),
  vatRate: z.number({ error: INVOICE_MESSAGES.vatRate }).refine((n) => (VAT_RATES as readonly number[]).includes(n), INVOICE_MESSAGES.vatRate),
  reverseCharge: z.boolean().default(false),
  materialsJustification: optionalText({ max: 1000, maxMessage: INVOICE_MESSAGES.materialsJustification }),
};

function invoiceCrossChecks(grossKey: string, materialsKey: string) {
  return (v: Record<string, unknown>, ctx: z.RefinementCtx) => {
    const gross = v[grossKey];
    const materials = v[materialsKey] ?? 0;
    if (typeof gross !== "number" || typeof materials !== "number") return;
    if (materials > gross) {
      ctx.addIssue({ code: "custom", message: INVOICE_MESSAGES.materialsExceedGross, path: [materialsKey] });
      return;
    }
    const note = typeof v.materialsJustification === "string" ? v.materialsJustification.trim() : "";
    if (materialsNeedJustification(gross, materials) && note.length < MATERIALS_JUSTIFICATION_MIN_LENGTH) {
      ctx.addIssue({ code: "custom", message: INVOICE_MESSAGES.justification, path: ["materialsJustification"] });
    }
  };
}

const amountsReady = (grossKey: string, materialsKey: string) => (payload: { value: unknown }) => {
  if (!isObject(payload.value)) return false;
  const materials = payload.value[materialsKey] ?? 0;
  return typeof payload.value[grossKey] === "number" && typeof materials === "number";
};

/** Amounts in integer pence (grossP, materialsP). */
export const invoiceSchema = z
  .object({ ...invoiceCommon, grossP: penceAmount, materialsP: penceAmount })
  .superRefine(invoiceCrossChecks("grossP", "materialsP"), { when: amountsReady("grossP", "materialsP") });

/**
 * Same rules for a form where people type pounds into `gross` and `materials`
 * (blank materials = none); the output carries grossP/materialsP like invoiceSchema.
 */
const invoiceFormFields = z.object({ ...invoiceCommon, gross: poundsAmount, materials: poundsAmount.optional() });

export const invoiceFormSchema = invoiceFormFields
  .superRefine(invoiceCrossChecks("gross", "materials"), { when: amountsReady("gross", "materials") })
  .transform(({ gross, materials, ...rest }) => ({ ...rest, grossP: gross, materialsP: materials ?? 0 }));

/**
 * Only what the calculation needs from the same form (subcontractor, amounts, VAT), so figures
 * can be shown while other fields (number, dates, the justification note) still have errors.
 */
export const invoiceFormAmountsSchema = invoiceFormFields
  .pick({ subcontractorId: true, gross: true, materials: true, vatRate: true, reverseCharge: true })
  .refine((v) => (v.materials ?? 0) <= v.gross, { message: INVOICE_MESSAGES.materialsExceedGross, path: ["materials"] })
  .transform(({ gross, materials, ...rest }) => ({ ...rest, grossP: gross, materialsP: materials ?? 0 }));

export type InvoiceInput = z.output<typeof invoiceSchema>;

// ---------------------------------------------------------------------------
// Settings

export const SETTINGS_MESSAGES = {
  companyName: "Enter the company name, at least 2 characters",
  companyNameTooLong: "Company name must be 100 characters or less",
  employerRef: "Enter the employer reference in the correct format, like 123/AB12345",
  accountsOfficeRef: "Enter the Accounts Office reference in the correct format, like 754PT00002240",
  utr: "Enter a UTR in the correct format: 10 digits, like 2234567890",
  utrRequired: "Enter the contractor's UTR to switch CIS on",
  warningDays: "Enter a whole number of days from 0 to 30",
  statementDeadlineDays: "Enter a whole number of days from 1 to 30",
  email: "Enter an email address in the correct format, like name@example.com",
  statementFooter: "Statement footer must be 1000 characters or less",
  vatScheme: "Select a VAT scheme: standard, reduced, zero or flat",
} as const;

export interface SettingsSchemaOptions {
  /** True when the tenant already has a stored contractor UTR, so a blank field keeps it. */
  hasStoredUtr?: boolean;
}

export function makeSettingsSchema(options: SettingsSchemaOptions = {}) {
  return z
    .object({
      active: z.boolean().default(false),
      companyName: z
        .string({ error: SETTINGS_MESSAGES.companyName })
        .trim()
        .min(2, SETTINGS_MESSAGES.companyName)
        .max(100, SETTINGS_MESSAGES.companyNameTooLong),
      employerRef: requiredText(SETTINGS_MESSAGES.employerRef, {
        normalize: (v) => v.toUpperCase(),
        test: (v) => EMPLOYER_REF_RE.test(v),
      }),
      accountsOfficeRef: requiredText(SETTINGS_MESSAGES.accountsOfficeRef, {
        normalize: (v) => v.toUpperCase(),
        test: (v) => ACCOUNTS_OFFICE_REF_RE.test(v),
        check: { test: hasValidAccountsOfficeCheckLetter, message: REFERENCE_CHECK_MESSAGES.accountsOfficeRef },
      }),
      utr: optionalText({
        normalize: normalizeUtr,
        test: (v) => UTR_RE.test(v),
        message: SETTINGS_MESSAGES.utr,
        check: { test: hasValidUtrCheckDigit, message: REFERENCE_CHECK_MESSAGES.contractorUtr },
      }),
      vatScheme: z.enum(VAT_SCHEMES, { error: SETTINGS_MESSAGES.vatScheme }).default("standard"),
      emailStatements: z.boolean().default(false),
      endUser: z.boolean().default(false),
      warningDays: z
        .number({ error: SETTINGS_MESSAGES.warningDays })
        .int(SETTINGS_MESSAGES.warningDays)
        .min(0, SETTINGS_MESSAGES.warningDays)
        .max(30, SETTINGS_MESSAGES.warningDays)
        .default(3),
      statementDeadlineDays: z
        .number({ error: SETTINGS_MESSAGES.statementDeadlineDays })
        .int(SETTINGS_MESSAGES.statementDeadlineDays)
        .min(1, SETTINGS_MESSAGES.statementDeadlineDays)
        .max(30, SETTINGS_MESSAGES.statementDeadlineDays)
        .default(14),
      emailFrom: optionalText({ test: isValidEmail, message: SETTINGS_MESSAGES.email }),
      emailReplyTo: optionalText({ test: isValidEmail, message: SETTINGS_MESSAGES.email }),
      statementFooter: optionalText({ max: 1000, maxMessage: SETTINGS_MESSAGES.statementFooter }),
    })
    .superRefine(
      (v, ctx) => {
        if (v.active && v.utr === undefined && !options.hasStoredUtr) {
          ctx.addIssue({ code: "custom", message: SETTINGS_MESSAGES.utrRequired, path: ["utr"] });
        }
      },
      // Runs alongside field errors, but not when the UTR field already has its own.
      { when: (payload) => isObject(payload.value) && !payload.issues.some((i) => i.path?.[0] === "utr") },
    );
}

export const settingsSchema = makeSettingsSchema();

export type CisSettingsInput = z.input<typeof settingsSchema>;
export type CisSettings = z.output<typeof settingsSchema>;

/** What an unconfigured tenant has, and what the settings screen falls back to when loading fails. */
export const DEFAULT_CIS_SETTINGS: Readonly<CisSettings> = Object.freeze({
  active: false,
  companyName: "",
  employerRef: "",
  accountsOfficeRef: "",
  utr: undefined,
  vatScheme: "standard",
  emailStatements: true,
  endUser: false,
  warningDays: 3,
  statementDeadlineDays: 14,
  emailFrom: undefined,
  emailReplyTo: undefined,
  statementFooter: undefined,
});
