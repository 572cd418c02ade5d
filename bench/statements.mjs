// `npm run bench:statements [-- --statements 500 --per-sub 3 --month 2026-10 --no-build --profile --heap]`
//
// One Generate All for --statements subcontractors (500 by default), each with --per-sub paid
// invoices pending a statement in --month, against the built worker under `wrangler dev` (port
// 8788 or BENCH_PORT) with its own migrated and seeded state (.wrangler/bench-state). Prints:
//   - wall time, from the Generate All post to the page saying 'Batch Generation Complete';
//   - CPU time per statement: the CPU the server's process group (wrangler dev and workerd, read
//     from /proc) used during the run, divided by the statements made. Locally this includes the
//     SQLite work of D1 and R2's storage, which in production runs outside the Worker, so it is
//     an upper bound of the Worker's own CPU;
//   - peak memory: the Worker isolate's own V8 heap (sampled through the inspector on port
//     BENCH_PORT + 1000), against the 128 MB a Worker isolate may use; and workerd's resident set
//     (VmHWM), which also holds local D1, R2 and the runtime.
// Then checks the outcome in D1: one statement per subcontractor, each with its PDF key.
// --profile also takes a CPU profile of the isolate during the run (bench-results/statements-*.cpuprofile)
// and prints its top self-time functions; the profiler's own cost makes that run's figures higher.
// Heap at rest: the isolate's heap used after a full collection, before and after the run;
// --heap also takes a heap snapshot at rest and prints what holds it, by constructor.
/* global setInterval, clearInterval */
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import process from "node:process";
import { URLSearchParams } from "node:url";
import { ensureDevVars, run } from "../scripts/setup-local.mjs";
import { sampleIsolateHeap } from "./isolate-heap.mjs";
import { heapAtRest, heapSummaryLines, profileSummary, startIsolateProfile } from "./isolate-profile.mjs";
import { buildApp, freshState, httpRequest, ROOT, serveBuilt, since } from "../tests/e2e/server.mjs";

const PORT = Number(process.env.BENCH_PORT ?? 8788);
const INSPECTOR_PORT = PORT + 1000;
const PERSIST_TO = path.join(".wrangler", "bench-state");
const DATA_SQL = path.join(".wrangler", "bench-statements.sql");
const LOG_FILE = path.join(".wrangler", "bench-statements-wrangler.log");
const TICKS = 100; // USER_HZ: /proc times are in 1/100 s on Linux.
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const tenant = (p) => `http://acme.localhost:${PORT}${p}`;

function parseArgs(argv) {
  const opts = { statements: 500, perSub: 3, month: "2026-10", build: true, profile: false, heap: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = () => {
      const v = argv[++i];
      if (!v) throw new Error(`${a} needs a value`);
      return v;
    };
    if (a === "--statements") opts.statements = Number(value());
    else if (a === "--per-sub") opts.perSub = Number(value());
    else if (a === "--month") opts.month = value();
    else if (a === "--no-build") opts.build = false;
    else if (a === "--profile") opts.profile = true;
    else if (a === "--heap") opts.heap = true;
    else throw new Error(`Unknown argument ${a}`);
  }
  if (!Number.isInteger(opts.statements) || opts.statements < 1) throw new Error("--statements needs a whole number above 0");
  if (!/^\d{4}-(0[1-9]|1[0-2])$/.test(opts.month)) throw new Error("--month needs YYYY-MM");
  return opts;
}

/** The server's processes: wrangler dev's process group, found by the port on its command line. */
function serverPids() {
  const r = spawnSync("ps", ["-eo", "pid=,pgid=,args="], { encoding: "utf8" });
  const lines = (r.stdout ?? "")
    .split("\n")
    .map((l) => /^\s*(\d+)\s+(\d+)\s+(.*)$/.exec(l))
    .filter(Boolean);
  const leader = lines.find((m) => /wrangler(?:\.js)?\s+dev\b/.test(m[3]) && m[3].includes(`--port ${PORT}`));
  if (!leader) throw new Error(`no wrangler dev on port ${PORT}`);
  return lines.filter((m) => m[2] === leader[2]).map((m) => ({ pid: Number(m[1]), workerd: /workerd/.test(m[3]) }));
}

function cpuSeconds(pids) {
  let ticks = 0;
  for (const { pid } of pids) {
    try {
      const raw = readFileSync(`/proc/${pid}/stat`, "utf8");
      const f = raw.slice(raw.lastIndexOf(")") + 2).split(" ");
      ticks += Number(f[11]) + Number(f[12]);
    } catch {
      // Gone.
    }
  }
  return ticks / TICKS;
}

/** kB of a /proc/<pid>/status field (VmRSS, VmHWM) summed over workerd processes. */
function workerdMemoryKb(pids, field) {
  let kb = 0;
  for (const { pid, workerd } of pids) {
    if (!workerd) continue;
    try {
      const m = new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(readFileSync(`/proc/${pid}/status`, "utf8"));
      if (m) kb += Number(m[1]);
    } catch {
      // Gone.
    }
  }
  return kb;
}

/** Heap snapshots of the isolate one after another (2 s apart) until stop(), which resolves the largest live heap seen, in MB. */
function sampleLiveHeap(port) {
  let stopped = false;
  let peak = 0;
  let count = 0;
  const loop = (async () => {
    while (!stopped) {
      const rest = await heapAtRest(port).catch(() => null);
      if (rest?.collected) {
        peak = Math.max(peak, rest.usedMb);
        count += 1;
      }
      await sleep(2000);
    }
  })();
  return {
    count: () => count,
    async stop() {
      stopped = true;
      await loop;
      return peak;
    },
  };
}

async function signIn() {
  const res = await httpRequest(tenant("/login"), {
    method: "POST",
    headers: { Origin: tenant(""), "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ email: "admin@acme.test", password: "workspace-demo-2026" }).toString(),
  });
  const cookie = res.setCookies
    .map((c) => c.split(";")[0])
    .filter((c) => !c.endsWith("="))
    .join("; ");
  if (!cookie) throw new Error(`sign-in answered ${res.status} without a cookie`);
  return cookie;
}

function d1(command) {
  const r = spawnSync(
    "npx",
    ["wrangler", "d1", "execute", "DB", "--local", "-c", "wrangler.toml", "--persist-to", PERSIST_TO, "--json", "--command", command],
    { encoding: "utf8", env: { ...process.env, CI: "true", WRANGLER_SEND_METRICS: "false" } },
  );
  if (r.status !== 0) throw new Error(`wrangler d1 execute failed: ${r.stderr}`);
  return JSON.parse(r.stdout)[0].results;
}

// eslint-disable-next-line max-lines-per-function -- a bench script owned by the capacity work in parallel
async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const hardStop = setTimeout(() => {
    console.error("[bench:statements] gave up after 15 minutes");
    process.exit(2);
  }, 900_000);
  hardStop.unref();
  ensureDevVars();
  const t0 = Date.now();
  const dataArgs = [
    "tsx",
    "scripts/bench-data.ts",
    "--count",
    String(Math.ceil(opts.statements * 1.05) + 10),
    "--statement-month",
    opts.month,
    "--statements",
    String(opts.statements),
    "--per-sub",
    String(opts.perSub),
    "--out",
    DATA_SQL,
    "--persist-to",
    PERSIST_TO,
  ];
  await (opts.build ? buildApp() : Promise.resolve());
  await freshState(PERSIST_TO);
  await run("npx", dataArgs, { label: "bench-data" });
  console.log(`[bench:statements] ${opts.build ? "built, " : ""}seeded ${opts.statements} subcontractors x ${opts.perSub} invoices in ${since(t0)}`);

  const server = await serveBuilt({ port: PORT, persistTo: PERSIST_TO, logFile: LOG_FILE, inspectorPort: INSPECTOR_PORT });
  try {
    const cookie = await signIn();
    const page = `/cis/statements?month=${opts.month}`;
    // Warm the worker (first requests compile its code) and read the idle figures.
    for (let i = 0; i < 3; i++) await httpRequest(tenant(page), { headers: { Cookie: cookie } });
    const pids = serverPids();
    const idleRssKb = workerdMemoryKb(pids, "VmRSS");
    const restBefore = await heapAtRest(INSPECTOR_PORT, { summary: opts.heap });
    const cpu0 = cpuSeconds(pids);
    let peakRssKb = idleRssKb;
    // The inspector serves one client at a time: a profiled run does not sample the heap, and a
    // --heap run samples what is live instead (a snapshot every 2 s, each after a full collection).
    const heap = opts.profile || opts.heap ? null : await sampleIsolateHeap(INSPECTOR_PORT);
    const live = opts.heap ? sampleLiveHeap(INSPECTOR_PORT) : null;
    const idleHeapMb = heap?.lastMb() ?? 0;
    const sampler = setInterval(() => (peakRssKb = Math.max(peakRssKb, workerdMemoryKb(pids, "VmRSS"))), 100);

    // Generate All is acted on once per submission key: the page's form carries one.
    const html = (await httpRequest(tenant(page), { headers: { Cookie: cookie } })).body;
    const form = /value="generate-all"[\s\S]*?<\/form>/.exec(html)?.[0] ?? "";
    const key = /name="submissionKey"[^>]*value="([^"]+)"|value="([^"]+)"[^>]*name="submissionKey"/.exec(form);
    const profiler = opts.profile ? await startIsolateProfile(INSPECTOR_PORT) : null;
    const start = Date.now();
    const post = await httpRequest(tenant(page), {
      method: "POST",
      headers: { Cookie: cookie, Origin: tenant(""), "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ intent: "generate-all", month: opts.month, filter: "all", ...(key ? { submissionKey: key[1] ?? key[2] } : {}) }).toString(),
    });
    // The outcome shows on the address the action redirects to, which names the job.
    const location = post.headers.location;
    if ((post.status !== 302 && post.status !== 303) || !location) throw new Error(`Generate All answered ${post.status}, expected a redirect to its job`);
    const jobPage = new URL(location, tenant("/")).pathname + new URL(location, tenant("/")).search;
    let body = "";
    // Each look at the job page renders the month's statements (its own CPU, counted with the rest):
    // a look every 2 s keeps that a small share of a run, whatever the run's length.
    let polls = 0;
    for (;;) {
      polls += 1;
      // The page waits while a slice holds the isolate: a slow answer is asked again, not a failure.
      body = await httpRequest(tenant(jobPage), { headers: { Cookie: cookie } }).then(
        (r) => r.body,
        (err) => (/timed out/.test(String(err?.message)) ? "" : Promise.reject(err)),
      );
      if (body.includes("Batch Generation Complete")) break;
      if (Date.now() - start > 600_000) throw new Error("Generate All did not complete within 10 minutes");
      await sleep(2000);
    }
    const wallMs = Date.now() - start;
    clearInterval(sampler);
    const profile = profiler ? await profiler.stop() : null;
    await heap?.stop();
    const livePeakMb = await live?.stop();
    const cpu = cpuSeconds(pids) - cpu0;
    const restAfter = await heapAtRest(INSPECTOR_PORT);
    const hwmKb = workerdMemoryKb(pids, "VmHWM");

    const [made] = d1(
      `SELECT count(*) AS n, sum(pdf_key IS NOT NULL) AS pdfs FROM cis_statements WHERE tenant_id = 'tnt_acme' AND tax_month = '${opts.month}'`,
    );
    const [job] = d1(`SELECT result FROM jobs WHERE tenant_id = 'tnt_acme' AND type = 'statements.generate-all' ORDER BY created_at DESC LIMIT 1`);
    console.log(`\n[bench:statements] job result: ${job?.result}`);
    // The demo seed's own subcontractors with pending invoices are generated too.
    // Archived or deleted bench subcontractors get none: fewer than asked is reported, not fatal.
    if (made.n === 0) throw new Error("no statement was made");
    if (made.n < opts.statements) console.log(`[bench:statements] ${made.n} statements made for the ${opts.statements} subcontractors asked for`);

    const perStatementMs = (cpu * 1000) / made.n;
    const lines = [
      `## Generate All: ${made.n} statements (${opts.perSub} invoices each), ${made.pdfs} PDFs stored`,
      "",
      `- Wall time: ${(wallMs / 1000).toFixed(1)} s (${(wallMs / made.n).toFixed(1)} ms per statement), from the post to 'Batch Generation Complete'`,
      `- CPU: ${cpu.toFixed(1)} s for the server's processes, ${perStatementMs.toFixed(1)} ms per statement (includes local D1/R2 work and ${polls} looks at the job page)`,
      heap
        ? `- Worker isolate heap (V8 used size through the inspector every 50 ms, uncollected garbage included, so an upper bound): ${idleHeapMb.toFixed(1)} MB idle, peak ${heap.peakMb().toFixed(1)} MB (+${(heap.peakMb() - idleHeapMb).toFixed(1)} MB over idle: what Generate All adds), ${heap.lastMb().toFixed(1)} MB after the run, against the 128 MB limit`
        : "- Worker isolate heap used: not sampled in a profiled or --heap run",
      live
        ? `- Worker isolate heap live during the run (used just after the full collection of a heap snapshot, one every 2 s; the snapshots' own CPU is in the CPU figure): peak ${livePeakMb.toFixed(1)} MB of ${live.count()} snapshots`
        : "- Worker isolate heap live during the run: --heap measures it",
      `- Worker isolate heap at rest: ${restBefore.usedMb.toFixed(1)} MB before the run, ${restAfter.usedMb.toFixed(1)} MB after it${restBefore.collected ? " (each after the full collection of a heap snapshot)" : " (garbage included)"}`,
      `- Memory: workerd resident ${(idleRssKb / 1024).toFixed(0)} MB idle, peak ${(peakRssKb / 1024).toFixed(0)} MB during the run (+${((peakRssKb - idleRssKb) / 1024).toFixed(0)} MB), high-water mark ${(hwmKb / 1024).toFixed(0)} MB`,
      `- Machine: ${os.availableParallelism()} CPUs, load average ${os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(" ")}`,
    ];
    if (restBefore.summary) lines.push("", ...heapSummaryLines("Heap at rest before the run", restBefore));
    if (profile) {
      mkdirSync(path.join(ROOT, "bench-results"), { recursive: true });
      const file = path.join("bench-results", `statements-${new Date().toISOString().replace(/[:.]/g, "-")}.cpuprofile`);
      lines.push("", ...profileSummary(profile, path.join(ROOT, file), 20));
    } else if (opts.profile) lines.push("", "(the inspector returned no profile)");
    console.log(`\n${lines.join("\n")}`);
  } finally {
    await server.stop();
  }
}

main().catch((err) => {
  console.error(`[bench:statements] ${err instanceof Error ? err.stack : String(err)}`);
  process.exit(1);
});
