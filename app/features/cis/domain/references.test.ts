import { describe, expect, it } from "vitest";
import { accountsOfficeCheckLetter, hasValidAccountsOfficeCheckLetter, hasValidUtrCheckDigit, utrCheckDigit } from "./references";

describe("UTR check digit", () => {
  it("accepts HMRC's sample UTR and rejects the usual placeholder", () => {
    expect(hasValidUtrCheckDigit("2234567890")).toBe(true);
    expect(hasValidUtrCheckDigit("1234567890")).toBe(false);
  });

  it.each([
    // trailing nine digits, their weighted sum, and the check digit that sum's remainder by 11 picks
    ["000000000", "2"], // 0
    ["000000001", "9"], // 2
    ["000000010", "8"], // 3
    ["100000000", "5"], // 6
    ["000000004", "3"], // 8
    ["000000005", "1"], // 10
    ["000000300", "1"], // 12, remainder 1
    ["234567890", "2"], // 264, remainder 0
  ])("the check digit for %s is %s", (tail, digit) => {
    expect(utrCheckDigit(tail)).toBe(digit);
    expect(hasValidUtrCheckDigit(`${digit}${tail}`)).toBe(true);
  });

  it("catches typical typos of HMRC's sample UTR", () => {
    // A changed last digit (sum 266, remainder 2 → 9), a changed first digit, two swapped neighbours
    // (sum 263, remainder 10 → 1). The table maps two remainders to each of 1 and 2, so not every
    // single change is caught: the check narrows mistakes, HMRC's matching catches the rest.
    expect(hasValidUtrCheckDigit("2234567891")).toBe(false);
    expect(hasValidUtrCheckDigit("3234567890")).toBe(false);
    expect(hasValidUtrCheckDigit("2243567890")).toBe(false);
  });

  it("needs exactly ten digits", () => {
    expect(hasValidUtrCheckDigit("223456789")).toBe(false);
    expect(hasValidUtrCheckDigit("22345678901")).toBe(false);
    expect(hasValidUtrCheckDigit("22345 67890")).toBe(false);
    expect(utrCheckDigit("12345678")).toBeNull();
  });
});

describe("Accounts Office reference check letter", () => {
  it("accepts HMRC's sample reference and rejects the spec's example", () => {
    expect(hasValidAccountsOfficeCheckLetter("754PT00002240")).toBe(true);
    expect(accountsOfficeCheckLetter("123PA00012345")).toBe("G");
    expect(hasValidAccountsOfficeCheckLetter("123PA00012345")).toBe(false);
    expect(hasValidAccountsOfficeCheckLetter("123PG00012345")).toBe(true);
  });

  it("a changed digit is caught", () => {
    expect(hasValidAccountsOfficeCheckLetter("754PT00002241")).toBe(false);
    expect(hasValidAccountsOfficeCheckLetter("755PT00002240")).toBe(false);
  });

  it("needs the shape dddP?dddddddd", () => {
    expect(hasValidAccountsOfficeCheckLetter("754XT00002240")).toBe(false);
    expect(hasValidAccountsOfficeCheckLetter("754PT0000224")).toBe(false);
    expect(hasValidAccountsOfficeCheckLetter("754pt00002240")).toBe(false);
  });
});
