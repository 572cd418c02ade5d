import { describe, expect, it } from "vitest";
import { pagedTotal, searchCountLimit } from "./capped-count.server";
import { itemCount } from "~/components/ui/pager";

describe("a search's capped count", () => {
  it("counts up to three pages past the one shown, and one more", () => {
    expect(searchCountLimit(1, 25)).toBe(101);
    expect(searchCountLimit(4, 25)).toBe(176);
  });

  it("reads a count that reached the limit as a lower bound: 'more than', 'at least' pages", () => {
    expect(pagedTotal(101, 25, 101)).toEqual({ total: 100, more: true, pageCount: 5 });
    expect(itemCount(100, true)).toBe("More than 100 items");
  });

  it("reads a count under the limit, or without one, as exact", () => {
    expect(pagedTotal(100, 25, 101)).toEqual({ total: 100, more: false, pageCount: 4 });
    expect(pagedTotal(0, 25)).toEqual({ total: 0, more: false, pageCount: 1 });
    expect(pagedTotal(26, 25)).toEqual({ total: 26, more: false, pageCount: 2 });
    expect(itemCount(1)).toBe("1 item");
    expect(itemCount(26)).toBe("26 items");
  });
});
