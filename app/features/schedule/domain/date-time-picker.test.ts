import { describe, expect, it } from "vitest";
import {
  existingTime,
  fieldText,
  followStart,
  initialPick,
  londonWallClock,
  monthGrid,
  nowRounded,
  occurrencesOfWallClock,
  repeatedHours,
  roundToStep,
  skippedHours,
} from "./date-time-picker";
import { londonToUtc } from "./time";

const utc = (iso: string) => Date.parse(iso);

describe("month grid", () => {
  it("starts every week on Monday and shows six weeks from the Monday on or before the 1st", () => {
    // July 2026 begins on a Wednesday.
    const july = monthGrid("2026-07-14");
    expect(july).toHaveLength(6);
    expect(july[0]).toEqual(["2026-06-29", "2026-06-30", "2026-07-01", "2026-07-02", "2026-07-03", "2026-07-04", "2026-07-05"]);
    expect(july[5]![6]).toBe("2026-08-09");
    for (const week of july) expect(new Date(`${week[0]}T12:00:00Z`).getUTCDay()).toBe(1);
  });

  it("begins on the 1st itself when the month starts on a Monday, and crosses the year end", () => {
    expect(monthGrid("2027-02-20")[0]![0]).toBe("2027-02-01");
    // December 2026 begins on a Tuesday; its grid runs into January 2027.
    const december = monthGrid("2026-12-31");
    expect(december[0]![0]).toBe("2026-11-30");
    expect(december[5]![6]).toBe("2027-01-10");
  });

  it("keeps a leap year's 29 February", () => {
    expect(monthGrid("2028-02-10").flat()).toContain("2028-02-29");
    expect(monthGrid("2027-02-10").flat()).not.toContain("2027-02-29");
  });
});

describe("15-minute step", () => {
  it("rounds to the nearest quarter hour", () => {
    expect(roundToStep({ date: "2026-07-14", time: "14:07" })).toEqual({ date: "2026-07-14", time: "14:00" });
    expect(roundToStep({ date: "2026-07-14", time: "14:08" })).toEqual({ date: "2026-07-14", time: "14:15" });
    expect(roundToStep({ date: "2026-07-14", time: "14:30" })).toEqual({ date: "2026-07-14", time: "14:30" });
    expect(roundToStep({ date: "2026-07-14", time: "14:53" })).toEqual({ date: "2026-07-14", time: "15:00" });
  });

  it("rolls over into the next day, month and year", () => {
    expect(roundToStep({ date: "2026-12-31", time: "23:53" })).toEqual({ date: "2027-01-01", time: "00:00" });
  });

  it("opens on the field's value, or today at 09:00 when the field has none", () => {
    expect(initialPick("2026-07-14", "14:22", "2026-01-01")).toEqual({ date: "2026-07-14", time: "14:15" });
    expect(initialPick("", "", "2026-01-05")).toEqual({ date: "2026-01-05", time: "09:00" });
    expect(initialPick("2026-02-30", "25:00", "2026-01-05")).toEqual({ date: "2026-01-05", time: "09:00" });
  });

  it("shows year-month-day hours:minutes in the field", () => {
    expect(fieldText({ date: "2026-07-14", time: "14:30" })).toBe("2026-07-14 14:30");
  });
});

describe("'Now' in London", () => {
  it("is the London wall clock: an hour ahead of UTC in summer, equal in winter", () => {
    expect(nowRounded(utc("2026-07-14T13:29:00Z"))).toEqual({ date: "2026-07-14", time: "14:30" });
    expect(nowRounded(utc("2026-12-14T14:31:00Z"))).toEqual({ date: "2026-12-14", time: "14:30" });
    // Late on a summer evening in UTC it is already tomorrow in London.
    expect(nowRounded(utc("2026-07-14T23:10:00Z"))).toEqual({ date: "2026-07-15", time: "00:15" });
  });

  it("never lands in the hour the clocks skip: 00:55 GMT on 29 March 2026 rounds to 02:00 BST", () => {
    expect(nowRounded(utc("2026-03-29T00:55:00Z"))).toEqual({ date: "2026-03-29", time: "02:00" });
    expect(nowRounded(utc("2026-03-29T00:50:00Z"))).toEqual({ date: "2026-03-29", time: "00:45" });
  });

  it("reads the repeated hour on the morning the clocks go back (25 October 2026) as it shows", () => {
    expect(nowRounded(utc("2026-10-25T00:30:00Z"))).toEqual({ date: "2026-10-25", time: "01:30" });
    expect(nowRounded(utc("2026-10-25T01:30:00Z"))).toEqual({ date: "2026-10-25", time: "01:30" });
    expect(nowRounded(utc("2026-10-25T02:00:00Z"))).toEqual({ date: "2026-10-25", time: "02:00" });
  });

  it("agrees with the server's conversion of the wall clock back to UTC", () => {
    for (const iso of ["2026-07-14T13:29:00Z", "2026-12-14T14:31:00Z", "2026-03-29T02:07:00Z", "2027-03-28T09:00:00Z"]) {
      const v = nowRounded(utc(iso));
      expect(londonWallClock(londonToUtc(v.date, v.time))).toEqual(v);
    }
  });
});

describe("clock changes", () => {
  it("knows 01:00-01:59 does not exist on 29 March 2026 and happens twice on 25 October 2026", () => {
    expect(skippedHours("2026-03-29")).toEqual([1]);
    expect(repeatedHours("2026-03-29")).toEqual([]);
    expect(repeatedHours("2026-10-25")).toEqual([1]);
    expect(skippedHours("2026-10-25")).toEqual([]);
    expect(skippedHours("2026-07-14")).toEqual([]);
    expect(repeatedHours("2026-07-14")).toEqual([]);
    expect(occurrencesOfWallClock({ date: "2026-03-29", time: "01:30" })).toBe(0);
    expect(occurrencesOfWallClock({ date: "2026-10-25", time: "01:30" })).toBe(2);
    expect(occurrencesOfWallClock({ date: "2026-10-25", time: "02:00" })).toBe(1);
  });

  it("moves a time the clocks skip on by an hour, as the clocks do, and leaves others alone", () => {
    expect(existingTime({ date: "2026-03-29", time: "01:30" })).toEqual({ date: "2026-03-29", time: "02:30" });
    expect(existingTime({ date: "2026-03-29", time: "02:30" })).toEqual({ date: "2026-03-29", time: "02:30" });
    expect(existingTime({ date: "2026-10-25", time: "01:30" })).toEqual({ date: "2026-10-25", time: "01:30" });
  });
});

describe("the end follows the start", () => {
  it("moves by as much as the start did, keeping the length on the clock", () => {
    const start = { date: "2026-07-14", time: "09:00" };
    const end = { date: "2026-07-14", time: "10:00" };
    expect(followStart(end, start, { date: "2026-07-21", time: "14:30" })).toEqual({ date: "2026-07-21", time: "15:30" });
    expect(followStart(end, start, { date: "2026-07-14", time: "23:30" })).toEqual({ date: "2026-07-15", time: "00:30" });
    expect(followStart(end, start, { date: "2026-07-13", time: "08:00" })).toEqual({ date: "2026-07-13", time: "09:00" });
  });

  it("keeps a night shift's end on the clock across the night the clocks go back", () => {
    // 22:00 to 06:00 moved onto the night of 24-25 October 2026 still ends at 06:00 by the clock.
    const from = { date: "2026-10-17", time: "22:00" };
    const end = { date: "2026-10-18", time: "06:00" };
    expect(followStart(end, from, { date: "2026-10-24", time: "22:00" })).toEqual({ date: "2026-10-25", time: "06:00" });
  });
});
