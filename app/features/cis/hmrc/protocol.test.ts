import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseGovTalkResponse } from "../domain/xml/govtalk-response";
import { buildVerificationRequestMessage } from "../domain/xml/verification";
import { verifyIRmark } from "../domain/xml/irmark";
import { clampPollInterval, deleteRequest, hmrcReceiptTimes, messageFacts, pollRequest, withCredentials, withoutCredentials } from "./protocol";

const sample = readFileSync(path.join(import.meta.dirname, "../../../../third_party/hmrc/samples/cis300-nil-envelope.xml"), "utf8");

async function verifyMessage() {
  return buildVerificationRequestMessage({
    employerRef: "123/AB12345",
    accountsOfficeRef: "123PA00012345",
    contractorUtr: "2234567890",
    periodEnd: "2026-02-05",
    correlationId: "C389CEF5BCC84EE2926CFDE96C89C767",
    gatewayTimestamp: "2026-01-20T10:00:00.000",
    product: { name: "CIS Workspace", version: "1.0" },
    subcontractors: [{ action: "verify", type: "soletrader", name: { fore: ["Jo"], sur: "Bloggs" }, utr: "5334567890" }],
  });
}

describe("credentials go in only when a message is sent", () => {
  it("fills SenderDetails without touching the Body, so the IRmark still holds", async () => {
    const built = await verifyMessage();
    expect(await verifyIRmark(built.xml)).toBe(true);
    const sent = withCredentials(built.xml, { senderId: "USER<1>", password: "p&ss" });
    expect(await verifyIRmark(sent)).toBe(true);
    const facts = messageFacts(sent);
    expect(facts.senderId).toBe("USER<1>");
    expect(facts.hasPassword).toBe(true);
    expect(sent).toContain("<Value>p&amp;ss</Value>");
    expect(sent).toContain("<Method>clear</Method>");
  });

  it("blanks credential values for storage and display", async () => {
    const sent = withCredentials((await verifyMessage()).xml, { senderId: "U", password: "secret-value" });
    const shown = withoutCredentials(sent);
    expect(shown).not.toContain("secret-value");
    expect(shown).toContain("<Value>********</Value>");
    expect(withoutCredentials(sample)).toBe(sample.replace(/<Value>[^<]*<\/Value>/g, "<Value>********</Value>"));
  });
});

describe("messageFacts", () => {
  it("reads class, keys of both headers and the body's namespace", async () => {
    const facts = messageFacts((await verifyMessage()).xml);
    expect(facts).toMatchObject({
      messageClass: "IR-CIS-VERIFY",
      qualifier: "request",
      function: "submit",
      correlationId: "C389CEF5BCC84EE2926CFDE96C89C767",
      hasPassword: false,
      govTalkKeys: { TaxOfficeNumber: "123", TaxOfficeReference: "AB12345" },
      irHeaderKeys: { TaxOfficeNumber: "123", TaxOfficeReference: "AB12345" },
      bodyNamespace: "http://www.govtalk.gov.uk/taxation/CISrequest",
      bodyElement: "CISrequest",
      rootNamespace: "http://www.govtalk.gov.uk/CM/envelope",
    });
  });
});

describe("poll and delete requests", () => {
  it("carry the class, qualifier, function and correlation id the Transaction Engine matches on", () => {
    const poll = parseGovTalkResponse(pollRequest("IR-CIS-CIS300MR", "ABC123"));
    expect([poll.messageClass, poll.qualifier, poll.function, poll.correlationId]).toEqual(["IR-CIS-CIS300MR", "poll", "submit", "ABC123"]);
    const del = parseGovTalkResponse(deleteRequest("IR-CIS-VERIFY", "DEF456"));
    expect([del.messageClass, del.qualifier, del.function, del.correlationId]).toEqual(["IR-CIS-VERIFY", "request", "delete", "DEF456"]);
  });

  it("keeps the poll interval between a second and an hour", () => {
    expect(clampPollInterval(10)).toBe(10);
    expect(clampPollInterval(0)).toBe(1);
    expect(clampPollInterval(-5)).toBe(1);
    expect(clampPollInterval(86_400)).toBe(3600);
    expect(clampPollInterval(null)).toBe(10);
    expect(clampPollInterval(Number.NaN)).toBe(10);
  });
});

describe("hmrcReceiptTimes", () => {
  it("writes the instant on the London wall clock in HMRC's receipt formats, in summer time and in winter", () => {
    expect(hmrcReceiptTimes(new Date("2017-04-06T07:46:08.081Z"))).toEqual({ time: "08.46", date: "06/04/2017", timestamp: "2017-04-06T08:46:08.081" });
    expect(hmrcReceiptTimes(new Date("2026-11-25T09:05:00.000Z"))).toEqual({ time: "09.05", date: "25/11/2026", timestamp: "2026-11-25T09:05:00.000" });
    // 23:30 UTC on 31 May is already 1 June in London.
    expect(hmrcReceiptTimes(new Date("2026-05-31T23:30:00.000Z"))).toEqual({ time: "00.30", date: "01/06/2026", timestamp: "2026-06-01T00:30:00.000" });
  });
});
