import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import routeConfig from "../app/routes";
import { MATCH_LOOP, withMatchMemo } from "./route-match-memo.mjs";

const ROOT = path.resolve(import.meta.dirname, "..");
const ROUTER = (mode: string) => path.join(ROOT, "node_modules", "react-router", "dist", mode, "lib", "router");
// Inside node_modules, so the copy resolves React Router's own dependencies as the original does.
const COPY = path.join(ROOT, "node_modules", ".cache", "route-match-memo-test", "router");

type ConfigEntry = { id?: string; file: string; path?: string; index?: boolean; children?: ConfigEntry[] };
type Route = { id: string; path?: string; index?: boolean; children?: Route[] };
type Match = { route: Route; params: Record<string, string | undefined>; pathname: string; pathnameBase: string };

const toRoute = (e: ConfigEntry): Route => ({ id: e.id ?? e.file, path: e.path, index: e.index, children: e.children?.map(toRoute) });
// The app's whole route tree under its root layout, as the Worker's build gives it to React Router.
const routes: Route[] = [{ id: "root", path: "", children: (routeConfig as ConfigEntry[]).map(toRoute) }];

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
  let memoised: { match(path: string, allowPartial?: boolean): Match[] | null };
  let original: (routes: Route[], path: string, basename: string, allowPartial: boolean) => Match[] | null;
  let rememberedAnswers: () => number;

  beforeAll(async () => {
    rmSync(COPY, { recursive: true, force: true });
    mkdirSync(path.dirname(COPY), { recursive: true });
    cpSync(ROUTER("production"), COPY, { recursive: true });
    const utils = path.join(COPY, "utils.js");
    const memo = path.join(ROOT, "app", "utils", "route-match-memo.ts");
    writeFileSync(utils, withMatchMemo(readFileSync(utils, "utf8"), memo));
    // Read through the copy, so it is the memo instance the copied search imported.
    writeFileSync(path.join(COPY, "memo.js"), `export { rememberedAnswers } from ${JSON.stringify(memo)};`);
    ({ rememberedAnswers } = await import(pathToFileURL(path.join(COPY, "memo.js")).href));
    const { V6RegExMatcher } = await import(pathToFileURL(path.join(COPY, "matcher.js")).href);
    ({ matchRoutesImpl: original } = await import(pathToFileURL(utils).href));
    memoised = new V6RegExMatcher("/");
    (memoised as unknown as { update(r: Route[]): void }).update(routes);
  });
  afterAll(() => rmSync(path.dirname(COPY), { recursive: true, force: true }));

  it("finds the loop exactly once in both of React Router's builds", () => {
    for (const mode of ["production", "development"]) {
      const code = readFileSync(path.join(ROUTER(mode), "utils.js"), "utf8");
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
