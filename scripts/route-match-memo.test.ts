import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MATCH_LOOP, withMatchMemo } from "./route-match-memo.mjs";
import {
  appRoutes,
  copyRouter,
  importFrom,
  matcherIn,
  MEMO_MODULE,
  removeCopies,
  routerSource,
  type Match,
  type Matcher,
  type Route,
} from "./route-match-copy";

const COPIES = "route-match-memo-test";
// The app's whole route tree under its root layout, as the Worker's build gives it to React Router.
const routes = appRoutes();

/** A concrete address for every route pattern, and the awkward ones around them. */
function addresses(): string[] {
  const out = new Set<string>(["/", "/nowhere", "/cis/nowhere/at/all", "//cis//invoices", "/CIS/Invoices", "/cis/invoices/", "/files/a%20b", "/%E2%82%AC"]);
  const walk = (rs: Route[], base: string) => {
    for (const r of rs) {
      const full = r.path ? `${base}/${r.path}`.replace(/\/+/g, "/") : base;
      if (r.path !== undefined || r.index) {
        out.add(full.replace(/:[\w-]+\??/g, "x1").replace(/\*$/, "a/b") || "/");
        out.add(full.replace(/:[\w-]+\??/g, "inv_0123456789abcdef").replace(/\*$/, "deep/er/still") || "/");
      }
      if (r.children) walk(r.children, full);
    }
  };
  walk(routes, "");
  out.add(`/cis/invoices/${"x".repeat(300)}`);
  return [...out];
}

const summary = (m: Match[] | null) => m?.map((x) => ({ id: x.route.id, params: { ...x.params }, pathname: x.pathname, pathnameBase: x.pathnameBase })) ?? null;

describe("the route-match memo in React Router's route search", () => {
  let memoised: Matcher;
  let original: (routes: Route[], path: string, basename: string, allowPartial: boolean) => Match[] | null;
  let rememberedAnswers: () => number;

  beforeAll(async () => {
    const copy = copyRouter(COPIES, true);
    // Read through the copy, so it is the memo instance the copied search imported.
    writeFileSync(path.join(copy, "memo.js"), `export { rememberedAnswers } from ${JSON.stringify(MEMO_MODULE)};`);
    ({ rememberedAnswers } = await importFrom<{ rememberedAnswers: () => number }>(copy, "memo.js"));
    ({ matchRoutesImpl: original } = await importFrom<{ matchRoutesImpl: typeof original }>(copy, "utils.js"));
    memoised = await matcherIn(copy, routes);
  });
  afterAll(() => removeCopies(COPIES));

  it("finds the loop exactly once in both of React Router's builds", () => {
    for (const mode of ["production", "development"] as const) {
      const code = readFileSync(path.join(routerSource(mode), "utils.js"), "utf8");
      const out = withMatchMemo(code, "/memo.ts");
      expect(out.startsWith('import { firstMatchingBranch as __firstMatchingBranch } from "/memo.ts";')).toBe(true);
      expect(out).toContain("if (precomputedBranches) matches = __firstMatchingBranch(branches, decoded, allowPartial, matchRouteBranch);");
      // Anywhere React Router passes no kept branches, its own loop still runs.
      expect(out.split(MATCH_LOOP).length).toBe(2);
    }
  });

  it("refuses React Router code without the loop, so an upgrade fails the build instead of dropping the memo", () => {
    expect(() => withMatchMemo("function matchRoutesImpl() {}")).toThrow(/route-match-memo/);
    expect(() => withMatchMemo(`${MATCH_LOOP}\n${MATCH_LOOP}`)).toThrow(/exactly once/);
  });

  it("gives every address of the app the same routes, params and paths as React Router's full search, first time and remembered", () => {
    const all = addresses();
    const before = rememberedAnswers();
    expect(all.length).toBeGreaterThan(routes[0].children!.length);
    for (const allowPartial of [false, true]) {
      for (let round = 0; round < 2; round++) {
        for (const address of all) {
          expect(summary(memoised.match(address, allowPartial)), `${address} (partial ${allowPartial}, round ${round})`).toEqual(
            summary(original(routes, address, "/", allowPartial)),
          );
        }
      }
    }
    // The second round of each came from memory (all but the one address too long to keep).
    expect(rememberedAnswers() - before).toBe(2 * (all.length - 1));
  });
});
