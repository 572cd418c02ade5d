import { describe, expect, it } from "vitest";
import { ellipsize } from "./text";

describe("ellipsize", () => {
  it("keeps a name of up to 120 characters and cuts a longer one to 120 with an ellipsis", () => {
    expect(ellipsize("a".repeat(120))).toBe("a".repeat(120));
    const cut = ellipsize("b".repeat(250));
    expect(cut).toBe(`${"b".repeat(119)}…`);
    expect([...cut]).toHaveLength(120);
    expect(ellipsize("abcdef", 4)).toBe("abc…");
  });

  it("never splits a character made of two code units", () => {
    const cut = ellipsize("😀".repeat(200));
    expect([...cut]).toHaveLength(120);
    expect(cut.endsWith("😀…")).toBe(true);
  });
});
