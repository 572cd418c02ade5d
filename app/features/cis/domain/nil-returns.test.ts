import { describe, expect, it } from "vitest";
import { lastDayForNotice, noticeCovers, noticeFromInactivityDeclaration, returnNeed } from "./nil-returns";

describe("the last day to give notice of no payments", () => {
  it("is 14 days before the month starts on the 6th", () => {
    expect(lastDayForNotice("2026-05")).toBe("2026-04-22");
    // Across a year end and through the clock change (the date is a calendar date, no clock).
    expect(lastDayForNotice("2027-01")).toBe("2026-12-23");
    expect(lastDayForNotice("2026-03")).toBe("2026-02-20");
    expect(lastDayForNotice("2026-04")).toBe("2026-03-23");
  });
});

describe("a notice of no payments", () => {
  const notice = (givenOn: string, firstMonth = "2026-05", months = 1) => ({ givenOn, firstMonth, months });

  it("given 15 days before the month covers it; 14 days before still does; 13 days before does not", () => {
    expect(noticeCovers(notice("2026-04-21"), "2026-05")).toBe(true);
    expect(noticeCovers(notice("2026-04-22"), "2026-05")).toBe(true);
    expect(noticeCovers(notice("2026-04-23"), "2026-05")).toBe(false);
  });

  it("speaks only for its months", () => {
    expect(noticeCovers(notice("2026-01-01", "2026-05", 3), "2026-07")).toBe(true);
    expect(noticeCovers(notice("2026-01-01", "2026-05", 3), "2026-08")).toBe(false);
    expect(noticeCovers(notice("2026-01-01", "2026-05", 3), "2026-04")).toBe(false);
  });

  it("from a CIS300's inactivity declaration covers the six following months it was in time for", () => {
    // The return for the month starting 6 May 2026, with the declaration, filed on 10 June 2026:
    // too late for the month starting 6 June (notice by 23 May), in time for July to November.
    const n = noticeFromInactivityDeclaration("2026-05", "2026-06-10");
    expect(n).toEqual({ givenOn: "2026-06-10", firstMonth: "2026-06", months: 6 });
    const covered = ["2026-06", "2026-07", "2026-08", "2026-09", "2026-10", "2026-11", "2026-12"].filter((m) => noticeCovers(n, m));
    expect(covered).toEqual(["2026-07", "2026-08", "2026-09", "2026-10", "2026-11"]);
  });
});

describe("what a month needs", () => {
  it("a month with payments needs a return, before and after 6 April 2026", () => {
    expect(returnNeed("2026-03", 2, [])).toBe("return");
    expect(returnNeed("2026-04", 1, [])).toBe("return");
  });

  it("a month without payments needs a nil return from the month starting 6 April 2026, not before", () => {
    expect(returnNeed("2026-03", 0, [])).toBe("none_optional");
    expect(returnNeed("2026-04", 0, [])).toBe("nil_return");
    expect(returnNeed("2026-10", 0, [])).toBe("nil_return");
  });

  it("a month covered by a notice given in time needs nothing; a late notice does not help", () => {
    expect(returnNeed("2026-05", 0, [{ givenOn: "2026-04-21", firstMonth: "2026-05", months: 1 }])).toBe("none_notice_given");
    expect(returnNeed("2026-05", 0, [{ givenOn: "2026-04-23", firstMonth: "2026-05", months: 1 }])).toBe("nil_return");
  });
});
