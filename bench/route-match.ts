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
import { appRoutes, copyRouter, matcherIn, removeCopies, type Matcher } from "../scripts/route-match-copy";

const COPIES = "route-match-bench";
const ADDRESSES = ["/welcome", "/", "/cis", "/cis/invoices", "/cis/subcontractors", "/cis/statements", "/files"];

function microseconds(matcher: Matcher, address: string, runs: number): number {
  for (let i = 0; i < runs / 10; i++) matcher.match(address);
  const t0 = performance.now();
  for (let i = 0; i < runs; i++) matcher.match(address);
  return ((performance.now() - t0) * 1000) / runs;
}

async function main() {
  const runs = Number(process.argv[process.argv.indexOf("--runs") + 1]) || 5000;
  try {
    const routes = appRoutes();
    const [without, withMemo] = [await matcherIn(copyRouter(COPIES, false), routes), await matcherIn(copyRouter(COPIES, true), routes)];
    console.log(`| address | React Router's search, µs | with the memo, µs |\n|---|---:|---:|`);
    for (const address of ADDRESSES) {
      console.log(`| ${address} | ${microseconds(without, address, runs).toFixed(1)} | ${microseconds(withMemo, address, runs).toFixed(1)} |`);
    }
  } finally {
    removeCopies(COPIES);
  }
}

await main();
