import { describe, expect, it } from "vitest";
import { isContractPayment } from "./public-bodies";

describe("payments to public bodies", () => {
  it("are outside CIS from 6 April 2026, inside it the day before", () => {
    expect(isContractPayment({ publicBody: true }, "2026-04-05")).toBe(true);
    expect(isContractPayment({ publicBody: true }, "2026-04-06")).toBe(false);
    expect(isContractPayment({ publicBody: true }, "2027-01-15")).toBe(false);
  });

  it("other subcontractors are paid under CIS on any date", () => {
    expect(isContractPayment({ publicBody: false }, "2026-04-05")).toBe(true);
    expect(isContractPayment({ publicBody: false }, "2026-04-06")).toBe(true);
  });
});
