import { parseWithZod } from "@conform-to/zod/v4";
import { describe, expect, it } from "vitest";
import type { z } from "zod";
import {
  DEFAULT_CIS_SETTINGS,
  MATERIALS_JUSTIFICATION_PERCENT,
  MATERIALS_WARNING_PERCENT,
  invoiceFormAmountsSchema,
  invoiceFormSchema,
  invoiceSchema,
  makeSettingsSchema,
  materialsWarning,
  REMOVE_NINO_CONFLICT,
  settingsSchema,
  subcontractorCreateSchema,
  subcontractorSchema,
  subcontractorUpdateSchema,
} from "./schemas";

/** conform's field errors, whatever the submission's status. */
function formErrors(submission: { status?: string }): Record<string, unknown> {
  return "error" in submission ? ((submission as { error?: Record<string, unknown> | null }).error ?? {}) : {};
}

function errorsOf(schema: z.ZodType, value: unknown): Record<string, string[]> {
  const r = schema.safeParse(value);
  if (r.success) return {};
  const out: Record<string, string[]> = {};
  for (const issue of r.error.issues) {
    const key = issue.path.join(".");
    (out[key] ??= []).push(issue.message);
  }
  return out;
}

describe("subcontractor", () => {
  const valid = { type: "individual", name: "Jo Bloggs", utr: "53345 67890" };

  it("accepts a minimal individual, cleans the UTR and derives the rate", () => {
    const r = subcontractorCreateSchema.parse(valid);
    expect(r).toMatchObject({ type: "individual", name: "Jo Bloggs", utr: "5334567890", verificationStatus: "standard", verificationRate: 20, active: false });
  });

  it.each([
    [{ name: undefined }, "name", "Enter the subcontractor's name, at least 2 characters"],
    [{ name: "J" }, "name", "Enter the subcontractor's name, at least 2 characters"],
    [{ name: "  J  " }, "name", "Enter the subcontractor's name, at least 2 characters"],
    [{ name: "x".repeat(101) }, "name", "Name must be 100 characters or less"],
    [{ utr: undefined }, "utr", "Enter the subcontractor's UTR: 10 digits, like 2234567890"],
    [{ utr: "123456789" }, "utr", "Enter a UTR in the correct format: 10 digits, like 2234567890"],
    [{ utr: "12345678901" }, "utr", "Enter a UTR in the correct format: 10 digits, like 2234567890"],
    [{ utr: "12345abcde" }, "utr", "Enter a UTR in the correct format: 10 digits, like 2234567890"],
    [{ nino: "AB123456" }, "nino", "Enter a National Insurance number in the correct format, like QQ 12 34 56 C"],
    [{ nino: "DA123456A" }, "nino", "Enter a National Insurance number in the correct format, like QQ 12 34 56 C"],
    [{ nino: "AO123456A" }, "nino", "Enter a National Insurance number in the correct format, like QQ 12 34 56 C"],
    [{ nino: "GB123456A" }, "nino", "Enter a National Insurance number in the correct format, like QQ 12 34 56 C"],
    [{ nino: "AB123456E" }, "nino", "Enter a National Insurance number in the correct format, like QQ 12 34 56 C"],
    [{ email: "not-an-email" }, "email", "Enter an email address in the correct format, like name@example.com"],
    [{ phone: "12345" }, "phone", "Enter a UK phone number, like 01632 960 001, 07700 900 982 or +44 7700 900 982"],
    [{ phone: "+1 555 123 4567" }, "phone", "Enter a UK phone number, like 01632 960 001, 07700 900 982 or +44 7700 900 982"],
    [{ vatNumber: "GB12345678" }, "vatNumber", "Enter a VAT registration number in the correct format: 9 or 12 digits, like GB123456789"],
    [{ vatNumber: "FR123456789" }, "vatNumber", "Enter a VAT registration number in the correct format: 9 or 12 digits, like GB123456789"],
    [{ verificationStatus: "net" }, "verificationStatus", "Select a verification status: gross, standard or higher"],
    [{ verificationMethod: "auto" }, "verificationMethod", "Select how the subcontractor was verified: online, phone or letter"],
    [{ verifiedDate: "2026-02-30" }, "verifiedDate", "Date verified must be a real date"],
  ])("%j -> %s: %s", (patch, field, message) => {
    expect(errorsOf(subcontractorCreateSchema, { ...valid, ...patch })[field]).toEqual([message]);
  });

  it("normalises NINO, VAT number and company number", () => {
    expect(subcontractorCreateSchema.parse({ ...valid, nino: "ab 12 34 56 c" }).nino).toBe("AB123456C");
    expect(subcontractorCreateSchema.parse({ ...valid, vatNumber: "gb 123 4567 89" }).vatNumber).toBe("GB123456789");
    expect(subcontractorCreateSchema.parse({ ...valid, vatNumber: "123456789012" }).vatNumber).toBe("123456789012");
    const company = subcontractorCreateSchema.parse({ ...valid, type: "company", companyNumber: "sc123456" });
    expect(company.companyNumber).toBe("SC123456");
  });

  it("checks NINO only for individuals and company number only for companies/partnerships", () => {
    const company = subcontractorCreateSchema.parse({ ...valid, type: "company", nino: "rubbish" });
    expect(company.nino).toBeUndefined();
    const individual = subcontractorCreateSchema.parse({ ...valid, companyNumber: "rubbish" });
    expect(individual.companyNumber).toBeUndefined();
    expect(errorsOf(subcontractorCreateSchema, { ...valid, type: "company", companyNumber: "1234567" }).companyNumber).toEqual([
      "Enter a company number in the correct format: 8 characters, like 01234567 or SC123456",
    ]);
    expect(errorsOf(subcontractorCreateSchema, { ...valid, type: "partnership", companyNumber: "OC12345!" }).companyNumber).toEqual([
      "Enter a company number in the correct format: 8 characters, like 01234567 or SC123456",
    ]);
  });

  it("accepts UK phone formats", () => {
    for (const phone of ["07700 900123", "+44 7700 900123", "020 7946 0018", "+44 (0)20 7946 0018", "0044 20 7946 0018"]) {
      expect(subcontractorCreateSchema.safeParse({ ...valid, phone }).success, phone).toBe(true);
    }
  });

  it("verification status sets the rate", () => {
    expect(subcontractorCreateSchema.parse({ ...valid, verificationStatus: "gross" }).verificationRate).toBe(0);
    expect(subcontractorCreateSchema.parse({ ...valid, verificationStatus: "higher" }).verificationRate).toBe(30);
    expect(subcontractorCreateSchema.parse({ ...valid, verificationMethod: "letter" }).verificationMethod).toBe("letter");
  });

  it("update: blank UTR keeps the stored one, a given one is still checked", () => {
    expect(subcontractorUpdateSchema.parse({ ...valid, utr: undefined }).utr).toBeUndefined();
    expect(subcontractorUpdateSchema.parse({ ...valid, utr: "" }).utr).toBeUndefined();
    expect(subcontractorSchema.parse({ ...valid, utr: "   " }).utr).toBeUndefined();
    expect(errorsOf(subcontractorUpdateSchema, { ...valid, utr: "123" }).utr).toEqual(["Enter a UTR in the correct format: 10 digits, like 2234567890"]);
  });

  it("update: removeNino clears the NINO, but not together with a new one", () => {
    expect(subcontractorUpdateSchema.parse({ ...valid, utr: "" }).removeNino).toBe(false);
    expect(subcontractorUpdateSchema.parse({ ...valid, utr: "", nino: undefined, removeNino: true }).removeNino).toBe(true);
    expect(errorsOf(subcontractorUpdateSchema, { ...valid, utr: "", nino: "AB123456D", removeNino: true }).removeNino).toEqual([REMOVE_NINO_CONFLICT]);
  });

  it("reports field errors and type-dependent errors together", () => {
    const errors = errorsOf(subcontractorCreateSchema, { type: "individual", name: "J", utr: "1", nino: "bad" });
    expect(errors).toEqual({
      name: ["Enter the subcontractor's name, at least 2 characters"],
      utr: ["Enter a UTR in the correct format: 10 digits, like 2234567890"],
      nino: ["Enter a National Insurance number in the correct format, like QQ 12 34 56 C"],
    });
  });

  it("works through conform's parseWithZod on FormData", () => {
    const fd = new FormData();
    fd.set("type", "individual");
    fd.set("name", "Jo Bloggs");
    fd.set("utr", "5334567890");
    fd.set("email", "");
    fd.set("active", "on");
    const submission = parseWithZod(fd, { schema: subcontractorCreateSchema });
    expect(submission.status).toBe("success");
    if (submission.status === "success") {
      expect(submission.value.active).toBe(true);
      expect(submission.value.email).toBeUndefined();
    }
    const bad = new FormData();
    bad.set("type", "individual");
    bad.set("name", "");
    const failed = parseWithZod(bad, { schema: subcontractorCreateSchema });
    expect(failed.status).toBe("error");
    expect(formErrors(failed).name).toEqual(["Enter the subcontractor's name, at least 2 characters"]);
    expect(formErrors(failed).utr).toEqual(["Enter the subcontractor's UTR: 10 digits, like 2234567890"]);
  });
});

describe("invoice", () => {
  const valid = {
    subcontractorId: "sub_1",
    invoiceDate: "2026-05-01",
    invoiceNumber: "INV-001",
    grossP: 100000,
    materialsP: 20000,
    vatRate: 20,
    reverseCharge: false,
  };

  it("accepts a valid invoice", () => {
    expect(invoiceSchema.parse(valid)).toMatchObject(valid);
  });

  it.each([
    [{ subcontractorId: undefined }, "subcontractorId", "Select a subcontractor"],
    [{ subcontractorId: " " }, "subcontractorId", "Select a subcontractor"],
    [{ invoiceDate: undefined }, "invoiceDate", "Enter the invoice date"],
    [{ invoiceDate: "01/05/2026" }, "invoiceDate", "Invoice date must be a real date"],
    [{ invoiceNumber: "" }, "invoiceNumber", "Enter the invoice number"],
    [{ invoiceNumber: "x".repeat(51) }, "invoiceNumber", "Invoice number must be 50 characters or less"],
    [{ grossP: -1 }, "grossP", "Enter an amount of £0.00 or more"],
    [{ materialsP: -1 }, "materialsP", "Enter an amount of £0.00 or more"],
    [{ grossP: 10.5 }, "grossP", "Enter an amount in pounds and pence, like 1234.56"],
    [{ grossP: 10_000_000_000 }, "grossP", "Enter an amount of £99,999,999.99 or less"],
    [{ materialsP: 100001 }, "materialsP", "Materials must be the same as or less than the gross amount"],
    [{ vatRate: 17.5 }, "vatRate", "Select a VAT rate: 0%, 5% or 20%"],
    [{ vatRate: undefined }, "vatRate", "Select a VAT rate: 0%, 5% or 20%"],
    [{ materialsP: 80000 }, "materialsJustification", "Materials are 80% or more of the gross amount: enter a note of at least 10 characters saying why"],
    [
      { materialsP: 80000, materialsJustification: "too short" },
      "materialsJustification",
      "Materials are 80% or more of the gross amount: enter a note of at least 10 characters saying why",
    ],
  ])("%j -> %s: %s", (patch, field, message) => {
    expect(errorsOf(invoiceSchema, { ...valid, ...patch })[field]).toEqual([message]);
  });

  it("justification: required from exactly 80%, 10 characters is enough", () => {
    expect(invoiceSchema.safeParse({ ...valid, materialsP: 79999 }).success).toBe(true);
    expect(invoiceSchema.safeParse({ ...valid, materialsP: 80000, materialsJustification: "0123456789" }).success).toBe(true);
    expect(invoiceSchema.safeParse({ ...valid, materialsP: 100000, materialsJustification: "  steel beams supplied  " }).success).toBe(true);
  });

  it("zero gross with zero materials is allowed", () => {
    expect(invoiceSchema.safeParse({ ...valid, grossP: 0, materialsP: 0 }).success).toBe(true);
  });

  it("materials warning from 60%", () => {
    expect(MATERIALS_WARNING_PERCENT).toBe(60);
    expect(MATERIALS_JUSTIFICATION_PERCENT).toBe(80);
    expect(materialsWarning(100000, 59999)).toBeNull();
    expect(materialsWarning(100000, 60000)).toBe("High materials percentage (60%) - please verify this is correct");
    expect(materialsWarning(100000, 65000)).toBe("High materials percentage (65%) - please verify this is correct");
    expect(materialsWarning(300, 200)).toBe("High materials percentage (66.67%) - please verify this is correct");
    expect(materialsWarning(0, 0)).toBeNull();
  });

  it("pounds form variant parses typed amounts into pence", () => {
    const fd = new FormData();
    fd.set("subcontractorId", "sub_1");
    fd.set("invoiceDate", "2026-05-01");
    fd.set("invoiceNumber", "INV-1");
    fd.set("gross", "£1,000.00");
    fd.set("materials", "900");
    fd.set("vatRate", "20");
    const failed = parseWithZod(fd, { schema: invoiceFormSchema });
    expect(formErrors(failed).materialsJustification).toEqual([
      "Materials are 80% or more of the gross amount: enter a note of at least 10 characters saying why",
    ]);
    fd.set("materialsJustification", "Bulk steel delivered to site");
    const ok = parseWithZod(fd, { schema: invoiceFormSchema });
    expect(ok.status).toBe("success");
    if (ok.status === "success") {
      expect(ok.value).toMatchObject({ grossP: 100000, materialsP: 90000, vatRate: 20, reverseCharge: false });
    }
    fd.set("materials", "1000.01");
    expect(formErrors(parseWithZod(fd, { schema: invoiceFormSchema })).materials).toEqual(["Materials must be the same as or less than the gross amount"]);
    fd.set("gross", "-5");
    expect(formErrors(parseWithZod(fd, { schema: invoiceFormSchema })).gross).toEqual(["Enter an amount of £0.00 or more"]);
    fd.set("gross", "12.345");
    expect(formErrors(parseWithZod(fd, { schema: invoiceFormSchema })).gross).toEqual(["Enter an amount in pounds, like 1234.56"]);
  });

  it("the amounts part reads on its own while other fields are still wrong", () => {
    const fd = new FormData();
    fd.set("subcontractorId", "sub_1");
    fd.set("invoiceNumber", "");
    fd.set("gross", "1,000");
    fd.set("materials", "900");
    fd.set("vatRate", "5");
    fd.set("reverseCharge", "on");
    expect(parseWithZod(fd, { schema: invoiceFormSchema }).status).toBe("error");
    const amounts = parseWithZod(fd, { schema: invoiceFormAmountsSchema });
    expect(amounts.status === "success" && amounts.value).toEqual({
      subcontractorId: "sub_1",
      grossP: 100000,
      materialsP: 90000,
      vatRate: 5,
      reverseCharge: true,
    });
    fd.set("materials", "1000.01");
    expect(formErrors(parseWithZod(fd, { schema: invoiceFormAmountsSchema })).materials).toEqual([
      "Materials must be the same as or less than the gross amount",
    ]);
  });
});

describe("settings", () => {
  const valid = {
    active: true,
    companyName: " Acme Builders Ltd ",
    employerRef: "123/AB12345",
    accountsOfficeRef: "123PG00012345",
    utr: "53345 67890",
    warningDays: 3,
    statementDeadlineDays: 14,
  };

  it("accepts valid settings and applies defaults", () => {
    expect(settingsSchema.parse(valid)).toMatchObject({
      active: true,
      companyName: "Acme Builders Ltd",
      utr: "5334567890",
      vatScheme: "standard",
      warningDays: 3,
      statementDeadlineDays: 14,
    });
    const r = settingsSchema.parse({ ...valid, warningDays: undefined, statementDeadlineDays: undefined });
    expect(r.warningDays).toBe(3);
    expect(r.statementDeadlineDays).toBe(14);
  });

  it.each([
    [{ companyName: "A" }, "companyName", "Enter the company name, at least 2 characters"],
    [{ companyName: "   " }, "companyName", "Enter the company name, at least 2 characters"],
    [{ companyName: undefined }, "companyName", "Enter the company name, at least 2 characters"],
    [{ companyName: "x".repeat(101) }, "companyName", "Company name must be 100 characters or less"],
    [{ employerRef: "12/AB123" }, "employerRef", "Enter the employer reference in the correct format, like 123/AB12345"],
    [{ employerRef: "123/A" }, "employerRef", "Enter the employer reference in the correct format, like 123/AB12345"],
    [{ employerRef: "123/ABCDEFGHIJK" }, "employerRef", "Enter the employer reference in the correct format, like 123/AB12345"],
    [{ employerRef: undefined }, "employerRef", "Enter the employer reference in the correct format, like 123/AB12345"],
    [{ accountsOfficeRef: "123PA0001234" }, "accountsOfficeRef", "Enter the Accounts Office reference in the correct format, like 754PT00002240"],
    [{ accountsOfficeRef: "123P100012345" }, "accountsOfficeRef", "Enter the Accounts Office reference in the correct format, like 754PT00002240"],
    // Any two letters fit the documented format, but HMRC's schemas need 'P' first: refused here, not at filing.
    [{ accountsOfficeRef: "754AB00002240" }, "accountsOfficeRef", "Enter the Accounts Office reference in the correct format, like 754PT00002240"],
    [{ utr: "123" }, "utr", "Enter a UTR in the correct format: 10 digits, like 2234567890"],
    [{ utr: undefined }, "utr", "Enter the contractor's UTR to switch CIS on"],
    [{ warningDays: -1 }, "warningDays", "Enter a whole number of days from 0 to 30"],
    [{ warningDays: 31 }, "warningDays", "Enter a whole number of days from 0 to 30"],
    [{ warningDays: 2.5 }, "warningDays", "Enter a whole number of days from 0 to 30"],
    [{ statementDeadlineDays: 0 }, "statementDeadlineDays", "Enter a whole number of days from 1 to 30"],
    [{ statementDeadlineDays: 31 }, "statementDeadlineDays", "Enter a whole number of days from 1 to 30"],
    [{ emailFrom: "nope" }, "emailFrom", "Enter an email address in the correct format, like name@example.com"],
    [{ emailReplyTo: "a@" }, "emailReplyTo", "Enter an email address in the correct format, like name@example.com"],
    [{ statementFooter: "x".repeat(1001) }, "statementFooter", "Statement footer must be 1000 characters or less"],
  ])("%j -> %s: %s", (patch, field, message) => {
    expect(errorsOf(settingsSchema, { ...valid, ...patch })[field]).toEqual([message]);
  });

  it("warningDays 0 and 30, statementDeadlineDays 1 and 30 are accepted", () => {
    expect(settingsSchema.safeParse({ ...valid, warningDays: 0, statementDeadlineDays: 1 }).success).toBe(true);
    expect(settingsSchema.safeParse({ ...valid, warningDays: 30, statementDeadlineDays: 30 }).success).toBe(true);
  });

  it("upper-cases the references", () => {
    const r = settingsSchema.parse({ ...valid, employerRef: "123/ab12345", accountsOfficeRef: "123pg00012345" });
    expect(r.employerRef).toBe("123/AB12345");
    expect(r.accountsOfficeRef).toBe("123PG00012345");
  });

  it("the contractor UTR is only required when active, and a stored one counts", () => {
    expect(settingsSchema.safeParse({ ...valid, active: false, utr: undefined }).success).toBe(true);
    expect(makeSettingsSchema({ hasStoredUtr: true }).safeParse({ ...valid, utr: undefined }).success).toBe(true);
    expect(makeSettingsSchema({ hasStoredUtr: true }).safeParse({ ...valid, utr: "12" }).success).toBe(false);
  });

  it("reports the UTR requirement together with other field errors", () => {
    const errors = errorsOf(settingsSchema, { ...valid, utr: undefined, companyName: "" });
    expect(errors.utr).toEqual(["Enter the contractor's UTR to switch CIS on"]);
    expect(errors.companyName).toEqual(["Enter the company name, at least 2 characters"]);
  });

  it("defaults", () => {
    expect(DEFAULT_CIS_SETTINGS).toMatchObject({ active: false, warningDays: 3, statementDeadlineDays: 14, emailStatements: true, vatScheme: "standard" });
    expect(Object.isFrozen(DEFAULT_CIS_SETTINGS)).toBe(true);
  });

  it("an unticked checkbox (absent from FormData) is false", () => {
    const fd = new FormData();
    fd.set("companyName", "Acme Builders Ltd");
    fd.set("employerRef", "123/AB12345");
    fd.set("accountsOfficeRef", "123PG00012345");
    fd.set("warningDays", "5");
    const s = parseWithZod(fd, { schema: settingsSchema });
    expect(s.status).toBe("success");
    if (s.status === "success") {
      expect(s.value).toMatchObject({ active: false, emailStatements: false, warningDays: 5, statementDeadlineDays: 14 });
    }
  });
});
