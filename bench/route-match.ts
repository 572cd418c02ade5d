/// <reference types="node" />
/**
 * React Router's route search over this app's routes, with and without the route-match memo
 * (ADR 0084): microseconds a search for a few addresses, in Node.
 *
 *   npx tsx bench/route-match.ts [--runs 5000]
 *
 * Copies React Router's router modules into node_modules/.cache twice, one copy transformed by
 * scripts/route-match-memo.mjs as the Worker's build does, and times the matcher React Router's
 * request handler uses (its branches ranked once) on each. The copies are removed afterwards.
 */
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import routeConfig from "../app/routes";
import { withMatchMemo } from "../scripts/route-match-memo.mjs";

type ConfigEntry = { id?: string; file: string; path?: string; index?: boolean; children?: ConfigEntry[] };
type Route = { id: string; path?: string; index?: boolean; children?: Route[] };
type Matcher = { update(routes: Route[]): void; match(path: string): unknown };

const ROOT = path.resolve(import.meta.dirname, "..");
const ADDRESSES = ["/welcome", "/", "/cis", "/cis/invoices", "/cis/subcontractors", "/cis/statements", "/files"];

const toRoute = (e: ConfigEntry): Route => ({ id: e.id ?? e.file, path: e.path, index: e.index, children: e.children?.map(toRoute) });

async function matcherFrom(dir: string): Promise<Matcher> {
  const { V6RegExMatcher } = await import(pathToFileURL(path.join(dir, "matcher.js")).href);
  const matcher = new V6RegExMatcher("/") as Matcher;
  matcher.update([{ id: "root", path: "", children: (routeConfig as ConfigEntry[]).map(toRoute) }]);
  return matcher;
}

function microseconds(matcher: Matcher, address: string, runs: number): number {
  for (let i = 0; i < runs / 10; i++) matcher.match(address);
  const t0 = performance.now();
  for (let i = 0; i < runs; i++) matcher.match(address);
  return ((performance.now() - t0) * 1000) / runs;
}

async function main() {
  const runs = Number(process.argv[process.argv.indexOf("--runs") + 1]) || 5000;
  const cache = path.join(ROOT, "node_modules", ".cache", "route-match-bench");
  const source = path.join(ROOT, "node_modules", "react-router", "dist", "production", "lib", "router");
  const [plain, memo] = [path.join(cache, "plain"), path.join(cache, "memo")];
  rmSync(cache, { recursive: true, force: true });
  mkdirSync(cache, { recursive: true });
  try {
    for (const dir of [plain, memo]) cpSync(source, dir, { recursive: true });
    const utils = path.join(memo, "utils.js");
    writeFileSync(utils, withMatchMemo(readFileSync(utils, "utf8"), path.join(ROOT, "app", "utils", "route-match-memo.ts")));
    const [without, withMemo] = [await matcherFrom(plain), await matcherFrom(memo)];
    console.log(`| address | React Router's search, µs | with the memo, µs |\n|---|---:|---:|`);
    for (const address of ADDRESSES) {
      console.log(`| ${address} | ${microseconds(without, address, runs).toFixed(1)} | ${microseconds(withMemo, address, runs).toFixed(1)} |`);
    }
  } finally {
    rmSync(cache, { recursive: true, force: true });
  }
}

await main();
