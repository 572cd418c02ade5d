import { describe, expect, it } from "vitest";
import { safeRedirectPath } from "./middleware.server";

describe("safeRedirectPath", () => {
  it("keeps same-origin paths with their query and fragment", () => {
    expect(safeRedirectPath("/cis/subcontractors?q=a#top")).toBe("/cis/subcontractors?q=a#top");
    expect(safeRedirectPath("/a/./b/../c")).toBe("/a/c");
    expect(safeRedirectPath("/")).toBe("/");
  });

  it("falls back for empty, relative and absolute addresses", () => {
    for (const to of [null, undefined, "", "x", "evil.test", "http://evil.test/", "https://evil.test", "javascript:alert(1)", " /x"]) {
      expect(safeRedirectPath(to, "/fallback")).toBe("/fallback");
    }
  });

  it("never returns a protocol-relative or off-site address, however the path is dressed up", () => {
    const attacks = [
      "//evil.test",
      "/\\evil.test",
      "/.//evil.test",
      "/.//evil.test/x",
      "/..//evil.test",
      "/%2e//evil.test",
      "/%2E//evil.test",
      "/.\\/evil.test",
      "/\\\\evil.test",
      "/%5c%5cevil.test",
      "/%5C/evil.test",
      "/./\\evil.test",
      "/.%2f/evil.test",
      "/a/../..//evil.test",
      "/\t/evil.test",
      "/\n/evil.test",
    ];
    for (const to of attacks) {
      const out = safeRedirectPath(to, "/fallback");
      expect(out, to).toMatch(/^\/(?![/\\])/);
      expect(new URL(out, "https://acme.example.com").origin, to).toBe("https://acme.example.com");
    }
  });
});
