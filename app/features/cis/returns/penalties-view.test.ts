import { describe, expect, it } from "vitest";
import { monthPenalties, penaltiesView } from "./penalties-view";
import type { ReturnRow } from "./returns.server";

const utc = (iso: string) => new Date(iso);
const states = (v: ReturnType<typeof penaltiesView>) => v?.steps.map((s) => [s.kind, s.state, s.startsOn]);

describe("penaltiesView (the October 2026 return: due 19 November 2026, GMT)", () => {
  it("nothing on the filing date itself; £100 from midnight on the 20th, every later step listed with its date", () => {
    expect(penaltiesView("2026-10", 0, { now: utc("2026-11-19T23:59:59Z"), filedAt: null })).toBeNull();
    const v = penaltiesView("2026-10", 0, { now: utc("2026-11-20T00:00:00Z"), filedAt: null });
    expect(v?.charged).toBe("£100.00");
    expect(v?.filed).toBe(false);
    expect(states(v)).toEqual([
      ["initial", "charged", "20 November 2026"],
      ["two_months", "coming", "20 January 2027"],
      ["six_months", "coming", "20 May 2027"],
      ["twelve_months", "coming", "20 November 2027"],
    ]);
    expect(v?.steps.map((s) => s.text)).toEqual([
      "£100.00",
      "a further £200.00",
      "a further £300.00 (£300 or 5% of the CIS deducted, whichever is higher)",
      "a further £300.00 (the same again)",
    ]);
  });

  it("the two-month step: not on its last day before (19 January), charged from 20 January", () => {
    expect(penaltiesView("2026-10", 0, { now: utc("2027-01-19T23:59:59Z"), filedAt: null })?.charged).toBe("£100.00");
    expect(penaltiesView("2026-10", 0, { now: utc("2027-01-20T00:00:00Z"), filedAt: null })?.charged).toBe("£300.00");
  });

  it("six and twelve months in summer time start at midnight BST (23:00 UTC the day before); 5% of large deductions", () => {
    // 5% of £10,000.00 deducted is £500.00, more than £300.
    expect(penaltiesView("2026-10", 1_000_000, { now: utc("2027-05-19T22:59:59Z"), filedAt: null })?.charged).toBe("£300.00");
    expect(penaltiesView("2026-10", 1_000_000, { now: utc("2027-05-19T23:00:00Z"), filedAt: null })?.charged).toBe("£800.00");
    expect(penaltiesView("2026-10", 1_000_000, { now: utc("2027-11-20T00:00:00Z"), filedAt: null })?.charged).toBe("£1,300.00");
    // £5,999.00 deducted: 5% is £299.95, so £300 stands.
    expect(penaltiesView("2026-10", 599_900, { now: utc("2027-05-20T12:00:00Z"), filedAt: null })?.charged).toBe("£600.00");
  });

  it("a March 2026 return (due 19 April, BST): the first step starts at 23:00 UTC on 19 April", () => {
    expect(penaltiesView("2026-03", 0, { now: utc("2026-04-19T22:59:59Z"), filedAt: null })).toBeNull();
    expect(penaltiesView("2026-03", 0, { now: utc("2026-04-19T23:00:00Z"), filedAt: null })?.charged).toBe("£100.00");
  });

  it("filed late: only the steps charged before filing, none coming; filed in time: nothing", () => {
    const late = penaltiesView("2026-10", 0, { now: utc("2027-03-01T12:00:00Z"), filedAt: utc("2027-01-25T10:00:00Z") });
    expect(late?.filed).toBe(true);
    expect(late?.charged).toBe("£300.00");
    expect(states(late)).toEqual([
      ["initial", "charged", "20 November 2026"],
      ["two_months", "charged", "20 January 2027"],
    ]);
    expect(penaltiesView("2026-10", 0, { now: utc("2027-03-01T12:00:00Z"), filedAt: utc("2026-11-19T23:59:59Z") })).toBeNull();
  });
});

describe("monthPenalties", () => {
  const row = (over: Partial<ReturnRow>): ReturnRow =>
    ({ taxMonth: "2026-10", locked: false, status: "draft", submittedAt: null, lockedAt: null, cisDeductedP: 0, ...over }) as ReturnRow;

  it("a missing return is priced from the overdue entry's deductions", () => {
    const due = [{ taxMonth: "2026-10", displayLabel: "", deadline: utc("2026-11-19T23:59:59Z"), daysOverdue: 1, nil: true, deductionsP: 0 }];
    expect(monthPenalties("2026-10", [row({})], due, utc("2026-11-21T12:00:00Z"))?.charged).toBe("£100.00");
  });

  it("a return filed late is priced from its first acceptance; one filed in time has none", () => {
    const now = utc("2027-06-01T12:00:00Z");
    const late = row({ locked: true, status: "submitted", submittedAt: utc("2027-05-21T09:00:00Z").getTime(), cisDeductedP: 1_000_000 });
    expect(monthPenalties("2026-10", [late], [], now)?.charged).toBe("£800.00");
    const onTime = row({ locked: true, status: "submitted", submittedAt: utc("2026-11-18T09:00:00Z").getTime() });
    expect(monthPenalties("2026-10", [onTime, late], [], now)).toBeNull();
    expect(monthPenalties("2026-10", [row({})], [], now)).toBeNull();
  });

  it("a nil return nobody owed is late for nothing: before April 2026 nil returns were optional, and a notice of no payments given in time covers its months", () => {
    const filedIn2026 = { locked: true, status: "nil" as const, submittedAt: utc("2026-11-27T12:00:00Z").getTime() };
    const now = utc("2026-11-27T13:00:00Z");
    expect(monthPenalties("2019-08", [row({ taxMonth: "2019-08", ...filedIn2026 })], [], now)).toBeNull();
    expect(monthPenalties("2026-03", [row({ taxMonth: "2026-03", ...filedIn2026 })], [], now)).toBeNull();
    const notice = { givenOn: "2026-03-01", firstMonth: "2026-04", months: 6 };
    expect(monthPenalties("2026-05", [row({ taxMonth: "2026-05", ...filedIn2026 })], [], now, [notice])).toBeNull();
    // Owed from April 2026 without a notice: filed late, charged.
    expect(monthPenalties("2026-05", [row({ taxMonth: "2026-05", ...filedIn2026 })], [], now)?.charged).toBe("£300.00");
  });
});
