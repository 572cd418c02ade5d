import { describe, expect, it } from "vitest";
import { child, children, parseXml, path as xpath } from "./dom";
import { HmrcInputError } from "./hmrc-input";
import { verifyIRmark } from "./irmark";
import {
  buildVerificationRequest,
  buildVerificationRequestMessage,
  hmrcSubcontractorType,
  type VerificationRequestInput,
  type VerificationSubcontractor,
} from "./verification";
import { SCHEMAS, extractIRenvelope, xsdValidate } from "./libxml2.test-support";

const sub = (over: Partial<VerificationSubcontractor> = {}): VerificationSubcontractor => ({
  action: "verify",
  type: "soletrader",
  name: { fore: ["Noel"], sur: "Armstrong" },
  utr: "8786438047",
  nino: "AB623456C",
  ...over,
});

const input: VerificationRequestInput = {
  employerRef: "125/PA12345",
  accountsOfficeRef: "125PA12345000",
  contractorUtr: "1234657890",
  periodEnd: "2026-05-05",
  subcontractors: [sub()],
  correlationId: "5A1D2C3B4E5F60718293A4B5C6D7E8F9",
  gatewayTimestamp: "2026-04-20T10:00:00",
  product: { name: "CIS Workspace", version: "1.0", vendorId: "1234" },
};

const validate = (xml: string) => xsdValidate(extractIRenvelope(xml), SCHEMAS.cisVerification);

describe("buildVerificationRequest", () => {
  it("a single subcontractor request validates against CISverification-v1-2.xsd", async () => {
    const { xml } = await buildVerificationRequestMessage(input);
    expect(validate(xml)).toMatchObject({ ok: true });
    expect(await verifyIRmark(xml)).toBe(true);
    const root = parseXml(xml).documentElement!;
    expect(xpath(root, "Header", "MessageDetails", "Class")?.textContent).toBe("IR-CIS-VERIFY");
    const env = xpath(root, "Body", "IRenvelope")!;
    expect(env.getAttribute("xmlns")).toBe("http://www.govtalk.gov.uk/taxation/CISrequest");
    expect(xpath(env, "IRheader", "Manifest", "Contains", "Reference", "TopElementName")?.textContent).toBe("CISrequest");
    expect(xpath(env, "CISrequest", "Declaration")?.textContent).toBe("yes");
  });

  it("all the optional parts, for 100 subcontractors, validate", async () => {
    const subs = Array.from({ length: 100 }, (_, i) =>
      i % 3 === 0
        ? sub({ action: "match" })
        : i % 3 === 1
          ? sub({
              type: "partnership",
              name: undefined,
              tradingName: "Smith & Partners",
              nino: undefined,
              worksRef: "SITE-7",
              partnership: { name: "Smith & Partners", utr: "1111111111" },
              address: { lines: ["1 High Street", "Leeds"], postcode: "LS1 1AA", country: "England" },
              telephone: "0113 496 0000",
            })
          : sub({ type: "company", name: undefined, tradingName: "Acme Ltd", nino: undefined, crn: "SC123456" }),
    );
    const xml = await buildVerificationRequest({ ...input, subcontractors: subs });
    expect(validate(xml)).toMatchObject({ ok: true });
    const doc = parseXml(xml);
    expect(children(xpath(doc.documentElement!, "Body", "IRenvelope", "CISrequest"), "Subcontractor")).toHaveLength(100);
  });

  it("the XSD refuses 101 subcontractors (so the limit is the schema's)", async () => {
    const xml = await buildVerificationRequest({ ...input, subcontractors: Array.from({ length: 100 }, () => sub()) });
    const subXml = xml.slice(xml.indexOf("<Subcontractor>"), xml.indexOf("</Subcontractor>") + "</Subcontractor>".length);
    const tooMany = xml.replace(subXml, `${subXml}${subXml}`);
    expect(validate(tooMany).ok).toBe(false);
  });

  it("the XSD refuses an unknown action", async () => {
    const xml = await buildVerificationRequest(input);
    expect(validate(xml.replace("<Action>verify</Action>", "<Action>check</Action>")).ok).toBe(false);
  });

  type Case = [string, Partial<VerificationRequestInput>, string];
  const cases: Case[] = [
    ["no subcontractors", { subcontractors: [] }, "subcontractors"],
    ["101 subcontractors", { subcontractors: Array.from({ length: 101 }, () => sub()) }, "subcontractors"],
    ["bad action", { subcontractors: [sub({ action: "check" as "verify" })] }, "subcontractors[0].action"],
    ["bad type", { subcontractors: [sub({ type: "individual" as "soletrader" })] }, "subcontractors[0].type"],
    ["no name", { subcontractors: [sub({ name: undefined })] }, "subcontractors[0].name"],
    ["bad UTR", { subcontractors: [sub({ utr: "1" })] }, "subcontractors[0].utr"],
    ["bad NINO", { subcontractors: [sub({ nino: "QQ123456C" })] }, "subcontractors[0].nino"],
    ["five address lines", { subcontractors: [sub({ address: { lines: ["a", "b", "c", "d", "e"] } })] }, "subcontractors[0].address.lines"],
    ["postcode too long", { subcontractors: [sub({ address: { lines: ["a"], postcode: "LS1 1AAAA" } })] }, "subcontractors[0].address.postcode"],
    ["bad telephone", { subcontractors: [sub({ telephone: "+44 113" })] }, "subcontractors[0].telephone"],
    ["bad partnership UTR", { subcontractors: [sub({ partnership: { utr: "x" } })] }, "subcontractors[0].partnership.utr"],
    ["bad contractor UTR", { contractorUtr: "x" }, "contractorUtr"],
    ["bad period end", { periodEnd: "2026-13-05" }, "periodEnd"],
  ];
  it.each(cases)("refuses %s", async (_name, patch, field) => {
    const err = await buildVerificationRequest({ ...input, ...patch }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HmrcInputError);
    expect((err as HmrcInputError).field).toBe(field);
  });

  it("maps our subcontractor types to HMRC's", () => {
    expect(hmrcSubcontractorType("individual")).toBe("soletrader");
    expect(hmrcSubcontractorType("company")).toBe("company");
    expect(hmrcSubcontractorType("partnership")).toBe("partnership");
  });

  it("keeps the element order the schema needs", async () => {
    const xml = await buildVerificationRequest({
      ...input,
      subcontractors: [sub({ worksRef: "W1", crn: "12345678", partnership: { name: "P" }, address: { lines: ["1 Road"] }, telephone: "0113 496 0000" })],
    });
    const s = child(xpath(parseXml(xml).documentElement!, "Body", "IRenvelope", "CISrequest"), "Subcontractor")!;
    const order: string[] = [];
    for (let n = s.firstChild; n; n = n.nextSibling) if (n.nodeType === 1) order.push(n.nodeName);
    expect(order).toEqual(["Action", "Type", "Name", "WorksRef", "UTR", "CRN", "NINO", "Partnership", "Address", "Telephone"]);
  });
});
