import { describe, expect, it } from "vitest";
import { canRelease, clampLease, MAX_LEASE_MS, tryAcquire } from "./lease";

describe("lease", () => {
  it("grants a free lock and refuses a second holder while it lasts", () => {
    const a = tryAcquire(null, "a", 5000, 1000);
    expect(a.result).toEqual({ acquired: true, holder: "a", expiresAt: 6000 });
    const b = tryAcquire(a.next, "b", 5000, 2000);
    expect(b.result).toEqual({ acquired: false, holder: "a", expiresAt: 6000 });
  });
  it("lets the holder renew and anyone take an expired lease", () => {
    const a = tryAcquire(null, "a", 5000, 1000).next;
    expect(tryAcquire(a, "a", 5000, 3000).result).toEqual({ acquired: true, holder: "a", expiresAt: 8000 });
    expect(tryAcquire(a, "b", 5000, 6000).result.acquired).toBe(true);
  });
  it("releases only for the holder and bounds lease lengths", () => {
    expect(canRelease({ holder: "a", expiresAt: 1 }, "b")).toBe(false);
    expect(canRelease({ holder: "a", expiresAt: 1 }, "a")).toBe(true);
    expect(clampLease(10 ** 9)).toBe(MAX_LEASE_MS);
    expect(clampLease(-5)).toBe(1000);
  });
});
