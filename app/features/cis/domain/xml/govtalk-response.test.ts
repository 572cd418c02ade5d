import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseGovTalkResponse } from "./govtalk-response";
import { HMRC_DIR } from "./libxml2.test-support";

const dir = path.join(HMRC_DIR, "responses");
const read = (name: string) => parseGovTalkResponse(readFileSync(path.join(dir, name), "utf8"));

describe("parseGovTalkResponse", () => {
  it("parses every sample answer", () => {
    const files = readdirSync(dir).filter((f) => f.endsWith(".xml"));
    expect(files.length).toBeGreaterThanOrEqual(8);
    for (const f of files) expect(read(f).qualifier, f).toMatch(/^(acknowledgement|response|error)$/);
  });

  it("acknowledgement with poll interval", () => {
    expect(read("poll-acknowledgement.xml")).toMatchObject({
      qualifier: "acknowledgement",
      responseEndPoint: "/poll/next-endpoint",
      pollInterval: 10,
      errors: [],
      irmarkReceipt: null,
      verification: null,
      correlationId: null,
    });
  });

  it("poll response", () => {
    expect(read("poll-response.xml")).toMatchObject({ qualifier: "response", responseEndPoint: "/final/response", pollInterval: null, errors: [] });
  });

  it("poll business error", () => {
    expect(read("poll-business-error.xml")).toMatchObject({
      qualifier: "error",
      responseEndPoint: "/business/error",
      errors: [{ number: 3001, type: "business", text: "Invalid poll request data", location: null, raisedBy: null }],
    });
  });

  it("poll fatal error", () => {
    expect(read("poll-fatal-error.xml").errors).toEqual([
      { number: 9001, type: "fatal", text: "Catastrophic polling failure", location: null, raisedBy: null },
    ]);
  });

  it("return business error: GovTalk error and the Body's ErrorResponse", () => {
    const r = read("return-business-error.xml");
    expect(r).toMatchObject({
      qualifier: "error",
      function: "submit",
      messageClass: "IR-CIS-CIS300MR",
      correlationId: "7CEE4C9E82EB4FEFB45E0630701C98BC",
      transactionId: null,
      pollInterval: 2,
      responseEndPoint: "http://localhost:9712/submission/ChRIS/IR-CIS-CIS300MR/Filing/data/true",
      gatewayTimestamp: "2025-12-01T10:41:42.885",
    });
    expect(r.errors).toEqual([
      {
        number: 3001,
        type: "business",
        text: "The submission of this document has failed due to departmental specific business logic in the Body tag.",
        location: null,
        raisedBy: "Department",
      },
      {
        number: 5005,
        type: "business",
        text: "Keys in the GovTalkDetails do not match those in the IRheader.",
        location: "/hd:GovTalkMessage[1]/hd:Body[1]/MTR:IRenvelope[1]/MTR:IRheader[1]/MTR:Keys[1]/MTR:Key[1]",
        raisedBy: "System",
      },
    ]);
  });

  it("IRmark mismatch", () => {
    const r = read("return-irmark-mismatch.xml");
    expect(r.errors.map((e) => [e.number, e.raisedBy, e.location])).toEqual([
      [3001, "ChRIS", null],
      [2021, "ChRIS", "IRmark"],
    ]);
    expect(r.errors[1]!.text).toBe("The supplied IRmark is incorrect.");
  });

  it("return success: IRmark receipt, 9004 and accepted time", () => {
    const r = read("return-success.xml");
    expect(r.qualifier).toBe("response");
    expect(r.correlationId).toBe("77E82433B5764086B7523DDFDE4082BE");
    expect(r.responseEndPoint).toBeNull();
    expect(r.errors).toEqual([]);
    expect(r.irmarkReceipt).toMatchObject({ code: "1", irmark: "TBPJFWEAYSD4GFVRMHY7KLWEBHB5BLA5" });
    expect(r.irmarkReceipt!.message).toMatch(/^HMRC has received the IR-CIS-CIS300MR document ref: 123\/GL01/);
    expect(r.messages).toEqual([{ code: "9004", text: "The Monthly Return has been processed and passed full validation" }]);
    expect(r.acceptedTime).toBe("2017-04-06T08:46:08.081");
    expect(r.verification).toBeNull();
  });

  it("verification success", () => {
    const r = read("verify-success.xml");
    expect(r.messageClass).toBe("IR-CIS-VERIFY");
    expect(r.irmarkReceipt?.irmark).toBe("IT53IRTZFGY7FJYJS2DG5GPY5FNBHPXT");
    expect(r.verification).toEqual({
      contractor: { utr: "1234657890", aoRef: "125PA12345000" },
      subcontractors: [
        {
          name: { title: null, fore: ["Noel"], sur: "Armstrong" },
          tradingName: "DBB Construction",
          worksRef: null,
          utr: "8786438047",
          crn: null,
          nino: "AB623456C",
          partnership: null,
          matched: true,
          taxTreatment: "net",
          verificationNumber: "V1000000007",
        },
      ],
    });
  });

  it("refuses what is not a GovTalk message", () => {
    expect(() => parseGovTalkResponse("<html/>")).toThrow(/GovTalk/);
    expect(() => parseGovTalkResponse("not xml")).toThrow();
  });
});
