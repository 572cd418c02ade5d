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
    [{ name: undefined }, "name", "Name is required"],
    [{ name: "J" }, "name", "Name is required"],
    [{ name: "  J  " }, "name", "Name is required"],
    [{ name: "x".repeat(101) }, "name", "Name must be 100 characters or fewer"],
    [{ utr: undefined }, "utr", "Valid UTR required (10 digits)"],
    [{ utr: "123456789" }, "utr", "Valid UTR required (10 digits)"],
    [{ utr: "12345678901" }, "utr", "Valid UTR required (10 digits)"],
    [{ utr: "12345abcde" }, "utr", "Valid UTR required (10 digits)"],
    [{ nino: "AB123456" }, "nino", "Invalid NINO format"],
    [{ nino: "DA123456A" }, "nino", "Invalid NINO format"],
    [{ nino: "AO123456A" }, "nino", "Invalid NINO format"],
    [{ nino: "GB123456A" }, "nino", "Invalid NINO format"],
    [{ nino: "AB123456E" }, "nino", "Invalid NINO format"],
    [{ email: "not-an-email" }, "email", "Invalid email format"],
    [{ phone: "12345" }, "phone", "Invalid phone format"],
    [{ phone: "+1 555 123 4567" }, "phone", "Invalid phone format"],
    [{ vatNumber: "GB12345678" }, "vatNumber", "Invalid VAT number format"],
    [{ vatNumber: "FR123456789" }, "vatNumber", "Invalid VAT number format"],
    [{ verificationStatus: "net" }, "verificationStatus", "Verification status must be gross, standard or higher"],
    [{ verificationMethod: "auto" }, "verificationMethod", "Verification method must be online, phone or letter"],
    [{ verifiedDate: "2026-02-30" }, "verifiedDate", "Invalid date"],
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
    expect(errorsOf(subcontractorCreateSchema, { ...valid, type: "company", companyNumber: "1234567" }).companyNumber).toEqual(["Invalid company number"]);
    expect(errorsOf(subcontractorCreateSchema, { ...valid, type: "partnership", companyNumber: "OC12345!" }).companyNumber).toEqual(["Invalid company number"]);
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
    expect(errorsOf(subcontractorUpdateSchema, { ...valid, utr: "123" }).utr).toEqual(["Valid UTR required (10 digits)"]);
  });

  it("update: removeNino clears the NINO, but not together with a new one", () => {
    expect(subcontractorUpdateSchema.parse({ ...valid, utr: "" }).removeNino).toBe(false);
    expect(subcontractorUpdateSchema.parse({ ...valid, utr: "", nino: undefined, removeNino: true }).removeNino).toBe(true);
    expect(errorsOf(subcontractorUpdateSchema, { ...valid, utr: "", nino: "AB123456D", removeNino: true }).removeNino).toEqual([REMOVE_NINO_CONFLICT]);
  });

  it("reports field errors and type-dependent errors together", () => {
    const errors = errorsOf(subcontractorCreateSchema, { type: "individual", name: "J", utr: "1", nino: "bad" });
    expect(errors).toEqual({ name: ["Name is required"], utr: ["Valid UTR required (10 digits)"], nino: ["Invalid NINO format"] });
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
    expect(formErrors(failed).name).toEqual(["Name is required"]);
    expect(formErrors(failed).utr).toEqual(["Valid UTR required (10 digits)"]);
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
    [{ subcontractorId: undefined }, "subcontractorId", "Subcontractor is required"],
    [{ subcontractorId: " " }, "subcontractorId", "Subcontractor is required"],
    [{ invoiceDate: undefined }, "invoiceDate", "Invoice date is required"],
    [{ invoiceDate: "01/05/2026" }, "invoiceDate", "Invalid date"],
    [{ invoiceNumber: "" }, "invoiceNumber", "Invoice number is required"],
    [{ invoiceNumber: "x".repeat(51) }, "invoiceNumber", "Invoice number must be 50 characters or fewer"],
    [{ grossP: -1 }, "grossP", "Amounts cannot be negative"],
    [{ materialsP: -1 }, "materialsP", "Amounts cannot be negative"],
    [{ grossP: 10.5 }, "grossP", "Amounts must be whole pence"],
    [{ grossP: 10_000_000_000 }, "grossP", "Amount cannot exceed £99,999,999.99"],
    [{ materialsP: 100001 }, "materialsP", "Materials cannot exceed gross amount"],
    [{ vatRate: 17.5 }, "vatRate", "VAT rate must be 0, 5 or 20"],
    [{ vatRate: undefined }, "vatRate", "VAT rate must be 0, 5 or 20"],
    [{ materialsP: 80000 }, "materialsJustification", "Materials ≥80% require a justification note (min 10 characters)"],
    [{ materialsP: 80000, materialsJustification: "too short" }, "materialsJustification", "Materials ≥80% require a justification note (min 10 characters)"],
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
    expect(formErrors(failed).materialsJustification).toEqual(["Materials ≥80% require a justification note (min 10 characters)"]);
    fd.set("materialsJustification", "Bulk steel delivered to site");
    const ok = parseWithZod(fd, { schema: invoiceFormSchema });
    expect(ok.status).toBe("success");
    if (ok.status === "success") {
      expect(ok.value).toMatchObject({ grossP: 100000, materialsP: 90000, vatRate: 20, reverseCharge: false });
    }
    fd.set("materials", "1000.01");
    expect(formErrors(parseWithZod(fd, { schema: invoiceFormSchema })).materials).toEqual(["Materials cannot exceed gross amount"]);
    fd.set("gross", "-5");
    expect(formErrors(parseWithZod(fd, { schema: invoiceFormSchema })).gross).toEqual(["Amounts cannot be negative"]);
    fd.set("gross", "12.345");
    expect(formErrors(parseWithZod(fd, { schema: invoiceFormSchema })).gross).toEqual(["Enter an amount in pounds, e.g. 1234.56"]);
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
    expect(formErrors(parseWithZod(fd, { schema: invoiceFormAmountsSchema })).materials).toEqual(["Materials cannot exceed gross amount"]);
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
    [{ companyName: "A" }, "companyName", "Company name is required"],
    [{ companyName: "   " }, "companyName", "Company name is required"],
    [{ companyName: undefined }, "companyName", "Company name is required"],
    [{ companyName: "x".repeat(101) }, "companyName", "Company name must be 100 characters or fewer"],
    [{ employerRef: "12/AB123" }, "employerRef", "Invalid format (e.g., 123/AB12345)"],
    [{ employerRef: "123/A" }, "employerRef", "Invalid format (e.g., 123/AB12345)"],
    [{ employerRef: "123/ABCDEFGHIJK" }, "employerRef", "Invalid format (e.g., 123/AB12345)"],
    [{ employerRef: undefined }, "employerRef", "Invalid format (e.g., 123/AB12345)"],
    [{ accountsOfficeRef: "123PA0001234" }, "accountsOfficeRef", "Invalid format (e.g., 123PA00012345)"],
    [{ accountsOfficeRef: "123P100012345" }, "accountsOfficeRef", "Invalid format (e.g., 123PA00012345)"],
    // Any two letters fit the documented format, but HMRC's schemas need 'P' first: refused here, not at filing.
    [{ accountsOfficeRef: "754AB00002240" }, "accountsOfficeRef", "Invalid format (e.g., 123PA00012345)"],
    [{ utr: "123" }, "utr", "Invalid UTR format (10 digits)"],
    [{ utr: undefined }, "utr", "Contractor UTR is required"],
    [{ warningDays: -1 }, "warningDays", "Must be between 0 and 30 days"],
    [{ warningDays: 31 }, "warningDays", "Must be between 0 and 30 days"],
    [{ warningDays: 2.5 }, "warningDays", "Must be between 0 and 30 days"],
    [{ statementDeadlineDays: 0 }, "statementDeadlineDays", "Must be between 1 and 30 days"],
    [{ statementDeadlineDays: 31 }, "statementDeadlineDays", "Must be between 1 and 30 days"],
    [{ emailFrom: "nope" }, "emailFrom", "Invalid email format"],
    [{ emailReplyTo: "a@" }, "emailReplyTo", "Invalid email format"],
    [{ statementFooter: "x".repeat(1001) }, "statementFooter", "Statement footer must be 1000 characters or fewer"],
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
    expect(errors.utr).toEqual(["Contractor UTR is required"]);
    expect(errors.companyName).toEqual(["Company name is required"]);
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
