import { describe, expect, it } from "vitest";
import { cisRecordPurgeBefore } from "./tax-month";

describe("cisRecordPurgeBefore", () => {
  it("keeps a record made in 2026-27 until 5 April 2033 and lets it go from 6 April 2033 (London)", () => {
    const made = new Date("2026-04-19T10:00:00Z");
    // 5 April 2033, 23:59 London (BST): still within the sixth year after 2026-27 ended.
    expect(made.getTime() < cisRecordPurgeBefore(new Date("2033-04-05T22:59:00Z")).getTime()).toBe(false);
    // 6 April 2033, 00:00 London is 5 April 23:00 UTC.
    expect(made.getTime() < cisRecordPurgeBefore(new Date("2033-04-05T23:00:00Z")).getTime()).toBe(true);
  });

  it("is 6 April 00:00 London six years before the current tax year started, in winter and summer", () => {
    expect(cisRecordPurgeBefore(new Date("2033-01-15T12:00:00Z")).toISOString()).toBe("2026-04-05T23:00:00.000Z");
    expect(cisRecordPurgeBefore(new Date("2033-04-06T12:00:00Z")).toISOString()).toBe("2027-04-05T23:00:00.000Z");
    expect(cisRecordPurgeBefore(new Date("2033-12-31T23:59:00Z")).toISOString()).toBe("2027-04-05T23:00:00.000Z");
  });

  it("a record made on 5 April belongs to the tax year then ending; one made on 6 April to the next", () => {
    const cutoff = cisRecordPurgeBefore(new Date("2033-04-06T12:00:00Z")).getTime();
    expect(new Date("2027-04-05T12:00:00Z").getTime() < cutoff).toBe(true);
    expect(new Date("2027-04-06T12:00:00Z").getTime() < cutoff).toBe(false);
  });
});
