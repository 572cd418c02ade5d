import { describe, expect, it } from "vitest";
import { londonClock, londonOffsets } from "./london-clock";
import { londonHm, londonYmd } from "./time";

describe("London clock of a range", () => {
  it("finds both clock changes of 2026 to the millisecond", () => {
    const spans = londonOffsets(Date.UTC(2026, 0, 1), Date.UTC(2027, 0, 1));
    expect(spans).toEqual([
      { from: Date.UTC(2026, 0, 1), offset: 0 },
      { from: Date.UTC(2026, 2, 29, 1), offset: 3_600_000 },
      { from: Date.UTC(2026, 9, 25, 1), offset: 0 },
    ]);
  });

  it("gives the same London dates and times as the time-zone database, inside and outside its range", () => {
    const clock = londonClock(Date.UTC(2026, 2, 23), Date.UTC(2026, 10, 2));
    for (let t = Date.UTC(2026, 1, 1); t < Date.UTC(2026, 11, 1); t += 37 * 60_000 + 13_000) {
      expect(clock.ymd(t)).toBe(londonYmd(t));
      expect(clock.hm(t)).toBe(londonHm(t));
    }
  });
});
