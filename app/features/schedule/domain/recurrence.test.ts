import { describe, expect, it } from "vitest";
import { occurrences, parseRrule, seriesEnd, toRrule } from "./recurrence";
import { londonToUtc, viewRange } from "./time";

const at = (ymd: string, hm: string) => londonToUtc(ymd, hm);
const starts = (list: { start: number }[]) => list.map((o) => new Date(o.start).toISOString());

describe("RRULE round trip", () => {
  it("writes and reads daily, weekly on weekdays and monthly rules with an end date or a count", () => {
    const weekly = toRrule({ freq: "weekly", interval: 1, weekdays: [0, 2, 4], until: "2026-04-30", count: null });
    expect(weekly).toBe("FREQ=WEEKLY;BYDAY=MO,WE,FR;UNTIL=20260430T225959Z");
    expect(parseRrule(weekly)).toEqual({ freq: "weekly", interval: 1, weekdays: [0, 2, 4], until: "2026-04-30", count: null });
    expect(parseRrule(toRrule({ freq: "monthly", interval: 1, weekdays: [], until: null, count: 6 }))).toEqual({
      freq: "monthly",
      interval: 1,
      weekdays: [],
      until: null,
      count: 6,
    });
    expect(parseRrule("FREQ=HOURLY")).toBeNull();
    expect(parseRrule("FREQ=WEEKLY;BYDAY=XX")).toBeNull();
  });
});

describe("expansion in a view's range", () => {
  it("keeps a weekday 07:30 shift at 07:30 London time across the spring clock change", () => {
    const ev = { startUtc: at("2026-03-23", "07:30"), endUtc: at("2026-03-23", "16:00"), rrule: "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR" };
    const { start, end } = viewRange("week", "2026-03-30");
    expect(starts(occurrences(ev, start, end))).toEqual([
      "2026-03-30T06:30:00.000Z",
      "2026-03-31T06:30:00.000Z",
      "2026-04-01T06:30:00.000Z",
      "2026-04-02T06:30:00.000Z",
      "2026-04-03T06:30:00.000Z",
    ]);
    const before = viewRange("week", "2026-03-23");
    expect(starts(occurrences(ev, before.start, before.end))[0]).toBe("2026-03-23T07:30:00.000Z");
  });

  it("stops at the count and at the end date, and skips removed occurrences", () => {
    const daily = { startUtc: at("2026-10-22", "08:00"), endUtc: at("2026-10-22", "09:00"), rrule: "FREQ=DAILY;COUNT=5" };
    const month = viewRange("month", "2026-10-01");
    // 22-26 October: the clocks go back on the 25th, the time of day stays 08:00.
    expect(starts(occurrences(daily, month.start, month.end))).toEqual([
      "2026-10-22T07:00:00.000Z",
      "2026-10-23T07:00:00.000Z",
      "2026-10-24T07:00:00.000Z",
      "2026-10-25T08:00:00.000Z",
      "2026-10-26T08:00:00.000Z",
    ]);
    expect(seriesEnd(daily)).toBe(Date.UTC(2026, 9, 26, 9));
    const until = { ...daily, rrule: toRrule({ freq: "daily", interval: 1, weekdays: [], until: "2026-10-23", count: null }) };
    expect(occurrences(until, month.start, month.end)).toHaveLength(2);
    const removed = { ...daily, exdates: String(Date.UTC(2026, 9, 23, 7)) };
    expect(occurrences(removed, month.start, month.end)).toHaveLength(4);
    expect(seriesEnd({ ...daily, rrule: "FREQ=DAILY" })).toBeNull();
  });

  it("repeats monthly on the same day, skipping months without it", () => {
    const ev = { startUtc: at("2026-01-31", "10:00"), endUtc: at("2026-01-31", "11:00"), rrule: "FREQ=MONTHLY;COUNT=4" };
    const year = viewRange("year", "2026-01-01");
    expect(starts(occurrences(ev, year.start, year.end))).toEqual([
      "2026-01-31T10:00:00.000Z",
      "2026-03-31T09:00:00.000Z",
      "2026-05-31T09:00:00.000Z",
      "2026-07-31T09:00:00.000Z",
    ]);
  });

  it("shows a single event only when it overlaps the range", () => {
    const ev = { startUtc: at("2026-06-10", "23:00"), endUtc: at("2026-06-11", "01:00"), rrule: null };
    expect(occurrences(ev, viewRange("day", "2026-06-11").start, viewRange("day", "2026-06-11").end)).toHaveLength(1);
    expect(occurrences(ev, viewRange("day", "2026-06-12").start, viewRange("day", "2026-06-12").end)).toHaveLength(0);
  });

  it("finds a long-running series' occurrences in a range far from its start, those begun before the range included, its count kept", () => {
    // Daily from 1 June 2024, each three days long (they overlap one another), 700 times.
    const ev = { startUtc: at("2024-06-01", "22:00"), endUtc: at("2024-06-04", "22:00"), rrule: "FREQ=DAILY;COUNT=700" };
    const day = viewRange("day", "2026-03-29");
    // Begun on 26, 27 and 28 March (ending on 29 March, 30 and 31) and on the 29th itself; the clock change keeps 22:00.
    expect(starts(occurrences(ev, day.start, day.end))).toEqual([
      "2026-03-26T22:00:00.000Z",
      "2026-03-27T22:00:00.000Z",
      "2026-03-28T22:00:00.000Z",
      "2026-03-29T21:00:00.000Z",
    ]);
    // The 700th occurrence starts on 1 May 2026 (699 days after the first); nothing after it.
    const may = viewRange("month", "2026-05-01");
    expect(starts(occurrences(ev, may.start, may.end)).at(-1)).toBe("2026-05-01T21:00:00.000Z");
  });
});
