import { formatInTimeZone, fromZonedTime } from "date-fns-tz";
import { describe, expect, it } from "vitest";
import { lateFilingPenaltyPosition, lateFilingPenaltySteps, taxGearedPenaltyPence } from "./penalties";

const london = (d: Date) => formatInTimeZone(d, "Europe/London", "yyyy-MM-dd HH:mm:ss");
/** An instant given as London wall-clock time. */
const at = (wallClock: string) => fromZonedTime(wallClock, "Europe/London");

describe("late-filing penalty steps", () => {
  it("start on the 20th after the filing date and two, six and twelve months later, at midnight London time", () => {
    // Tax month 6 February to 5 March 2026: filed by 19 March 2026; penalty date 20 March (GMT),
    // then 20 May (BST), 20 September (BST), 20 March 2027 (GMT).
    const steps = lateFilingPenaltySteps("2026-02", 0);
    expect(steps.map((s) => [s.kind, london(s.startsAt)])).toEqual([
      ["initial", "2026-03-20 00:00:00"],
      ["two_months", "2026-05-20 00:00:00"],
      ["six_months", "2026-09-20 00:00:00"],
      ["twelve_months", "2027-03-20 00:00:00"],
    ]);
    // Across the new year: tax month 6 December 2026 to 5 January 2027.
    expect(lateFilingPenaltySteps("2026-12", 0).map((s) => london(s.startsAt).slice(0, 10))).toEqual(["2027-01-20", "2027-03-20", "2027-07-20", "2028-01-20"]);
  });

  it("cost £100, £200, then £300 or 5% of the deductions, whichever is higher, twice", () => {
    expect(lateFilingPenaltySteps("2026-05", 100_000).map((s) => s.amountPence)).toEqual([10_000, 20_000, 30_000, 30_000]);
    // 5% of £6,000.00 is exactly £300; of £10,000.00 it is £500.
    expect(taxGearedPenaltyPence(600_000)).toBe(30_000);
    expect(taxGearedPenaltyPence(1_000_000)).toBe(50_000);
    // 5% of £10,000.01 is 50,000.05p: rounded down to the penny.
    expect(taxGearedPenaltyPence(1_000_001)).toBe(50_000);
    expect(lateFilingPenaltySteps("2026-05", 1_000_000).map((s) => s.amountPence)).toEqual([10_000, 20_000, 50_000, 50_000]);
  });

  it("kept per month: asked again, the same month gives the same days with its own amounts, and a caller changing a date changes no other answer", () => {
    const first = lateFilingPenaltySteps("2025-08", 100_000);
    first[0]!.startsAt.setUTCFullYear(1999);
    const again = lateFilingPenaltySteps("2025-08", 1_000_000);
    expect(again.map((s) => london(s.startsAt).slice(0, 10))).toEqual(["2025-09-20", "2025-11-20", "2026-03-20", "2026-09-20"]);
    expect(again.map((s) => s.amountPence)).toEqual([10_000, 20_000, 50_000, 50_000]);
    // Other months stay their own, including after many months have been asked for.
    for (let y = 2000; y < 2030; y++) for (let m = 1; m <= 12; m++) lateFilingPenaltySteps(`${y}-${String(m).padStart(2, "0")}`, 0);
    expect(lateFilingPenaltySteps("2026-02", 0).map((s) => london(s.startsAt))[0]).toBe("2026-03-20 00:00:00");
    expect(() => lateFilingPenaltySteps("2026-13", 0)).toThrow();
  });

  it("rejects a label that is not a tax month", () => {
    expect(() => lateFilingPenaltySteps("2026-13", 0)).toThrow();
  });
});

describe("which steps apply", () => {
  const month = "2026-09"; // 6 September to 5 October 2026, filed by 19 October 2026

  it("nothing on the filing date itself, £100 from the first moment of the day after", () => {
    const none = lateFilingPenaltyPosition(month, 0, { now: at("2026-10-19T23:59:59"), filedAt: null });
    expect(none.incurred).toEqual([]);
    expect(none.next?.kind).toBe("initial");
    expect(london(none.next!.startsAt)).toBe("2026-10-20 00:00:00");

    const first = lateFilingPenaltyPosition(month, 0, { now: at("2026-10-20T00:00:00"), filedAt: null });
    expect(first.incurred.map((s) => s.kind)).toEqual(["initial"]);
    expect(first.incurredPence).toBe(10_000);
    expect(first.next?.kind).toBe("two_months");
  });

  it("each further step on its first day and not on the day before", () => {
    const cases: [string, number][] = [
      ["2026-12-19T23:59:59", 10_000],
      ["2026-12-20T00:00:00", 30_000], // + £200 (20 December, two months after 20 October)
      ["2027-04-19T23:59:59", 30_000],
      ["2027-04-20T00:00:00", 60_000], // + £300 (six months)
      ["2027-10-19T23:59:59", 60_000],
      ["2027-10-20T00:00:00", 90_000], // + £300 (twelve months)
    ];
    for (const [now, total] of cases) {
      expect(lateFilingPenaltyPosition(month, 0, { now: at(now), filedAt: null }).incurredPence, now).toBe(total);
    }
    expect(lateFilingPenaltyPosition(month, 0, { now: at("2028-01-01T12:00:00"), filedAt: null }).next).toBeNull();
  });

  it("a return filed late keeps the steps that had started when it was filed, and nothing more comes", () => {
    const filedAt = at("2026-12-21T10:00:00");
    const p = lateFilingPenaltyPosition(month, 0, { now: at("2027-06-01T09:00:00"), filedAt });
    expect(p.incurred.map((s) => s.kind)).toEqual(["initial", "two_months"]);
    expect(p.incurredPence).toBe(30_000);
    expect(p.next).toBeNull();
  });

  it("a return filed on time owes nothing", () => {
    const p = lateFilingPenaltyPosition(month, 500_000, { now: at("2027-12-01T09:00:00"), filedAt: at("2026-10-19T18:00:00") });
    expect(p).toEqual({ incurred: [], incurredPence: 0, next: null });
  });
});
