import { describe, expect, it } from "vitest";
import { keptPerIsolate } from "./kept";

describe("keptPerIsolate", () => {
  it("works an answer out once per key, and starts again empty once the limit is reached", () => {
    const asked: string[] = [];
    const upper = keptPerIsolate(2, (s: string) => {
      asked.push(s);
      return s.toUpperCase();
    });
    expect([upper("a"), upper("a"), upper("b"), upper("a")]).toEqual(["A", "A", "B", "A"]);
    expect(asked).toEqual(["a", "b"]);
    // A third key empties the store: the earlier keys are worked out again.
    expect([upper("c"), upper("a"), upper("c")]).toEqual(["C", "A", "C"]);
    expect(asked).toEqual(["a", "b", "c", "a"]);
  });
});
