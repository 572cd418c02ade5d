/// <reference types="node" />
/**
 * The invoice list's three statements (page, total, stat cards: invoiceListQueries, exactly what
 * listInvoices batches) against a local D1 that holds the bench invoices: EXPLAIN QUERY PLAN and
 * the median time of each statement, per filter. Read-only.
 *
 *   npx tsx bench/explain-invoices.ts [--persist-to .wrangler/bench-state] [--tenant tnt_acme] [--runs 15]
 *
 * `npm run bench` leaves its state in .wrangler/bench-state (acme with --rows subcontractors and
 * --invoices invoices); this script opens that D1's SQLite file directly with node:sqlite, so the
 * timings are SQLite's own, without the Worker, the network hop or rendering.
 */
import { readdirSync } from "node:fs";
import path from "node:path";
import { DatabaseSync } from "node:sqlite";
import { drizzle } from "drizzle-orm/sqlite-proxy";
import type { Db } from "../app/db/client.server";
import * as schema from "../app/db/schema";
import { forgetCommonTerms, noteCommonTerm } from "../app/db/common-search-terms.server";
import { invoiceListQueries, parseInvoiceListQuery } from "../app/features/cis/invoices/queries.server";

export const EXPLAIN_CASES = ["", "?page=100", "?status=paid&q=roofing", "?status=draft", "?period=current", "?period=year&status=approved", "?q=b-00012"];

function parseArgs(argv: string[]) {
  const opts = { persistTo: path.join(".wrangler", "bench-state"), tenantId: "tnt_acme", runs: 15 };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--persist-to") opts.persistTo = argv[++i];
    else if (a === "--tenant") opts.tenantId = argv[++i];
    else if (a === "--runs") opts.runs = Number(argv[++i]);
    else throw new Error(`Unknown argument ${a}`);
  }
  return opts;
}

function sqliteFile(persistTo: string): string {
  const dir = path.join(persistTo, "v3", "d1", "miniflare-D1DatabaseObject");
  const files = readdirSync(dir).filter((f) => f.endsWith(".sqlite") && f !== "metadata.sqlite");
  if (files.length !== 1) throw new Error(`expected one D1 database in ${dir}, found ${files.length}`);
  return path.join(dir, files[0]);
}

type Bind = null | number | bigint | string;
const bindable = (params: unknown[]): Bind[] => params.map((p) => (typeof p === "boolean" ? (p ? 1 : 0) : (p as Bind)));

function main() {
  const opts = parseArgs(process.argv.slice(2));
  const sqlite = new DatabaseSync(sqliteFile(opts.persistTo), { readOnly: true });
  // Only used to render SQL: nothing is executed through it.
  const proxy = drizzle(async () => ({ rows: [] }), { schema }) as unknown as Db;
  const [{ n }] = sqlite.prepare("SELECT count(*) AS n FROM cis_invoices WHERE tenant_id = ?").all(opts.tenantId) as { n: number }[];
  console.log(`[explain] ${n} invoices for ${opts.tenantId} in ${sqliteFile(opts.persistTo)}; median of ${opts.runs} runs per statement\n`);
  const names = ["page", "count", "stats"];
  const summary: string[] = ["| filter | page ms | count ms | stats ms | rows counted |", "|---|---:|---:|---:|---:|"];
  // A search runs twice: as the first search for its term, and once the term is noted common (ADR 0085).
  const cases = EXPLAIN_CASES.flatMap((search) =>
    search.includes("q=")
      ? [
          { search, noted: false },
          { search, noted: true },
        ]
      : [{ search, noted: false }],
  );
  for (const { search, noted } of cases) {
    const query = parseInvoiceListQuery(new URLSearchParams(search));
    forgetCommonTerms();
    if (noted) noteCommonTerm("cis_invoices_search", opts.tenantId, query.q);
    const statements = invoiceListQueries(proxy, opts.tenantId, query).map((q) => q.toSQL());
    const label = `${search || "(none)"}${noted ? " (term noted common)" : ""}`;
    console.log(`/cis/invoices${search}${noted ? " (term noted common)" : ""}`);
    const times: number[] = [];
    let counted = 0;
    statements.forEach((s, i) => {
      const params = bindable(s.params);
      const plan = sqlite.prepare(`EXPLAIN QUERY PLAN ${s.sql}`).all(...params) as { detail: string }[];
      const stmt = sqlite.prepare(s.sql);
      const runs: number[] = [];
      let result: unknown[] = [];
      for (let r = 0; r < opts.runs; r++) {
        const t = process.hrtime.bigint();
        result = stmt.all(...params);
        runs.push(Number(process.hrtime.bigint() - t) / 1e6);
      }
      runs.sort((a, b) => a - b);
      const median = runs[Math.floor(runs.length / 2)];
      times.push(median);
      if (names[i] === "count") counted = Number(Object.values(result[0] as Record<string, unknown>)[0] ?? 0);
      console.log(`  ${names[i].padEnd(6)} ${median.toFixed(2).padStart(7)} ms  ${plan.map((p) => p.detail).join(" | ")}`);
    });
    summary.push(`| \`${label}\` | ${times.map((t) => t.toFixed(2)).join(" | ")} | ${counted} |`);
    console.log("");
  }
  console.log(summary.join("\n"));
}

main();
