import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CisCalculationError, calculateCis, invoiceAmounts, materialsPercentage, rateForVerificationStatus } from "./calculation";

const base = { grossP: 100000, materialsP: 20000, cisRate: 20, vatRate: 20, reverseCharge: false };

describe("calculateCis", () => {
  it("deducts 20% of labour and adds VAT on gross for a standard invoice", () => {
    expect(calculateCis(base)).toEqual({
      labourP: 80000,
      cisDeductionP: 16000,
      vatAmountP: 20000,
      netPaymentP: 104000,
      materialsPercentage: 20,
    });
  });

  it("reverse charge: no VAT and net is gross minus deduction", () => {
    expect(calculateCis({ ...base, reverseCharge: true })).toEqual({
      labourP: 80000,
      cisDeductionP: 16000,
      vatAmountP: 0,
      netPaymentP: 84000,
      materialsPercentage: 20,
    });
  });

  it("gross status deducts nothing; higher rate deducts 30%", () => {
    expect(calculateCis({ ...base, cisRate: 0 }).cisDeductionP).toBe(0);
    expect(calculateCis({ ...base, cisRate: 30 }).cisDeductionP).toBe(24000);
  });

  it("rounds halves up on exact integers", () => {
    // 20% of 2.5p = 0.5p -> 1p; 20% of 2.4p... labour 12p x 20% = 2.4p -> 2p
    expect(calculateCis({ ...base, grossP: 5, materialsP: 0, vatRate: 0 }).cisDeductionP).toBe(1);
    expect(calculateCis({ ...base, grossP: 12, materialsP: 0, vatRate: 0 }).cisDeductionP).toBe(2);
    expect(calculateCis({ ...base, grossP: 13, materialsP: 0, vatRate: 0 }).cisDeductionP).toBe(3); // 2.6
    // 5% VAT of 10p = 0.5p -> 1p; of 30p = 1.5p -> 2p
    expect(calculateCis({ ...base, grossP: 10, materialsP: 0, vatRate: 5 }).vatAmountP).toBe(1);
    expect(calculateCis({ ...base, grossP: 30, materialsP: 0, vatRate: 5 }).vatAmountP).toBe(2);
    // 30% of 105p = 31.5p -> 32p
    expect(calculateCis({ ...base, grossP: 105, materialsP: 0, cisRate: 30 }).cisDeductionP).toBe(32);
  });

  it("materials above gross leave no labour and no deduction", () => {
    const r = calculateCis({ ...base, grossP: 1000, materialsP: 1500 });
    expect(r.labourP).toBe(0);
    expect(r.cisDeductionP).toBe(0);
    expect(r.materialsPercentage).toBe(150);
  });

  it("zero gross", () => {
    expect(calculateCis({ ...base, grossP: 0, materialsP: 0 })).toEqual({
      labourP: 0,
      cisDeductionP: 0,
      vatAmountP: 0,
      netPaymentP: 0,
      materialsPercentage: 0,
    });
  });

  it("stays exact for very large amounts", () => {
    const big = 9_999_999_999_999; // £99,999,999,999.99
    const r = calculateCis({ grossP: big, materialsP: 0, cisRate: 30, vatRate: 20, reverseCharge: false });
    expect(r.cisDeductionP).toBe(3_000_000_000_000); // 2999999999999.7 rounds up
    expect(r.vatAmountP).toBe(2_000_000_000_000);
    expect(r.netPaymentP).toBe(big + 2_000_000_000_000 - 3_000_000_000_000);
  });

  it("refuses amounts whose net would not be a safe integer", () => {
    // With no materials the VAT and the deduction cancel out and the net is exactly MAX_SAFE_INTEGER.
    expect(calculateCis({ ...base, grossP: Number.MAX_SAFE_INTEGER, materialsP: 0 }).netPaymentP).toBe(Number.MAX_SAFE_INTEGER);
    expect(() => calculateCis({ ...base, grossP: Number.MAX_SAFE_INTEGER, materialsP: 20000 })).toThrow(CisCalculationError);
  });

  it.each([10, 25, -20, 20.5, Number.NaN])("refuses CIS rate %s", (cisRate) => {
    expect(() => calculateCis({ ...base, cisRate })).toThrow(/cisRate must be 0, 20 or 30/);
  });

  it.each([17.5, 15, -5])("refuses VAT rate %s", (vatRate) => {
    expect(() => calculateCis({ ...base, vatRate })).toThrow(/vatRate must be 0, 5 or 20/);
  });

  it("refuses non-integer or negative amounts", () => {
    expect(() => calculateCis({ ...base, grossP: 10.5 })).toThrow(CisCalculationError);
    expect(() => calculateCis({ ...base, materialsP: -1 })).toThrow(CisCalculationError);
  });
});

describe("properties", () => {
  const rates = fc.constantFrom(0, 20, 30);
  const vats = fc.constantFrom(0, 5, 20);
  const amount = fc.integer({ min: 0, max: 10_000_000_000 });
  const input = fc.record({ grossP: amount, materialsP: amount, cisRate: rates, vatRate: vats, reverseCharge: fc.boolean() });

  it("deduction is labour x rate / 100 rounded half up, never more", () => {
    fc.assert(
      fc.property(input, (i) => {
        const r = calculateCis(i);
        const exact = (r.labourP * i.cisRate) / 100;
        expect(r.cisDeductionP).toBeGreaterThanOrEqual(0);
        expect(r.cisDeductionP).toBeLessThanOrEqual(Math.floor(exact + 0.5));
        expect(Math.abs(r.cisDeductionP - exact)).toBeLessThanOrEqual(0.5);
        expect(r.cisDeductionP).toBeLessThanOrEqual(r.labourP);
      }),
    );
  });

  it("net is never negative and adds up", () => {
    fc.assert(
      fc.property(input, (i) => {
        const r = calculateCis(i);
        expect(r.netPaymentP).toBeGreaterThanOrEqual(0);
        expect(r.netPaymentP).toBe(i.grossP + r.vatAmountP - r.cisDeductionP);
        if (i.reverseCharge) expect(r.vatAmountP).toBe(0);
      }),
    );
  });

  it("labour + materials = gross when materials <= gross", () => {
    fc.assert(
      fc.property(amount, amount, rates, (a, b, cisRate) => {
        const [materialsP, grossP] = a <= b ? [a, b] : [b, a];
        const r = calculateCis({ grossP, materialsP, cisRate, vatRate: 0, reverseCharge: false });
        expect(r.labourP + materialsP).toBe(grossP);
      }),
    );
  });
});

describe("materialsPercentage", () => {
  it("rounds to two decimals, half up", () => {
    expect(materialsPercentage(300, 100)).toBe(33.33);
    expect(materialsPercentage(300, 200)).toBe(66.67);
    expect(materialsPercentage(200000, 130001)).toBe(65);
    expect(materialsPercentage(0, 100)).toBe(0);
    expect(materialsPercentage(100, 100)).toBe(100);
  });
});

describe("invoiceAmounts", () => {
  it("adds the VAT base and gross total", () => {
    expect(invoiceAmounts(base)).toMatchObject({ grossP: 100000, materialsP: 20000, vatBaseP: 100000, grossTotalP: 120000 });
    expect(invoiceAmounts({ ...base, reverseCharge: true }).grossTotalP).toBe(100000);
  });
});

it("verification status decides the rate", () => {
  expect(rateForVerificationStatus("gross")).toBe(0);
  expect(rateForVerificationStatus("standard")).toBe(20);
  expect(rateForVerificationStatus("higher")).toBe(30);
});
