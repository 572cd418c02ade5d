import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { MAX_AMOUNT_PENCE, formatPence, isValidPence, parseMoney, penceToPoundsString, poundsToPence } from "./money";

describe("poundsToPence", () => {
  it.each([
    [0, 0],
    [1, 100],
    [0.29, 29],
    [1.005, 101],
    [1.015, 102],
    [2.675, 268],
    [0.1 + 0.2, 30],
    [1234.56, 123456],
    [0.004, 0],
    [0.005, 1],
    [-1.005, -101],
    [-0, 0],
    [1e-7, 0],
  ])("%s pounds is %s pence", (pounds, pence) => {
    expect(poundsToPence(pounds)).toBe(pence);
  });

  it("gives the typed value for every amount typed with two decimals", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 99_999_999_999 }), (p) => {
        const typed = Number(`${Math.floor(p / 100)}.${String(p % 100).padStart(2, "0")}`);
        expect(poundsToPence(typed)).toBe(p);
      }),
    );
  });

  it("refuses NaN, infinities and amounts beyond safe integers", () => {
    expect(() => poundsToPence(Number.NaN)).toThrow(RangeError);
    expect(() => poundsToPence(Number.POSITIVE_INFINITY)).toThrow(RangeError);
    expect(() => poundsToPence(1e300)).toThrow(RangeError);
  });
});

describe("formatPence", () => {
  it.each([
    [0, "£0.00"],
    [1, "£0.01"],
    [100, "£1.00"],
    [123456, "£1,234.56"],
    [100000000, "£1,000,000.00"],
    [-100, "-£1.00"],
    [-123456, "-£1,234.56"],
    [MAX_AMOUNT_PENCE, "£99,999,999.99"],
  ])("%s -> %s", (p, text) => {
    expect(formatPence(p)).toBe(text);
  });

  it("round-trips through parseMoney", () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }), (p) => parseMoney(formatPence(p)) === p));
  });
});

describe("penceToPoundsString", () => {
  it("writes plain pounds for exports", () => {
    expect(penceToPoundsString(123456)).toBe("1234.56");
    expect(penceToPoundsString(5)).toBe("0.05");
    expect(penceToPoundsString(-5)).toBe("-0.05");
  });
});

describe("parseMoney", () => {
  it.each([
    ["£1,234.56", 123456],
    ["1234.5", 123450],
    [" 1 234 ", 123400],
    ["0", 0],
    [".5", 50],
    ["5.", 500],
    ["£0.01", 1],
    ["1,000,000", 100000000],
  ])("%j -> %s", (text, p) => {
    expect(parseMoney(text)).toBe(p);
  });

  it.each(["", "£", ".", "-1", "-£1.00", "1.234", "abc", "1.2.3", "1e5", "NaN", "Infinity", "99999999999999999"])("%j is not an amount", (text) => {
    expect(parseMoney(text)).toBeNull();
  });
});

describe("isValidPence", () => {
  it("accepts non-negative safe integers only", () => {
    expect(isValidPence(0)).toBe(true);
    expect(isValidPence(Number.MAX_SAFE_INTEGER)).toBe(true);
    expect(isValidPence(Number.MAX_SAFE_INTEGER + 1)).toBe(false);
    expect(isValidPence(-1)).toBe(false);
    expect(isValidPence(1.5)).toBe(false);
    expect(isValidPence(Number.NaN)).toBe(false);
    expect(isValidPence(Number.POSITIVE_INFINITY)).toBe(false);
    expect(isValidPence("100")).toBe(false);
  });
});
