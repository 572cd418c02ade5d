import { describe, expect, it } from "vitest";
import { figuresFor } from "./calculation-panel";

const typed = (over: Partial<Parameters<typeof figuresFor>[0]> = {}) =>
  figuresFor({ gross: "1,000.00", materials: "300", vatRate: "20", reverseCharge: false, cisRate: 20, ...over });

describe("figuresFor: the live panel reads what is typed the way the server does", () => {
  it("works out labour, CIS, VAT and net from pounds as typed", () => {
    expect(typed()).toMatchObject({
      grossP: 100_000,
      materialsP: 30_000,
      labourP: 70_000,
      cisDeductionP: 14_000,
      vatAmountP: 20_000,
      netPaymentP: 106_000,
      cisRate: 20,
      vatRate: 20,
    });
    expect(typed({ gross: "£0.15", materials: "", vatRate: "5", cisRate: 30 })).toMatchObject({
      labourP: 15,
      cisDeductionP: 5,
      vatAmountP: 1,
      netPaymentP: 11,
    });
    expect(typed({ reverseCharge: true })).toMatchObject({ vatAmountP: 0, netPaymentP: 86_000, reverseCharge: true });
    // Blank materials are none.
    expect(typed({ materials: undefined })).toMatchObject({ materialsP: 0, labourP: 100_000 });
  });

  it("shows nothing until the inputs are usable", () => {
    for (const over of [
      { gross: "" },
      { gross: undefined },
      { gross: "-5" },
      { gross: "abc" },
      { materials: "-1" },
      { materials: "1000.01" },
      { vatRate: "7" },
      { vatRate: "" },
      { cisRate: null },
      { cisRate: 25 },
    ]) {
      expect(typed(over), JSON.stringify(over)).toBeNull();
    }
  });
});
