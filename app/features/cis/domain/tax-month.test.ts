import fc from "fast-check";
import { describe, expect, it, vi } from "vitest";
import {
  TaxMonthError,
  currentTaxMonth,
  deadlineIndicator,
  isInTaxMonth,
  londonCalendarDaysBetween,
  londonDateParts,
  nextDeadlines,
  nextTaxMonth,
  previousTaxMonth,
  taxMonthFromLabel,
  taxMonthOf,
  taxMonthOfDate,
} from "./tax-month";

const utc = (iso: string) => new Date(iso);

describe("taxMonthFromLabel", () => {
  it("April 2026: BST both ends", () => {
    const tm = taxMonthFromLabel("2026-04");
    expect(tm.label).toBe("2026-04");
    expect(tm.start.toISOString()).toBe("2026-04-05T23:00:00.000Z"); // 6 April 00:00 BST
    expect(tm.end.toISOString()).toBe("2026-05-05T22:59:59.999Z"); // 5 May 23:59:59.999 BST
    expect(tm.displayLabel).toBe("6 April to 5 May 2026");
    expect(tm.periodEnd).toBe("2026-05-05");
    expect(tm.deadlines.statements.toISOString()).toBe("2026-05-19T22:59:59.000Z");
    expect(tm.deadlines.filing.toISOString()).toBe("2026-05-19T22:59:59.000Z");
    expect(tm.deadlines.payment.toISOString()).toBe("2026-05-22T22:59:59.000Z");
  });

  it("January 2026: GMT both ends", () => {
    const tm = taxMonthFromLabel("2026-01");
    expect(tm.start.toISOString()).toBe("2026-01-06T00:00:00.000Z");
    expect(tm.end.toISOString()).toBe("2026-02-05T23:59:59.999Z");
    expect(tm.deadlines.filing.toISOString()).toBe("2026-02-19T23:59:59.000Z");
    expect(tm.deadlines.payment.toISOString()).toBe("2026-02-22T23:59:59.000Z");
    expect(tm.displayLabel).toBe("6 January to 5 February 2026");
  });

  it("March 2026 starts in GMT and ends in BST", () => {
    const tm = taxMonthFromLabel("2026-03");
    expect(tm.start.toISOString()).toBe("2026-03-06T00:00:00.000Z");
    expect(tm.end.toISOString()).toBe("2026-04-05T22:59:59.999Z");
    expect(tm.deadlines.filing.toISOString()).toBe("2026-04-19T22:59:59.000Z");
  });

  it("October 2026 starts in BST and ends in GMT", () => {
    const tm = taxMonthFromLabel("2026-10");
    expect(tm.start.toISOString()).toBe("2026-10-05T23:00:00.000Z");
    expect(tm.end.toISOString()).toBe("2026-11-05T23:59:59.999Z");
    expect(tm.deadlines.payment.toISOString()).toBe("2026-11-22T23:59:59.000Z");
  });

  it("December takes the year of its end in the display label", () => {
    const tm = taxMonthFromLabel("2026-12");
    expect(tm.displayLabel).toBe("6 December to 5 January 2027");
    expect(tm.periodEnd).toBe("2027-01-05");
    expect(tm.end.toISOString()).toBe("2027-01-05T23:59:59.999Z");
    expect(tm.deadlines.filing.toISOString()).toBe("2027-01-19T23:59:59.000Z");
  });

  it.each(["", "2026-13", "2026-00", "2026-4", "26-04", "2026/04", "abcd-ef", "2026-04-06", " 2026-04", "0999-01", "9999-12"])("refuses %j", (label) => {
    expect(() => taxMonthFromLabel(label)).toThrow(TaxMonthError);
  });
});

describe("taxMonthOf", () => {
  it.each([
    // BST: 6 April starts at 23:00 UTC on the 5th
    ["2026-04-05T22:59:59.999Z", "2026-03"],
    ["2026-04-05T23:00:00.000Z", "2026-04"],
    ["2026-04-05T23:30:00.000Z", "2026-04"],
    ["2026-05-05T22:59:59.999Z", "2026-04"],
    ["2026-05-05T23:00:00.000Z", "2026-05"],
    // GMT
    ["2026-01-05T23:59:59.999Z", "2025-12"],
    ["2026-01-06T00:00:00.000Z", "2026-01"],
    ["2026-02-05T23:59:59.999Z", "2026-01"],
    ["2026-02-06T00:00:00.000Z", "2026-02"],
    // early January belongs to December of the year before
    ["2026-01-01T00:00:00.000Z", "2025-12"],
    ["2026-01-03T12:00:00.000Z", "2025-12"],
    ["2025-12-31T23:59:59.999Z", "2025-12"],
    // clock changes inside a month
    ["2026-03-29T00:59:59.999Z", "2026-03"],
    ["2026-03-29T01:00:00.000Z", "2026-03"],
    ["2026-10-25T00:30:00.000Z", "2026-10"],
    ["2026-10-25T01:30:00.000Z", "2026-10"],
  ])("%s is in %s", (iso, label) => {
    expect(taxMonthOf(utc(iso)).label).toBe(label);
    expect(isInTaxMonth(utc(iso), label)).toBe(true);
  });

  it("refuses an invalid date", () => {
    expect(() => taxMonthOf(new Date("nope"))).toThrow(TaxMonthError);
  });

  // An independent London clock: UK summer time runs from 01:00 UTC on the last
  // Sunday of March to 01:00 UTC on the last Sunday of October.
  function lastSundayUtc(year: number, month: number): number {
    const lastDay = new Date(Date.UTC(year, month + 1, 0));
    return Date.UTC(year, month, lastDay.getUTCDate() - lastDay.getUTCDay(), 1);
  }
  function expectedLabel(t: number): string {
    const year = new Date(t).getUTCFullYear();
    const bst = t >= lastSundayUtc(year, 2) && t < lastSundayUtc(year, 9);
    const local = new Date(t + (bst ? 3_600_000 : 0));
    let y = local.getUTCFullYear();
    let m = local.getUTCMonth() + 1;
    if (local.getUTCDate() < 6) {
      m -= 1;
      if (m === 0) {
        m = 12;
        y -= 1;
      }
    }
    return `${y}-${String(m).padStart(2, "0")}`;
  }

  it("agrees with an independent London clock across many instants", () => {
    fc.assert(
      fc.property(fc.integer({ min: Date.UTC(2000, 0, 1), max: Date.UTC(2060, 0, 1) }), (t) => {
        expect(taxMonthOf(new Date(t)).label).toBe(expectedLabel(t));
      }),
      { numRuns: 3000 },
    );
  });

  it("agrees with the independent clock at every hour around each boundary", { timeout: 30_000 }, () => {
    for (let year = 2025; year <= 2028; year++) {
      for (let month = 0; month < 12; month++) {
        for (const day of [5, 6]) {
          for (let h = -2; h < 26; h++) {
            for (const ms of [0, 59 * 60_000 + 59_999]) {
              const t = Date.UTC(year, month, day, 0) + h * 3_600_000 + ms;
              expect(taxMonthOf(new Date(t)).label).toBe(expectedLabel(t));
            }
          }
        }
      }
    }
  });

  it("a month's start and end map back to it, and months tile without gaps", () => {
    fc.assert(
      fc.property(fc.integer({ min: 2000, max: 2090 }), fc.integer({ min: 1, max: 12 }), (y, m) => {
        const label = `${y}-${String(m).padStart(2, "0")}`;
        const tm = taxMonthFromLabel(label);
        expect(taxMonthOf(tm.start).label).toBe(label);
        expect(taxMonthOf(tm.end).label).toBe(label);
        expect(nextTaxMonth(label).start.getTime()).toBe(tm.end.getTime() + 1);
        expect(previousTaxMonth(nextTaxMonth(label).label).label).toBe(label);
      }),
    );
  });
});

describe("tax months kept per isolate", () => {
  // UK clocks: BST from 01:00 UTC on the last Sunday of March to 01:00 UTC on the last Sunday of
  // October, so on the 6th, 19th and 22nd of April to October London is an hour ahead of UTC.
  function wallClockUtc(y: number, m: number, d: number, h: number, min: number, s: number): number {
    const bst = m >= 4 && m <= 10;
    return Date.UTC(y, m - 1, d, h, min, s) - (bst ? 3_600_000 : 0);
  }

  it("every month's boundaries and deadlines follow the UK clock change, asked once or many times", () => {
    for (let round = 0; round < 3; round++) {
      for (let year = 2024; year <= 2030; year++) {
        for (let m = 1; m <= 12; m++) {
          const label = `${year}-${String(m).padStart(2, "0")}`;
          const next = m === 12 ? { y: year + 1, m: 1 } : { y: year, m: m + 1 };
          const tm = taxMonthFromLabel(label);
          expect(tm.start.getTime()).toBe(wallClockUtc(year, m, 6, 0, 0, 0));
          expect(tm.end.getTime()).toBe(wallClockUtc(next.y, next.m, 6, 0, 0, 0) - 1);
          expect(tm.deadlines.filing.getTime()).toBe(wallClockUtc(next.y, next.m, 19, 23, 59, 59));
          expect(tm.deadlines.statements.getTime()).toBe(wallClockUtc(next.y, next.m, 19, 23, 59, 59));
          expect(tm.deadlines.payment.getTime()).toBe(wallClockUtc(next.y, next.m, 22, 23, 59, 59));
        }
      }
    }
  });

  it("the London date of an instant turns at London midnight, in summer and in winter", () => {
    expect(londonDateParts(utc("2026-07-14T22:59:59.999Z"))).toEqual({ year: 2026, month: 7, day: 14 });
    expect(londonDateParts(utc("2026-07-14T23:00:00.000Z"))).toEqual({ year: 2026, month: 7, day: 15 });
    expect(londonDateParts(utc("2026-12-31T23:59:59.999Z"))).toEqual({ year: 2026, month: 12, day: 31 });
    expect(londonDateParts(utc("2027-01-01T00:00:00.000Z"))).toEqual({ year: 2027, month: 1, day: 1 });
    // The spring change (29 March 2026, 01:00 UTC) and the autumn one (25 October 2026, 01:00 UTC).
    expect(londonDateParts(utc("2026-03-28T23:30:00.000Z"))).toEqual({ year: 2026, month: 3, day: 28 });
    expect(londonDateParts(utc("2026-03-29T23:30:00.000Z"))).toEqual({ year: 2026, month: 3, day: 30 });
    expect(londonDateParts(utc("2026-10-24T23:30:00.000Z"))).toEqual({ year: 2026, month: 10, day: 25 });
    expect(londonDateParts(utc("2026-10-25T23:30:00.000Z"))).toEqual({ year: 2026, month: 10, day: 25 });
  });

  it("the London date kept for a moment is right on both sides of every midnight, old clocks included", () => {
    // London mean time (-0:01:15) before December 1847: midnight fell at 00:01:15 UTC.
    expect(londonDateParts(utc("1840-01-01T00:01:14.999Z"))).toEqual({ year: 1839, month: 12, day: 31 });
    expect(londonDateParts(utc("1840-01-01T00:01:15.000Z"))).toEqual({ year: 1840, month: 1, day: 1 });
    // British Standard Time (+1 all year, 1968-71), then asked again and again within the same moment.
    for (let i = 0; i < 3; i++) {
      expect(londonDateParts(utc("1970-06-01T22:59:59.999Z"))).toEqual({ year: 1970, month: 6, day: 1 });
      expect(londonDateParts(utc("1970-06-01T23:00:00.000Z"))).toEqual({ year: 1970, month: 6, day: 2 });
    }
    // What a caller does with its answer does not change the next one.
    const today = londonDateParts(utc("2026-05-05T12:00:00.000Z"));
    today.day = 99;
    expect(londonDateParts(utc("2026-05-05T12:00:01.000Z"))).toEqual({ year: 2026, month: 5, day: 5 });
  });

  it("keeps the London date of each moment asked for, not only the last: today and each deadline in turn are worked out once", () => {
    const formatToParts = vi.spyOn(Intl.DateTimeFormat.prototype, "formatToParts");
    try {
      const now = utc("2031-11-28T09:00:00.000Z");
      const deadlines = [utc("2031-12-19T23:59:59.000Z"), utc("2032-01-19T23:59:59.000Z"), utc("2032-03-29T23:30:00.000Z")];
      for (let i = 0; i < 10; i++) {
        expect(deadlines.map((d) => londonCalendarDaysBetween(now, d))).toEqual([21, 52, 123]);
      }
      expect(formatToParts).toHaveBeenCalledTimes(4);
    } finally {
      formatToParts.mockRestore();
    }
  });

  it("a caller changing the dates it was given does not change the next answer", () => {
    const first = taxMonthFromLabel("2026-03");
    first.start.setTime(0);
    first.end.setUTCFullYear(1999);
    first.deadlines.filing.setTime(1);
    first.deadlines.payment.setTime(2);
    const again = taxMonthFromLabel("2026-03");
    expect(again.start.toISOString()).toBe("2026-03-06T00:00:00.000Z");
    expect(again.end.toISOString()).toBe("2026-04-05T22:59:59.999Z");
    expect(again.deadlines.filing.toISOString()).toBe("2026-04-19T22:59:59.000Z");
    expect(again.deadlines.payment.toISOString()).toBe("2026-04-22T22:59:59.000Z");
    expect(again.deadlines.statements).not.toBe(again.deadlines.filing);
  });

  it("more labels than it keeps still answer correctly", () => {
    for (let year = 1900; year <= 2049; year++) {
      for (const m of [3, 10]) {
        const label = `${year}-${String(m).padStart(2, "0")}`;
        const tm = taxMonthFromLabel(label);
        expect(taxMonthOf(tm.start).label).toBe(label);
        expect(taxMonthOf(tm.end).label).toBe(label);
        expect(tm.displayLabel).toBe(m === 3 ? `6 March to 5 April ${year}` : `6 October to 5 November ${year}`);
      }
    }
  });
});

describe("helpers", () => {
  it("previous and next cross years", () => {
    expect(previousTaxMonth("2026-01").label).toBe("2025-12");
    expect(nextTaxMonth("2025-12").label).toBe("2026-01");
    expect(previousTaxMonth("2026-05").label).toBe("2026-04");
  });

  it("currentTaxMonth is taxMonthOf(now)", () => {
    expect(currentTaxMonth(utc("2026-06-10T12:00:00Z")).label).toBe("2026-06");
  });

  it("taxMonthOfDate reads plain dates as London dates and needs an offset on instants", () => {
    expect(taxMonthOfDate("2026-04-05").label).toBe("2026-03");
    expect(taxMonthOfDate("2026-04-06").label).toBe("2026-04");
    expect(taxMonthOfDate("2026-04-05T23:30:00Z").label).toBe("2026-04");
    expect(taxMonthOfDate("2026-04-05T23:30:00+00:00").label).toBe("2026-04");
    expect(() => taxMonthOfDate("2026-04-05T23:30:00")).toThrow(TaxMonthError);
    expect(() => taxMonthOfDate("2026-02-30")).toThrow(TaxMonthError);
  });

  it("londonCalendarDaysBetween counts London dates", () => {
    // 23:30 UTC on 5 April in BST is already 6 April in London
    expect(londonCalendarDaysBetween(utc("2026-04-05T12:00:00Z"), utc("2026-04-05T23:30:00Z"))).toBe(1);
    expect(londonCalendarDaysBetween(utc("2026-01-05T12:00:00Z"), utc("2026-01-05T23:30:00Z"))).toBe(0);
    // across the spring change (a 23-hour day)
    expect(londonCalendarDaysBetween(utc("2026-03-28T12:00:00Z"), utc("2026-03-30T12:00:00Z"))).toBe(2);
  });
});

describe("deadlineIndicator", () => {
  const filing = taxMonthFromLabel("2026-04").deadlines.filing; // 19 May 2026 23:59:59 BST

  it.each([
    ["2026-05-10T09:00:00Z", "pending", 9, "9 days left"],
    ["2026-05-15T22:59:59Z", "pending", 4, "4 days left"],
    // 23:30 UTC on the 15th is 00:30 on the 16th in London: already 3 days.
    ["2026-05-15T23:30:00Z", "urgent", 3, "3 days left"],
    ["2026-05-16T09:00:00Z", "urgent", 3, "3 days left"],
    ["2026-05-18T09:00:00Z", "urgent", 1, "1 day left"],
    ["2026-05-19T22:59:59Z", "urgent", 0, "0 days left"],
    ["2026-05-19T23:00:00Z", "overdue", 1, "1 day overdue"],
    ["2026-05-22T12:00:00Z", "overdue", 3, "3 days overdue"],
  ])("now %s -> %s %s %s", (now, state, days, text) => {
    expect(deadlineIndicator(filing, utc(now))).toEqual({ state, days, text });
  });

  it("counts London days in winter", () => {
    const payment = taxMonthFromLabel("2026-11").deadlines.payment; // 22 Dec 2026 23:59:59 GMT
    expect(deadlineIndicator(payment, utc("2026-12-22T23:59:59Z")).text).toBe("0 days left");
    expect(deadlineIndicator(payment, utc("2026-12-23T00:00:00Z"))).toEqual({ state: "overdue", days: 1, text: "1 day overdue" });
    expect(deadlineIndicator(payment, utc("2026-12-18T23:59:59Z"))).toEqual({ state: "pending", days: 4, text: "4 days left" });
  });

  it("an overdue deadline earlier the same second still shows 1 day", () => {
    expect(deadlineIndicator(filing, new Date(filing.getTime() + 500)).days).toBe(1);
  });
});

describe("nextDeadlines", () => {
  it("shows the ended month's deadlines within warningDays", () => {
    const alerts = nextDeadlines(utc("2026-05-17T09:00:00Z"), 3);
    expect(alerts.map((a) => [a.kind, a.severity, a.taxMonth])).toEqual([
      ["statements", "high", "2026-04"],
      ["filing", "critical", "2026-04"],
    ]);
    expect(alerts[0]!.deadline.toISOString()).toBe("2026-05-19T22:59:59.000Z");
    expect(alerts[0]!.message).toBe("Payment and deduction statements for 6 April to 5 May 2026 are due by 19 May 2026 (2 days left)");
    expect(alerts[1]!.message).toBe("The CIS300 monthly return for 6 April to 5 May 2026 must be filed by 19 May 2026 (2 days left)");
  });

  it("includes the payment deadline when in range", () => {
    const alerts = nextDeadlines(utc("2026-05-19T09:00:00Z"), 3);
    expect(alerts.map((a) => a.kind)).toEqual(["statements", "filing", "payment"]);
    expect(alerts[2]!.message).toBe("CIS deductions for 6 April to 5 May 2026 must be paid to HMRC by 22 May 2026 (3 days left)");
  });

  it("drops passed deadlines", () => {
    const alerts = nextDeadlines(utc("2026-05-20T09:00:00Z"), 3);
    expect(alerts.map((a) => a.kind)).toEqual(["payment"]);
    expect(nextDeadlines(utc("2026-05-23T09:00:00Z"), 3)).toEqual([]);
  });

  it("nothing when deadlines are further away than warningDays", () => {
    expect(nextDeadlines(utc("2026-05-10T09:00:00Z"), 3)).toEqual([]);
    expect(nextDeadlines(utc("2026-05-19T09:00:00Z"), 0).map((a) => a.kind)).toEqual(["statements", "filing"]);
  });

  it("with a long warning window, the current month's deadlines show before it ends", () => {
    // 1 June: the April month's deadlines have passed; May's (19/22 June) are 18 and 21 days away.
    const alerts = nextDeadlines(utc("2026-06-01T09:00:00Z"), 30);
    expect(alerts.map((a) => [a.kind, a.taxMonth])).toEqual([
      ["statements", "2026-05"],
      ["filing", "2026-05"],
      ["payment", "2026-05"],
    ]);
  });

  it("around the autumn clock change (deadline in GMT, now in BST)", () => {
    // 2026-09 ends 5 October; filing 19 October 23:59:59 BST; clocks go back 25 October.
    const tm = taxMonthFromLabel("2026-09");
    expect(tm.deadlines.filing.toISOString()).toBe("2026-10-19T22:59:59.000Z");
    const oct = taxMonthFromLabel("2026-10"); // ends 5 November, deadlines in GMT
    expect(oct.deadlines.payment.toISOString()).toBe("2026-11-22T23:59:59.000Z");
    const alerts = nextDeadlines(utc("2026-11-19T23:30:00Z"), 3);
    expect(alerts.map((a) => a.kind)).toEqual(["statements", "filing", "payment"]);
  });

  it("refuses warningDays outside 0..30", () => {
    expect(() => nextDeadlines(new Date(), -1)).toThrow(RangeError);
    expect(() => nextDeadlines(new Date(), 31)).toThrow(RangeError);
    expect(() => nextDeadlines(new Date(), 1.5)).toThrow(RangeError);
  });
});

describe("no dependence on the host's time zone", () => {
  // Workers run in UTC and laptops do not; local-time getters would make the
  // same instant land in different tax months on different machines.
  it("domain code never reads local calendar fields", async () => {
    const { readFileSync, readdirSync } = await import("node:fs");
    const path = await import("node:path");
    const dir = path.dirname(new URL(import.meta.url).pathname);
    const sources = readdirSync(dir, { recursive: true, encoding: "utf8" })
      .filter((f) => f.endsWith(".ts") && !/\.test(-support)?\.ts$/.test(f))
      .map((f) => [f, readFileSync(path.join(dir, f), "utf8")] as const);
    expect(sources.length).toBeGreaterThan(10);
    for (const [file, source] of sources) {
      expect(source, file).not.toMatch(/\.(getDate|getDay|getMonth|getFullYear|getHours|getMinutes|getTimezoneOffset|setDate|setMonth|setHours)\(/);
      expect(source, file).not.toMatch(/new Date\(\s*\d+\s*,/);
      expect(source, file).not.toMatch(/toLocale(Date|Time)?String\(/);
    }
  });
});
