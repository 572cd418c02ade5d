import { describe, expect, it } from "vitest";
import { changedVerificationFields, rateFor, UNVERIFIED } from "./verification-fields";

describe("changedVerificationFields", () => {
  it("treats null and undefined as the same blank value", () => {
    expect(changedVerificationFields(UNVERIFIED, { verificationStatus: "standard" })).toEqual([]);
    expect(
      changedVerificationFields({ verificationStatus: "gross", verificationMethod: undefined }, { verificationStatus: "gross", verificationMethod: null }),
    ).toEqual([]);
  });

  it("names each changed field, in a fixed order", () => {
    const before = { verificationStatus: "gross", verificationMethod: "online", verificationReference: "V1234567890", verifiedDate: "2026-01-05" } as const;
    expect(changedVerificationFields(before, { ...before, verifiedDate: "2026-02-01", verificationStatus: "higher" })).toEqual([
      "verificationStatus",
      "verifiedDate",
    ]);
    expect(changedVerificationFields(before, { verificationStatus: "gross" })).toEqual(["verificationMethod", "verificationReference", "verifiedDate"]);
  });
});

describe("rateFor", () => {
  it("follows the status: gross 0, standard 20, higher 30", () => {
    expect([rateFor({ verificationStatus: "gross" }), rateFor({ verificationStatus: "standard" }), rateFor({ verificationStatus: "higher" })]).toEqual([
      0, 20, 30,
    ]);
  });
});
