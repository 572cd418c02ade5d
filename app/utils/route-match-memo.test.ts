import { describe, expect, it, vi } from "vitest";
import { MAX_PATH_LENGTH, MAX_PATHS, firstMatchingBranch, rememberedAnswers } from "./route-match-memo";

// Branches as prefixes: a path matches the first branch it starts with.
const matcher = () =>
  vi.fn((prefix: string, path: string, partial: boolean) => (path.startsWith(prefix) && (partial || path.length > prefix.length) ? { prefix } : null));

describe("firstMatchingBranch", () => {
  it("answers a path it has seen by trying only the branch that matched it", () => {
    const branches = ["/cis/invoices", "/cis", "/"];
    const match = matcher();
    expect(firstMatchingBranch(branches, "/cis/x", false, match)).toEqual({ prefix: "/cis" });
    expect(match).toHaveBeenCalledTimes(2);
    match.mockClear();
    const before = rememberedAnswers();
    expect(firstMatchingBranch(branches, "/cis/x", false, match)).toEqual({ prefix: "/cis" });
    expect(match.mock.calls).toEqual([["/cis", "/cis/x", false]]);
    expect(rememberedAnswers()).toBe(before + 1);
  });

  it("remembers that nothing matched, and keeps partial and whole matches apart", () => {
    const branches = ["/a", "/b"];
    const match = matcher();
    expect(firstMatchingBranch(branches, "/c", false, match)).toBeNull();
    match.mockClear();
    expect(firstMatchingBranch(branches, "/c", false, match)).toBeNull();
    expect(match).not.toHaveBeenCalled();
    // "/a" matches the branch "/a" only partially: asked whole it is no match, asked partial it is.
    expect(firstMatchingBranch(branches, "/a", false, match)).toBeNull();
    expect(firstMatchingBranch(branches, "/a", true, match)).toEqual({ prefix: "/a" });
    expect(firstMatchingBranch(branches, "/a", false, match)).toBeNull();
  });

  it("keeps what it learnt per list of branches", () => {
    const match = matcher();
    expect(firstMatchingBranch(["/x", "/"], "/x/1", false, match)).toEqual({ prefix: "/x" });
    expect(firstMatchingBranch(["/"], "/x/1", false, match)).toEqual({ prefix: "/" });
  });

  it("never keeps a long path, and starts again once it holds MAX_PATHS", () => {
    const branches = ["/"];
    const match = matcher();
    const long = `/${"y".repeat(MAX_PATH_LENGTH)}`;
    firstMatchingBranch(branches, long, false, match);
    const before = rememberedAnswers();
    firstMatchingBranch(branches, long, false, match);
    expect(rememberedAnswers()).toBe(before);

    for (let i = 0; i < MAX_PATHS; i++) firstMatchingBranch(branches, `/p${i}`, false, match);
    const kept = rememberedAnswers();
    firstMatchingBranch(branches, "/p0", false, match);
    expect(rememberedAnswers()).toBe(kept + 1);
    // One more path fills it: it starts again, so /p0 is searched afresh.
    firstMatchingBranch(branches, "/one-more", false, match);
    firstMatchingBranch(branches, "/p0", false, match);
    expect(rememberedAnswers()).toBe(kept + 1);
  });
});
