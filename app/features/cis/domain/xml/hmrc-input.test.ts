import { describe, expect, it } from "vitest";
import { HmrcInputError, hmrcNameFromFullName, isValidVerificationNumber, poundsAndPence, wholePounds } from "./hmrc-input";

describe("isValidVerificationNumber (V[0-9]{10}[A-HJ-NP-Z]{0,2})", () => {
  it.each(["V1000000007", "V1234567890A", "V1234567890AB", "V0000000000ZZ"])("accepts %s", (v) => {
    expect(isValidVerificationNumber(v)).toBe(true);
  });
  it.each(["", "V123456789", "V12345678901", "v1234567890", "V1234567890I", "V1234567890AO", "V1234567890ABC", "X1234567890", " V1234567890", 1234567890])(
    "refuses %j",
    (v) => {
      expect(isValidVerificationNumber(v)).toBe(false);
    },
  );
});

describe("amounts for HMRC", () => {
  it("whole pounds drop the pence (truncate)", () => {
    expect(wholePounds("x", 0)).toBe("0.00");
    expect(wholePounds("x", 99)).toBe("0.00");
    expect(wholePounds("x", 199)).toBe("1.00");
    expect(wholePounds("x", 123456)).toBe("1234.00");
    expect(wholePounds("x", 9_999_999_999)).toBe("99999999.00");
    expect(() => wholePounds("x", 10_000_000_000)).toThrow(HmrcInputError);
    expect(() => wholePounds("x", -1)).toThrow(HmrcInputError);
  });
  it("deduction keeps the pence", () => {
    expect(poundsAndPence("x", 0)).toBe("0.00");
    expect(poundsAndPence("x", 5)).toBe("0.05");
    expect(poundsAndPence("x", 12345)).toBe("123.45");
    expect(poundsAndPence("x", 9_999_999_999)).toBe("99999999.99");
    expect(() => poundsAndPence("x", 10_000_000_000)).toThrow(HmrcInputError);
  });
});

describe("hmrcNameFromFullName", () => {
  it("splits names HMRC can take", () => {
    expect(hmrcNameFromFullName("Jo Bloggs")).toEqual({ fore: ["Jo"], sur: "Bloggs" });
    expect(hmrcNameFromFullName(" Mary-Ann  Jo  O'Neil ")).toEqual({ fore: ["Mary-Ann", "Jo"], sur: "O'Neil" });
  });
  it("returns null for what it cannot express", () => {
    expect(hmrcNameFromFullName("Cher")).toBeNull();
    expect(hmrcNameFromFullName("A B C D")).toBeNull();
    expect(hmrcNameFromFullName("Zoë Smith")).toBeNull();
  });
});

it("HmrcInputError names the field", () => {
  const e = new HmrcInputError("lines[0].utr", "must be a 10-digit UTR");
  expect(e.field).toBe("lines[0].utr");
  expect(e.message).toBe("lines[0].utr: must be a 10-digit UTR");
  expect(e.name).toBe("HmrcInputError");
});
