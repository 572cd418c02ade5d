// `npm run bench:returns [-- --invoices 10000 --subcontractors 1000 --runs 3 --no-build]`
//
// Compiles one CIS monthly return through the real page, against the built worker served by
// `wrangler dev` (port 8789, or BENCH_RETURNS_PORT) on its own state (.wrangler/bench-return-state,
// never the developer's .wrangler/state): acme gets --subcontractors bench subcontractors and
// --invoices paid invoices spread over them in tax month 2026-01 (one statement-free month, so the
// return validates), then admin@acme.test posts Compile Return (the first compile inserts, the
// later ones recompile and replace the lines).
//
// For each compile it prints the wall time seen by the client, the D1 queries the request made
// (the Server-Timing header the development and test builds add: the middleware's batch, the
// compile's read batch and its one write batch) and the peak resident memory of the workerd process serving it (its
// VmHWM, reset through /proc/<pid>/clear_refs to the resident size before each request, which is
// printed too; the local D1's SQLite runs in the same process, so its pages count as well).
// It also samples the Worker isolate's own V8 heap through the inspector (port + 1000): the figure
// the 128 MB isolate limit applies to (used size, uncollected garbage included, an upper bound).
// Then it loads /cis/returns for the month (1,000 lines) and prints the same figures.
/* global performance */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import process from "node:process";
import { URLSearchParams } from "node:url";
import { run } from "./setup-local.mjs";
import { buildApp, freshState, httpRequest, serveBuilt } from "../tests/e2e/server.mjs";
import { sampleIsolateHeap } from "../bench/isolate-heap.mjs";

const args = process.argv.slice(2);
const opt = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};
const INVOICES = opt("invoices", 10_000);
const SUBS = opt("subcontractors", 1_000);
const RUNS = opt("runs", 3);
const BUILD = !args.includes("--no-build");
const PORT = Number(process.env.BENCH_RETURNS_PORT ?? 8789);
const INSPECTOR_PORT = PORT + 1000;
const PERSIST_TO = path.join(".wrangler", "bench-return-state");
const SQL_FILE = path.join(".wrangler", "bench-return.sql");
const LOG_FILE = path.join(".wrangler", "bench-return-wrangler.log");
const TENANT = "tnt_acme";
const MONTH = "2026-01";
const origin = `http://acme.localhost:${PORT}`;

/** Deterministic rows: the same flags give the same data every run. */
function renderSql() {
  const now = Date.now();
  const q = (v) => (v === null ? "NULL" : typeof v === "number" ? String(v) : `'${String(v).replaceAll("'", "''")}'`);
  const out = ["DELETE FROM cis_return_lines WHERE tenant_id = 'tnt_acme';", "DELETE FROM cis_returns WHERE tenant_id = 'tnt_acme';"];
  const rates = [0, 20, 20, 20, 30];
  const subs = Array.from({ length: SUBS }, (_, i) => {
    const n = String(i).padStart(5, "0");
    const rate = rates[i % rates.length];
    return { id: `sub_retbench_${n}`, name: `Return Bench ${n}`, rate, status: rate === 0 ? "gross" : rate === 30 ? "higher" : "standard" };
  });
  for (let i = 0; i < subs.length; i += 100) {
    const rows = subs
      .slice(i, i + 100)
      .map((s) =>
        [s.id, TENANT, "company", s.name, s.name.toLowerCase(), `******${s.id.slice(-4)}`, s.status, s.rate, `V${s.id.slice(-10).padStart(10, "0")}`, now, now]
          .map(q)
          .join(", "),
      );
    out.push(
      `INSERT INTO cis_subcontractors (id, tenant_id, type, name, name_lower, utr_masked, verification_status, verification_rate, verification_reference, created_at, updated_at) VALUES (${rows.join("), (")});`,
    );
  }
  const invoices = Array.from({ length: INVOICES }, (_, i) => {
    const s = subs[i % subs.length];
    const gross = 50_000 + ((i * 7919) % 450_000);
    const materials = Math.floor(gross * (((i * 31) % 50) / 100));
    const labour = gross - materials;
    const cis = Math.round((labour * s.rate) / 100);
    const day = 6 + (i % 28);
    const date = day <= 31 ? `2026-01-${String(day).padStart(2, "0")}` : `2026-02-0${day - 31}`;
    return [
      `inv_retbench_${String(i).padStart(6, "0")}`,
      TENANT,
      `RB-${i}`,
      s.id,
      s.name,
      s.name.toLowerCase(),
      "paid",
      date,
      date,
      MONTH,
      gross,
      materials,
      labour,
      s.rate,
      cis,
      0,
      gross,
      0,
      gross,
      gross - cis,
      (materials / gross) * 100,
      1,
      s.rate,
      `V${s.id.slice(-10).padStart(10, "0")}`,
      now,
      now,
    ];
  });
  for (let i = 0; i < invoices.length; i += 100) {
    const rows = invoices.slice(i, i + 100).map((r) => r.map(q).join(", "));
    out.push(
      `INSERT INTO cis_invoices (id, tenant_id, invoice_number, subcontractor_id, subcontractor_name, subcontractor_name_lower, status, invoice_date, payment_date, tax_month, gross_p, materials_p, labour_p, cis_rate, cis_deduction_p, vat_rate, vat_base_p, vat_amount_p, gross_total_p, net_payment_p, materials_percentage, reverse_charge, verification_rate, verification_reference, created_at, updated_at) VALUES (${rows.join("), (")});`,
    );
  }
  mkdirSync(path.dirname(SQL_FILE), { recursive: true });
  writeFileSync(SQL_FILE, out.join("\n") + "\n");
}

async function signIn() {
  const res = await httpRequest(`${origin}/login`, {
    method: "POST",
    headers: { Origin: origin, "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ email: "admin@acme.test", password: "workspace-demo-2026" }).toString(),
  });
  const cookie = res.setCookies
    .map((c) => c.split(";")[0])
    .filter((c) => !c.endsWith("="))
    .join("; ");
  if (!cookie) throw new Error(`sign-in failed: POST /login answered ${res.status}`);
  return cookie;
}

/** The workerd processes in the process group of the wrangler serving PORT. */
function workerdPids() {
  const procs = readdirSync("/proc").filter((d) => /^\d+$/.test(d));
  const read = (pid, f) => {
    try {
      return readFileSync(`/proc/${pid}/${f}`, "utf8");
    } catch {
      return "";
    }
  };
  const pgrp = (pid) => read(pid, "stat").split(") ")[1]?.split(" ")[2];
  const leader = procs.find((pid) => {
    const cmd = read(pid, "cmdline").split("\0");
    return cmd.includes("dev") && cmd.includes("--port") && cmd.includes(String(PORT)) && cmd.includes(PERSIST_TO);
  });
  if (!leader) return [];
  const group = pgrp(leader);
  return procs.filter((pid) => pgrp(pid) === group && /^Name:\s+workerd/m.test(read(pid, "status")));
}

function resetPeak(pids) {
  for (const pid of pids) {
    try {
      writeFileSync(`/proc/${pid}/clear_refs`, "5");
    } catch {
      // Not allowed on this kernel: the figure is then the process's peak so far.
    }
  }
}

/** The largest of the processes' VmHWM (peak resident) or VmRSS (resident now), in MiB. */
function memMiB(pids, field) {
  let kb = 0;
  for (const pid of pids) {
    const m = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    if (m) kb = Math.max(kb, Number(m[1]));
  }
  return (kb / 1024).toFixed(1);
}
const peakMiB = (pids) => memMiB(pids, "VmHWM");

const d1 = (res) => Number(/d1;desc="D1 queries";dur=(\d+)/.exec(String(res.headers["server-timing"] ?? ""))?.[1] ?? NaN);

async function measure(label, fn, pids) {
  resetPeak(pids);
  const before = memMiB(pids, "VmRSS");
  // The isolate's own heap (used size, uncollected garbage included): what the 128 MB limit is about.
  const heap = await sampleIsolateHeap(INSPECTOR_PORT);
  const heapBefore = heap.lastMb();
  const t0 = performance.now();
  const res = await fn();
  const ms = performance.now() - t0;
  await heap.stop();
  const row = {
    label,
    status: res.status,
    wallMs: Math.round(ms),
    d1Queries: d1(res),
    rssBeforeMiB: before,
    peakRssMiB: peakMiB(pids),
    heapBeforeMiB: Math.round(heapBefore),
    heapPeakMiB: Math.round(heap.peakMb()),
  };
  console.log(
    `${label.padEnd(22)} ${String(res.status).padEnd(4)} ${String(row.wallMs).padStart(6)} ms  ${String(row.d1Queries).padStart(3)} D1 queries  isolate heap ${row.heapBeforeMiB} -> peak ${row.heapPeakMiB} MiB  workerd RSS before ${before} MiB, peak ${row.peakRssMiB} MiB`,
  );
  return row;
}

async function main() {
  console.log(
    `bench-return-compile: ${INVOICES.toLocaleString("en-GB")} paid invoices over ${SUBS.toLocaleString("en-GB")} subcontractors, tax month ${MONTH}`,
  );
  renderSql();
  await Promise.all([BUILD ? buildApp() : Promise.resolve(), freshState(PERSIST_TO)]);
  await run("npx", ["wrangler", "d1", "execute", "DB", "--local", "--persist-to", PERSIST_TO, "--file", SQL_FILE], { label: "bench rows" });
  const server = await serveBuilt({ port: PORT, persistTo: PERSIST_TO, logFile: LOG_FILE, inspectorPort: INSPECTOR_PORT });
  try {
    const cookie = await signIn();
    const pids = workerdPids();
    console.log(`workerd pids: ${pids.join(", ") || "not found (peak memory not measured)"}; baseline peak ${pids.length ? peakMiB(pids) : "?"} MiB`);
    const compile = () =>
      httpRequest(`${origin}/cis/returns?month=${MONTH}`, {
        method: "POST",
        headers: { Cookie: cookie, Origin: origin, "Content-Type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ intent: "compile", month: MONTH }).toString(),
      });
    const results = [];
    for (let i = 0; i < RUNS; i++) {
      const row = await measure(i === 0 ? "compile (first)" : `recompile ${i}`, compile, pids);
      if (row.status !== 302) throw new Error(`compile answered ${row.status}`);
      results.push(row);
      await new Promise((r) => setTimeout(r, 200));
    }
    results.push(await measure("GET /cis/returns", () => httpRequest(`${origin}/cis/returns?month=${MONTH}`, { headers: { Cookie: cookie } }), pids));
    console.log(JSON.stringify({ invoices: INVOICES, subcontractors: SUBS, results }));
  } finally {
    await server.stop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
