import { formatInTimeZone } from "date-fns-tz";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { formatDate, formatDateTime, formatLongDate, formatRelative, isSoon } from "./dates";

describe("dates", () => {
  it("formats en-GB in London time, across the clock change", () => {
    // 23:30 UTC on 5 April 2026 is 00:30 BST on 6 April.
    expect(formatDate(new Date("2026-04-05T23:30:00Z"))).toBe("06/04/2026");
    // In winter London is UTC.
    expect(formatDate(new Date("2026-01-05T23:30:00Z"))).toBe("05/01/2026");
    expect(formatDateTime(new Date("2026-07-01T12:00:00Z"))).toBe("01/07/2026, 13:00");
  });

  it("gives the same answers from the isolate's memory of recent dates, before and after it fills and empties", () => {
    const base = Date.UTC(2026, 2, 28, 23, 0);
    const expected = (ms: number) => formatInTimeZone(new Date(ms), "Europe/London", "dd/MM/yyyy, HH:mm");
    for (let round = 0; round < 2; round++)
      for (let i = 0; i < 2500; i += 1) {
        const ms = base + i * 1_800_000;
        expect(formatDateTime(ms)).toBe(expected(ms));
        expect(formatDateTime(new Date(ms))).toBe(expected(ms));
      }
  });

  it("gives N/A for missing or invalid input", () => {
    expect(formatDate(null)).toBe("N/A");
    expect(formatDate(undefined)).toBe("N/A");
    expect(formatDate("not a date")).toBe("N/A");
    expect(formatDateTime(Number.NaN)).toBe("N/A");
  });

  it("gives relative times as the spec lists them", () => {
    const now = new Date("2026-06-10T12:00:00Z");
    expect(formatRelative(new Date("2026-06-10T11:59:30Z"), now)).toBe("Just now");
    expect(formatRelative(new Date("2026-06-10T11:55:00Z"), now)).toBe("5 minutes ago");
    expect(formatRelative(new Date("2026-06-10T09:00:00Z"), now)).toBe("3 hours ago");
    expect(formatRelative(new Date("2026-06-09T20:00:00Z"), now)).toBe("Yesterday");
    expect(formatRelative(new Date("2026-06-06T12:00:00Z"), now)).toBe("4 days ago");
    expect(formatRelative(new Date("2026-05-01T12:00:00Z"), now)).toBe("May 1, 2026");
  });

  it("checks 'soon' with a 3-day default", () => {
    const now = new Date("2026-06-10T12:00:00Z");
    expect(isSoon(new Date("2026-06-12T12:00:00Z"), now)).toBe(true);
    expect(isSoon(new Date("2026-06-14T12:00:00Z"), now)).toBe(false);
    expect(isSoon(new Date("2026-06-09T12:00:00Z"), now)).toBe(false);
  });

  it("agrees with date-fns-tz in London time for any instant of years 1900 to 9999 (the browser's Intl alone does it)", () => {
    const instant = fc.date({ min: new Date("1900-01-01T00:00:00Z"), max: new Date("9999-12-31T23:59:59Z"), noInvalidDate: true });
    fc.assert(
      fc.property(instant, (d) => {
        expect(formatDate(d)).toBe(formatInTimeZone(d, "Europe/London", "dd/MM/yyyy"));
        expect(formatDateTime(d)).toBe(formatInTimeZone(d, "Europe/London", "dd/MM/yyyy, HH:mm"));
        expect(formatLongDate(d)).toBe(formatInTimeZone(d, "Europe/London", "d MMMM yyyy"));
      }),
      { numRuns: 500 },
    );
  });

  it("pads years before 1000 and dates a week or more ago as 'MMM d, yyyy'", () => {
    expect(formatDate(new Date("0999-03-04T12:00:00Z"))).toBe("04/03/0999");
    expect(formatLongDate(new Date("2026-09-19T23:30:00Z"))).toBe("20 September 2026");
    expect(formatRelative(new Date("2026-09-01T12:00:00Z"), new Date("2026-09-20T12:00:00Z"))).toBe("Sep 1, 2026");
  });
});
