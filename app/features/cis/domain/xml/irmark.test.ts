import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { base64ToBytes } from "~/utils/base64";
import { base32Encode } from "./base32";
import { IRmarkError, irmark, irmarkCanonicalBody, setIRmark, verifyIRmark, withIRmark } from "./irmark";
import { HMRC_DIR, libxml2C14n } from "./libxml2.test-support";

const sample = readFileSync(path.join(HMRC_DIR, "samples/cis300-nil-envelope.xml"), "utf8");
const STALE = "U8aI0sJHCxRfquaDcV0fhlhTU8s=";

/**
 * The independent route: cut the Body out as text, drop the IRmark element,
 * declare the envelope namespace on Body, let libxml2 canonicalise it and
 * Node's crypto hash it.
 */
function independentIRmark(xml: string): string {
  const body = xml.slice(xml.indexOf("<Body>"), xml.indexOf("</Body>") + "</Body>".length);
  const withoutMark = body.replace(/<IRmark\b[^>]*>[^<]*<\/IRmark>/, "");
  const standalone = withoutMark.replace("<Body>", '<Body xmlns="http://www.govtalk.gov.uk/CM/envelope">');
  return createHash("sha1").update(libxml2C14n(standalone), "utf8").digest("base64");
}

describe("irmark", () => {
  it("of HMRC's sample nil return agrees with libxml2 + node:crypto", async () => {
    const mark = await irmark(sample);
    expect(mark.base64).toBe(independentIRmark(sample));
    expect(mark.base64).toBe("tpwOaKfCHJDirqJn31ceHrX1XYc=");
    expect(mark.base64).toHaveLength(28);
    expect(mark.base32).toMatch(/^[A-Z2-7]{32}$/);
    expect(mark.base32).toBe(base32Encode(base64ToBytes(mark.base64)));
    // The sample's own value is stale, as its README says.
    expect(mark.base64).not.toBe(STALE);
  });

  it("canonical body carries the envelope namespace and no IRmark", () => {
    const c = irmarkCanonicalBody(sample);
    expect(c.startsWith('<Body xmlns="http://www.govtalk.gov.uk/CM/envelope">\n')).toBe(true);
    expect(c).not.toContain("IRmark");
    expect(c).toContain('<IRenvelope xmlns="http://www.govtalk.gov.uk/taxation/CISreturn">');
    // whitespace left where the IRmark element was
    expect(c).toContain("</Manifest>\n                \n                <Sender>");
  });

  it("inserting the IRmark makes the message verify, and it does not change the mark", async () => {
    const { xml, irmark: mark } = await withIRmark(sample);
    expect(xml).toContain(`<IRmark Type="generic">${mark.base64}</IRmark>`);
    expect(await verifyIRmark(xml)).toBe(true);
    expect(await verifyIRmark(sample)).toBe(false);
    expect((await irmark(xml)).base64).toBe(mark.base64);
    expect(independentIRmark(xml)).toBe(mark.base64);
  });

  it("the IRmark element's own content and form do not matter", async () => {
    const a = await irmark(sample);
    expect((await irmark(sample.replace(STALE, "anything at all"))).base64).toBe(a.base64);
    expect((await irmark(sample.replace(`<IRmark Type="generic">${STALE}</IRmark>`, '<IRmark Type="generic"/>'))).base64).toBe(a.base64);
  });

  it.each([
    ["PeriodEnd", "<PeriodEnd>2021-01-05</PeriodEnd>", "<PeriodEnd>2021-02-05</PeriodEnd>"],
    ["UTR", "<UTR>2234567890</UTR>", "<UTR>9234567891</UTR>"],
    ["key", ">EZ00047</Key>\n                </Keys>\n                <PeriodEnd>", ">EZ00048</Key>\n                </Keys>\n                <PeriodEnd>"],
    [
      "attribute",
      '<Key Type="TaxOfficeNumber">754</Key>\n                    <Key Type="TaxOfficeReference">EZ00047</Key>\n                </Keys>\n                <PeriodEnd>',
      '<Key Type="TaxOfficeNumbr">754</Key>\n                    <Key Type="TaxOfficeReference">EZ00047</Key>\n                </Keys>\n                <PeriodEnd>',
    ],
    ["whitespace inside Body", "<NilReturn>yes</NilReturn>", "<NilReturn>yes</NilReturn> "],
    ["namespace", 'xmlns="http://www.govtalk.gov.uk/taxation/CISreturn"', 'xmlns="http://www.govtalk.gov.uk/taxation/CISreturn2"'],
  ])("changing %s in the body changes the IRmark", async (_what, from, to) => {
    expect(sample).toContain(from);
    const changed = sample.replace(from, to);
    expect(changed).not.toBe(sample);
    expect((await irmark(changed)).base64).not.toBe((await irmark(sample)).base64);
  });

  it("changes outside the Body do not change the IRmark", async () => {
    const changed = sample.replace("C389CEF5BCC84EE2926CFDE96C89C767", "00000000000000000000000000000000");
    expect((await irmark(changed)).base64).toBe((await irmark(sample)).base64);
  });

  it("refuses what is not a GovTalk message", async () => {
    await expect(irmark("<Other/>")).rejects.toThrow(IRmarkError);
    await expect(irmark('<GovTalkMessage xmlns="http://www.govtalk.gov.uk/CM/envelope"/>')).rejects.toThrow(/no Body/);
    await expect(irmark("<GovTalkMessage><Body>")).rejects.toThrow(/Invalid XML/);
  });

  it("setIRmark needs exactly one IRmark element", () => {
    expect(() => setIRmark("<a/>", "x")).toThrow(IRmarkError);
    expect(setIRmark('<a><IRmark Type="generic"/></a>', "abc=")).toBe('<a><IRmark Type="generic">abc=</IRmark></a>');
  });
});
