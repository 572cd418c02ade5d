import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { buildCis300, buildCis300Message, type Cis300Input, type Cis300Line } from "./cis300";
import { child, children, parseXml, path as xpath } from "./dom";
import { HmrcInputError } from "./hmrc-input";
import { irmark, verifyIRmark } from "./irmark";
import { HMRC_DIR, SCHEMAS, extractIRenvelope, xsdValidate } from "./libxml2.test-support";

const nilInput: Cis300Input = {
  employerRef: "754/EZ00047",
  accountsOfficeRef: "754PT00002240",
  contractorUtr: "2234567890",
  periodEnd: "2021-01-05",
  nil: true,
  lines: [],
  declarations: { inactivity: true },
  correlationId: "C389CEF5BCC84EE2926CFDE96C89C767",
  gatewayTimestamp: "2025-11-18T11:01:45.518",
  product: { name: "EzGov IR-CIS-CIS300MR", version: "3.4", vendorId: "0126" },
};

const line = (over: Partial<Cis300Line> = {}): Cis300Line => ({
  name: { fore: ["Jo"], sur: "Bloggs" },
  utr: "5334567890",
  nino: "AB123456C",
  verificationNumber: "V1234567890",
  totalPaymentsP: 123456,
  costOfMaterialsP: 20099,
  totalDeductedP: 20671,
  ...over,
});

const fullInput: Cis300Input = {
  ...nilInput,
  nil: false,
  periodEnd: "2026-05-05",
  lines: [
    line(),
    line({
      name: undefined,
      tradingName: "Smith & Sons (Builders) Ltd",
      nino: undefined,
      crn: "SC123456",
      worksRef: "WR/42",
      verificationNumber: "V1234567890AB",
    }),
    line({
      name: { title: "Mrs", fore: ["Mary-Ann", "O'Neil"], sur: "Smith-Jones" },
      unmatchedRate: true,
      utr: undefined,
      nino: undefined,
      verificationNumber: "V0000000001A",
      totalPaymentsP: 0,
      costOfMaterialsP: 0,
      totalDeductedP: 0,
    }),
    line({ totalPaymentsP: 9_999_999_999, costOfMaterialsP: 9_999_999_999, totalDeductedP: 9_999_999_999 }),
  ],
  declarations: { employmentStatus: true, verification: true },
  sender: { senderId: "GGUSER01", password: "s3cret<&>", emailAddress: "payroll@example.co.uk" },
  testInLive: true,
};

function validate(xml: string) {
  return xsdValidate(extractIRenvelope(xml), SCHEMAS.cisReturn);
}

describe("buildCis300", () => {
  it("reproduces HMRC's sample nil return, with the right IRmark", async () => {
    const xml = await buildCis300(nilInput);
    const sample = readFileSync(path.join(HMRC_DIR, "samples/cis300-nil-envelope.xml"), "utf8");
    const mark = await irmark(sample);
    const expected = sample.replace(/<IRmark Type="generic">[^<]*<\/IRmark>/, `<IRmark Type="generic">${mark.base64}</IRmark>`);
    expect(xml).toBe(`<?xml version="1.0" encoding="UTF-8"?>\n${expected}\n`);
    expect(await verifyIRmark(xml)).toBe(true);
    expect(validate(xml)).toEqual({ ok: true, output: "" });
  });

  it("a full return validates against CISreturn-v1-2.xsd", async () => {
    const { xml, irmark: mark } = await buildCis300Message(fullInput);
    const result = validate(xml);
    expect(result).toEqual({ ok: true, output: "" });
    expect(await verifyIRmark(xml)).toBe(true);
    expect(xml).toContain(`<IRmark Type="generic">${mark.base64}</IRmark>`);
  });

  it("writes whole pounds for payments and materials, pence for the deduction", async () => {
    const doc = parseXml(await buildCis300(fullInput));
    const subs = children(xpath(doc.documentElement!, "Body", "IRenvelope", "CISreturn"), "Subcontractor");
    expect(subs).toHaveLength(4);
    const amounts = subs.map((s) => ["TotalPayments", "CostOfMaterials", "TotalDeducted"].map((n) => child(s, n)?.textContent));
    expect(amounts).toEqual([
      ["1234.00", "200.00", "206.71"],
      ["1234.00", "200.00", "206.71"],
      ["0.00", "0.00", "0.00"],
      ["99999999.00", "99999999.00", "99999999.99"],
    ]);
  });

  it("keeps GovTalk keys equal to the IRheader keys, and writes the envelope details", async () => {
    const doc = parseXml(await buildCis300({ ...fullInput, employerRef: "123/AB12345" }));
    const root = doc.documentElement!;
    const keys = (el: ReturnType<typeof child>) => children(child(el, "Keys"), "Key").map((k) => [k.getAttribute("Type"), k.textContent]);
    const govTalkKeys = keys(child(root, "GovTalkDetails"));
    expect(govTalkKeys).toEqual([
      ["TaxOfficeNumber", "123"],
      ["TaxOfficeReference", "AB12345"],
    ]);
    expect(keys(xpath(root, "Body", "IRenvelope", "IRheader"))).toEqual(govTalkKeys);
    const details = xpath(root, "Header", "MessageDetails");
    expect(child(details, "Class")?.textContent).toBe("IR-CIS-CIS300MR");
    expect(child(details, "Qualifier")?.textContent).toBe("request");
    expect(child(details, "Function")?.textContent).toBe("submit");
    expect(child(details, "GatewayTest")?.textContent).toBe("1");
    const auth = xpath(root, "Header", "SenderDetails", "IDAuthentication");
    expect(child(auth, "SenderID")?.textContent).toBe("GGUSER01");
    expect(xpath(auth, "Authentication", "Value")?.textContent).toBe("s3cret<&>");
    expect(xpath(root, "Header", "SenderDetails", "EmailAddress")?.textContent).toBe("payroll@example.co.uk");
    const declarations = xpath(root, "Body", "IRenvelope", "CISreturn", "Declarations");
    expect(child(declarations, "EmploymentStatus")?.textContent).toBe("yes");
    expect(child(declarations, "Verification")?.textContent).toBe("yes");
    expect(child(declarations, "InformationCorrect")?.textContent).toBe("yes");
  });

  it("accepts a Date as the gateway timestamp and names the product when no vendor ID", async () => {
    const xml = await buildCis300({ ...nilInput, gatewayTimestamp: new Date("2026-05-06T10:00:00Z"), product: { name: "CIS Workspace", version: "1.0" } });
    expect(xml).toContain("<GatewayTimestamp>2026-05-06T10:00:00.000Z</GatewayTimestamp>");
    expect(xml).toContain("<Name>CIS Workspace</Name>");
    expect(validate(xml).ok).toBe(true);
  });

  it("the XSD refuses a deliberately broken body (so the validation above means something)", async () => {
    const xml = await buildCis300(fullInput);
    const broken = xml.replace("<TotalDeducted>206.71</TotalDeducted>", "<TotalDeducted>206.7</TotalDeducted>");
    expect(broken).not.toBe(xml);
    const result = validate(broken);
    expect(result.ok).toBe(false);
    expect(result.output).toMatch(/TotalDeducted/);
    const reordered = xml
      .replace(/<NilReturn>yes<\/NilReturn>/, "")
      .replace("<Declarations>", "<NilReturn>yes</NilReturn><NilReturn>yes</NilReturn><Declarations>");
    expect(validate(reordered).ok).toBe(false);
  });

  it("the XSD refuses a broken IRheader, whose type comes from the included core-v2-0.xsd", async () => {
    const xml = await buildCis300(fullInput);
    expect(xml.match(/<PeriodEnd>/g)).toHaveLength(1);
    const result = validate(xml.replace("<PeriodEnd>2026-05-05</PeriodEnd>", "<PeriodEnd>2026-05-32</PeriodEnd>"));
    expect(result.ok).toBe(false);
    expect(result.output).toMatch(/PeriodEnd/);
  });

  type Case = [string, (i: Cis300Input) => Cis300Input, string];
  const cases: Case[] = [
    ["nil with lines", (i) => ({ ...i, lines: [line()] }), "lines"],
    ["not nil without lines", (i) => ({ ...i, nil: false }), "lines"],
    ["bad contractor UTR", (i) => ({ ...i, contractorUtr: "123456789" }), "contractorUtr"],
    ["bad employer ref", (i) => ({ ...i, employerRef: "754-EZ00047" }), "employerRef"],
    ["AO ref without P", (i) => ({ ...i, accountsOfficeRef: "754AB00002240" }), "accountsOfficeRef"],
    ["invalid date", (i) => ({ ...i, periodEnd: "2021-02-30" }), "periodEnd"],
    ["period end not the 5th", (i) => ({ ...i, periodEnd: "2021-01-06" }), "periodEnd"],
    ["bad correlation id", (i) => ({ ...i, correlationId: "c389-cef5" }), "correlationId"],
    ["bad timestamp", (i) => ({ ...i, gatewayTimestamp: "yesterday" }), "gatewayTimestamp"],
    ["bad vendor id", (i) => ({ ...i, product: { name: "x", version: "1", vendorId: "12" } }), "product.vendorId"],
    ["password without id", (i) => ({ ...i, sender: { password: "x" } }), "sender.senderId"],
  ];
  it.each(cases)("refuses %s", async (_name, mutate, field) => {
    const err = await buildCis300(mutate(nilInput)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HmrcInputError);
    expect((err as HmrcInputError).field).toBe(field);
    expect((err as HmrcInputError).message).toContain(field);
  });

  const lineCases: [string, Partial<Cis300Line>, string][] = [
    ["neither name nor trading name", { name: undefined }, "lines[0].name"],
    ["both name and trading name", { tradingName: "Acme" }, "lines[0].tradingName"],
    ["three forenames", { name: { fore: ["A", "B", "C"], sur: "D" } }, "lines[0].name.fore"],
    ["a forename with a space", { name: { fore: ["Mary Ann"], sur: "D" } }, "lines[0].name.fore[0]"],
    ["a surname too long", { name: { fore: ["A"], sur: "x".repeat(36) } }, "lines[0].name.sur"],
    ["a title too long", { name: { title: "Doctor", fore: ["A"], sur: "B" } }, "lines[0].name.title"],
    ["a trading name too long", { name: undefined, tradingName: "x".repeat(57) }, "lines[0].tradingName"],
    ["a trading name starting with a space", { name: undefined, tradingName: " Acme" }, "lines[0].tradingName"],
    ["a trading name with a newline", { name: undefined, tradingName: "Acme\nLtd" }, "lines[0].tradingName"],
    ["a works ref too long", { worksRef: "x".repeat(21) }, "lines[0].worksRef"],
    ["bad UTR", { utr: "12345" }, "lines[0].utr"],
    ["bad NINO", { nino: "AB123456E" }, "lines[0].nino"],
    ["bad CRN", { crn: "ABC12345" }, "lines[0].crn"],
    ["bad verification number", { verificationNumber: "V12345678901I" }, "lines[0].verificationNumber"],
    ["negative payments", { totalPaymentsP: -1 }, "lines[0].totalPaymentsP"],
    ["fractional pence", { costOfMaterialsP: 1.5 }, "lines[0].costOfMaterialsP"],
    ["payments above HMRC's maximum", { totalPaymentsP: 10_000_000_000 }, "lines[0].totalPaymentsP"],
    ["deduction above HMRC's maximum", { totalDeductedP: 10_000_000_000 }, "lines[0].totalDeductedP"],
  ];
  it.each(lineCases)("refuses a line with %s", async (_name, patch, field) => {
    const err = await buildCis300({ ...fullInput, lines: [line(patch)] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HmrcInputError);
    expect((err as HmrcInputError).field).toBe(field);
  });

  it("what the builder accepts at the limits, the schema accepts too", async () => {
    const xml = await buildCis300({
      ...fullInput,
      lines: [
        line({ name: undefined, tradingName: `A${"~!\"@#$%&'()*+,-./:;<=>?[\\]^_{}£€".padEnd(55, "z")}`, worksRef: "x".repeat(20) }),
        line({ name: { fore: ["A".repeat(35), "B"], sur: "C".repeat(35) }, crn: "12345678" }),
        line({ crn: "ab1" }),
      ],
    });
    expect(validate(xml)).toMatchObject({ ok: true });
  });
});
