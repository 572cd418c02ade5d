// `npm run bench [-- --duration 10 --threads 2 --connections 50 --warmup 2 --adjacent 4 --no-build --rows 5000 --invoices 50000 --only <text>[,<text>…] --profile]`
//
// Builds the app, serves the built worker with `wrangler dev` (port 8788, or BENCH_PORT) against
// its own migrated and seeded state (.wrangler/bench-state, never the developer's .wrangler/state),
// and measures each case in CASES on loopback with wrk when it is installed, else with autocannon
// (a devDependency, run in this process): requests/s and p50/p95/p99 latency. The
// bare /healthz (no router, no D1) is measured in the same run so pages can be compared with it:
// absolute figures drift between runs and machines, the ratio much less.
//
// The subcontractor-list cases run against one tenant (acme) holding --rows extra subcontractors
// (scripts/bench-data.ts: 5,000 by default, written with the seed's encryption and hashes). Each
// list response is checked: at most one page (25) of rows in the HTML, loader data included, and
// the D1 queries per request (Server-Timing) must be the same as with only the 25 seeded rows,
// which the bench measures first, before loading the bench rows.
//
// The invoice-list cases (/cis/invoices: unfiltered, paid + a search term, page 100) run against the
// same tenant holding --invoices bench invoices (50,000 by default, scripts/bench-data.ts, spread
// over the bench subcontractors and three years), checked the same way: at most one page (25) of
// invoice ids anywhere in the HTML, and D1 queries per request the same as with the seed's 120.
// `npx tsx bench/explain-invoices.ts` then prints the query plans and SQLite timings of the list's
// three statements against the state the bench leaves behind.
//
// The CIS dashboard, the statements page, the returns page, the files list and the public home page (cookieless: a page
// a shared cache may keep, with its inline scripts' hashes in its CSP) are measured too. A case may have a budget:
// the least share of /healthz's req/s it must reach in the same run (BUDGETS); the bench ends by
// saying which cases miss theirs, and exits 1 when one does. --only <text>[,<text>…] measures only the
// cases whose name contains the text (and the baseline). --profile takes a CPU profile of the
// isolate during each measured run (through the inspector, port BENCH_PORT + 1000), prints its top
// self-time functions and keeps it in bench-results/ (the profiler's cost lowers that run's figures).
//
// The machine's speed drifts by a quarter within minutes (a shared virtual machine: /healthz alone
// measured 2.2 to 3.1 ms of CPU a request in runs minutes apart), so a page measured minutes after
// the baseline can gain or lose that much against it. Each case is therefore also framed by the
// baseline: --adjacent seconds of /healthz just before and just after its measured run (4 by
// default; 0 leaves them out), and its budget is judged on the CPU ratio to the mean of those two.
//
// Also samples the machine's CPU (/proc) during each case, split into this bench's server, the load
// generator (wrk, or this script when autocannon runs in it) and everything else, because the
// bench usually shares two cores with other work. Writes bench-results/<time>.json and ends with
// a Markdown summary for an issue note.
/* global setInterval, clearInterval */
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import process from "node:process";
import { URLSearchParams } from "node:url";
import { ensureDevVars, run } from "../scripts/setup-local.mjs";
import { profileSummary, startIsolateProfile } from "./isolate-profile.mjs";
import { buildApp, freshState, settleAll, httpRequest, ROOT, serveBuilt, since } from "../tests/e2e/server.mjs";

// 8788, not wrangler's 8787: the end-to-end tests serve on 8787 and may run at the same time.
const PORT = Number(process.env.BENCH_PORT ?? 8788);
const PERSIST_TO = path.join(".wrangler", "bench-state");
const BENCH_SQL = path.join(".wrangler", "bench-subcontractors.sql");
const LOG_FILE = path.join(ROOT, ".wrangler", "bench-wrangler.log");
const PAGE_SIZE = 25;
const bare = (p) => `http://localhost:${PORT}${p}`;
const tenant = (slug, p) => `http://${slug}.localhost:${PORT}${p}`;

/**
 * Signs in through the real form post (same-origin Origin header, as a browser sends it)
 * and returns the Cookie header to send, or null with the reason when that is not possible
 * (no sign-in page yet, a code step, throttling...). Success is judged by the page, not the
 * response: /welcome must answer 200 with the cookie.
 */
async function signIn(slug, email, password) {
  const origin = tenant(slug, "");
  const res = await httpRequest(tenant(slug, "/login"), {
    method: "POST",
    headers: { Origin: origin, "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ email, password }).toString(),
  });
  const cookie = res.setCookies
    .map((c) => c.split(";")[0])
    .filter((c) => !c.endsWith("="))
    .join("; ");
  if (!cookie) return { cookie: null, reason: `POST /login answered ${res.status} without a cookie` };
  const check = await httpRequest(tenant(slug, "/welcome"), { headers: { Cookie: cookie } });
  if (check.status !== 200)
    return {
      cookie: null,
      reason: `POST /login answered ${res.status}${res.headers.location ? ` -> ${res.headers.location}` : ""}; /welcome with its cookie answered ${check.status}`,
    };
  return { cookie, reason: null };
}

let session = null;
/** The admin's cookie, signed in once per server (throws when sign-in does not work). */
async function adminCookie() {
  if (!session) {
    session = await signIn("acme", "admin@acme.test", "workspace-demo-2026");
    if (!session.cookie) throw new Error(`cannot sign in as admin@acme.test: ${session.reason}`);
  }
  return session.cookie;
}

/**
 * What the subcontractor list answered: rows rendered (data-row), distinct subcontractor ids
 * anywhere in the HTML (the hydration data included, so a loader returning every row would show),
 * and the total the page reports.
 */
const SUB_IDS = /\bsub_(?:acme|bench)_\d+/g;
const INVOICE_IDS = /\binv_(?:acme|bench)_\d+/g;

function listPageFacts(body, idPattern = SUB_IDS) {
  const rows = (body.match(/\bdata-row="/g) ?? []).length;
  const ids = new Set(body.match(idPattern) ?? []).size;
  // A search counts its matches only as far as the pager reaches: "More than 100 items" is a lower bound.
  const m = /data-item-count[^>]*>(?:More than )?([\d,]+) items?</.exec(body);
  return { rows, ids, total: m ? Number(m[1].replace(/,/g, "")) : null };
}

/**
 * A list page to measure. `kind` "subcontractors" (the rows counted against --rows) or "invoices"
 * (against --invoices); the invoice list's item count is optional (its page is another change's),
 * so there the distinct invoice ids in the HTML are what is checked.
 */
function listCase(name, search, { minTotal = 1, kind = "subcontractors" } = {}) {
  const invoices = kind === "invoices";
  return {
    name,
    list: true,
    kind,
    async target() {
      return {
        url: tenant("acme", `/cis/${kind}${search}`),
        headers: { Cookie: await adminCookie() },
        expectStatus: 200,
        note: "signed in as admin@acme.test",
      };
    },
    /** Throws unless the page holds at most one page of rows; `big` (the bench rows' count of this kind) once they are in. */
    check(body, sizes) {
      const big = invoices ? sizes.invoices : sizes.big;
      const f = listPageFacts(body, invoices ? INVOICE_IDS : SUB_IDS);
      if (f.total == null && !invoices) throw new Error(`${name}: no item count on the page (an error page?)`);
      if (f.rows > PAGE_SIZE || f.ids > PAGE_SIZE)
        throw new Error(`${name}: the page holds ${f.rows} rows and ${f.ids} distinct ${kind} ids: more than one page (${PAGE_SIZE})`);
      const min = typeof minTotal === "function" ? minTotal(big) : minTotal;
      if (f.total != null && big >= 1000 && f.total < min)
        throw new Error(`${name}: the page reports ${f.total} items, expected at least ${min}: are the bench rows loaded?`);
      const shown = invoices ? f.ids : f.rows;
      if (invoices && big >= 1000 && shown === 0) throw new Error(`${name}: no invoice on the page: are the bench invoices loaded?`);
      if (big && f.total != null && shown !== Math.min(PAGE_SIZE, Math.max(0, f.total - PAGE_SIZE * (pageOf(search) - 1))))
        throw new Error(`${name}: ${shown} rows rendered for ${f.total} items`);
      return f;
    },
  };
}
const pageOf = (search) => Number(new URLSearchParams(search).get("page") ?? "1");

/**
 * What to measure. target() runs once the server is up and returns the request to repeat;
 * expectStatus guards against benchmarking an error page by mistake. Exactly one case is the
 * baseline the others are compared with.
 */
const CASES = [
  {
    name: "bare worker /healthz",
    baseline: true,
    async target() {
      return { url: bare("/healthz"), headers: {}, expectStatus: 200, note: "no router, no D1" };
    },
  },
  {
    name: "welcome page",
    async target() {
      return { url: tenant("acme", "/welcome"), headers: { Cookie: await adminCookie() }, expectStatus: 200, note: "signed in as admin@acme.test" };
    },
  },
  // The bench rows are ~90% active, ~33% companies: page 3 of active companies is well inside the set.
  // Soft-deleted rows (~1%) are not listed: ~99% of --rows plus the seed's 22 live ones.
  listCase("subcontractors list", "", { minTotal: (rows) => Math.floor(rows * 0.95) }),
  listCase("list filtered p3", "?status=active&type=company&page=3", { minTotal: 3 * PAGE_SIZE }),
  // A trade in company and partnership names (and their e-mail domains): a few hundred matches, a LIKE '%...%' scan.
  listCase("list search", "?q=roofing", { minTotal: PAGE_SIZE + 1 }),
  // The invoice list: newest first; ~60% of the bench invoices are paid, ~2% are for "roofing" firms.
  listCase("invoice list", "", { kind: "invoices", minTotal: (n) => Math.floor(n * 0.95) }),
  listCase("invoices paid + search", "?status=paid&q=roofing", { kind: "invoices", minTotal: PAGE_SIZE + 1 }),
  listCase("invoices page 100", "?page=100", { kind: "invoices", minTotal: 100 * PAGE_SIZE }),
  // One invoice number (the bench numbers run B-000001…): the rare term a LIKE reads every invoice for (ADR 0081).
  listCase("invoice number search", "?q=b-012345", { kind: "invoices" }),
  // The CIS dashboard: every CIS user's landing page (cards, deadlines, overdue returns, activity).
  pageCase("cis dashboard", "/cis"),
  pageCase("statements page", "/cis/statements"),
  pageCase("returns page", "/cis/returns"),
  pageCase("files list", "/files/all"),
  // The public site's home page for a cookieless visitor: a page a shared cache may keep, rendered
  // whole without a nonce, its inline scripts allowed by their hashes (no budget: not a list).
  {
    name: "public home page",
    async target() {
      return { url: bare("/"), headers: {}, expectStatus: 200, note: "no cookie: cacheable, script hashes in its CSP" };
    },
  },
];

/** A signed-in page of acme to measure, answered 200. */
function pageCase(name, p) {
  return {
    name,
    async target() {
      return { url: tenant("acme", p), headers: { Cookie: await adminCookie() }, expectStatus: 200, note: "signed in as admin@acme.test" };
    },
  };
}

/**
 * Each case's budget: the least share of the baseline's req/s it must reach in the same run, and
 * for the lists the most their p95 may take at 50 connections.
 */
const BUDGETS = {
  "welcome page": { ratio: 0.35 },
  "subcontractors list": { ratio: 0.25, p95Ms: 600 },
  "list filtered p3": { ratio: 0.25, p95Ms: 600 },
  "list search": { ratio: 0.25, p95Ms: 600 },
  "invoice list": { ratio: 0.25, p95Ms: 600 },
  "invoices paid + search": { ratio: 0.25, p95Ms: 600 },
  "invoices page 100": { ratio: 0.25, p95Ms: 600 },
  "invoice number search": { ratio: 0.25, p95Ms: 600 },
  "cis dashboard": { ratio: 0.25 },
  "statements page": { ratio: 0.25 },
  "returns page": { ratio: 0.25 },
  "files list": { ratio: 0.25 },
};
const INSPECTOR_PORT = PORT + 1000;

function parseArgs(argv) {
  const opts = { duration: 10, threads: 2, connections: 50, warmup: 2, adjacent: 4, build: true, rows: 5000, invoices: 50_000, only: null, profile: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const num = () => {
      const n = Number(argv[++i]);
      if (!Number.isFinite(n) || n < 0) throw new Error(`${a} needs a number`);
      return n;
    };
    if (a === "--duration") opts.duration = num();
    else if (a === "--threads") opts.threads = num();
    else if (a === "--connections") opts.connections = num();
    else if (a === "--warmup") opts.warmup = num();
    else if (a === "--adjacent") opts.adjacent = num();
    else if (a === "--no-build") opts.build = false;
    else if (a === "--rows") opts.rows = num();
    else if (a === "--invoices") opts.invoices = num();
    else if (a === "--only") opts.only = String(argv[++i] ?? "");
    else if (a === "--profile") opts.profile = true;
    else throw new Error(`Unknown option ${a}`);
  }
  return opts;
}

/**
 * The load generator: wrk when it is on PATH, else autocannon in this process, so the bench needs
 * no system package. Both report the same figures; compare runs made with the same one.
 */
function loadGenerator(opts) {
  const hasWrk = spawnSync("wrk", ["--version"], { stdio: "ignore" }).error == null;
  return hasWrk
    ? { name: "wrk", describe: `wrk -t${opts.threads} -c${opts.connections} -d${opts.duration}s`, run: (target, o, onSpawn) => wrk(target, o, onSpawn) }
    : {
        name: "autocannon",
        // autocannon drives every connection from one thread: --threads is wrk's alone.
        describe: `autocannon -c${opts.connections} -d${opts.duration}s (wrk is not installed)`,
        run: (target, o) => autocannonRun(target, o),
      };
}

/** Connect to 127.0.0.1 and name the host in the header: getaddrinfo cannot resolve *.localhost here. */
function loopback(target) {
  const u = new URL(target.url);
  return { url: `http://127.0.0.1:${u.port}${u.pathname}${u.search}`, headers: { Host: u.host, ...target.headers } };
}

/** Runs wrk against `target` for `seconds`; resolves the figures from bench/report.lua. */
function wrk(target, { seconds, threads, connections }, onSpawn = () => {}) {
  const { url, headers } = loopback(target);
  const args = [
    `-t${threads}`,
    `-c${connections}`,
    `-d${seconds}s`,
    "--timeout",
    "5s",
    "-s",
    path.join(ROOT, "bench", "report.lua"),
    ...Object.entries(headers).flatMap(([k, v]) => ["-H", `${k}: ${v}`]),
    url,
  ];
  return new Promise((resolve, reject) => {
    const child = spawn("wrk", args, { stdio: ["ignore", "pipe", "pipe"] });
    onSpawn(child.pid);
    let out = "";
    child.stdout.on("data", (c) => (out += c));
    child.stderr.on("data", (c) => (out += c));
    // wrk stops itself after -d; this only guards against a wedged wrk.
    const guard = setTimeout(() => child.kill("SIGKILL"), (seconds + 20) * 1000);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(guard);
      const line = out.split("\n").find((l) => l.startsWith("BENCH_RESULT "));
      if (code !== 0 || !line) return reject(new Error(`wrk failed (exit ${code}):\n${out}`));
      const f = Object.fromEntries(
        line
          .slice("BENCH_RESULT ".length)
          .trim()
          .split(/\s+/)
          .map((kv) => kv.split("="))
          .map(([k, v]) => [k, Number(v)]),
      );
      resolve({
        requests: f.requests,
        seconds: f.duration_us / 1e6,
        rps: f.requests / (f.duration_us / 1e6),
        p50Ms: f.p50_us / 1000,
        p95Ms: f.p95_us / 1000,
        p99Ms: f.p99_us / 1000,
        maxMs: f.max_us / 1000,
        // wrk counts responses outside 2xx/3xx as status errors.
        errors: { connect: f.connect, read: f.read, write: f.write, status: f.status, timeout: f.timeout },
      });
    });
  });
}

/** The `q` quantile (0..1) of ascending `sorted`, nearest rank. */
const quantile = (sorted, q) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] : 0);

/**
 * The same measurement with autocannon. Its summary has no p95, so every response time is kept
 * (from its `response` event) and the percentiles are taken from those.
 */
async function autocannonRun(target, { seconds, connections }) {
  const { default: autocannon } = await import("autocannon");
  const { url, headers } = loopback(target);
  const times = [];
  let status = 0;
  const t0 = process.hrtime.bigint();
  const result = await new Promise((resolve, reject) => {
    const instance = autocannon({ url, headers, connections, duration: seconds, timeout: 5 }, (err, res) => (err ? reject(err) : resolve(res)));
    instance.on("response", (_client, statusCode, _bytes, responseTime) => {
      times.push(responseTime);
      // As wrk counts them: any answer outside 2xx/3xx is a status error.
      if (statusCode < 200 || statusCode > 399) status++;
    });
  });
  const elapsed = Number(process.hrtime.bigint() - t0) / 1e9;
  times.sort((a, b) => a - b);
  return {
    requests: times.length,
    seconds: elapsed,
    rps: times.length / elapsed,
    p50Ms: quantile(times, 0.5),
    p95Ms: quantile(times, 0.95),
    p99Ms: quantile(times, 0.99),
    maxMs: times.length ? times[times.length - 1] : 0,
    // autocannon reports socket errors as one count (timeouts included): they go under connect.
    errors: { connect: Math.max(0, result.errors - result.timeouts), read: 0, write: 0, status, timeout: result.timeouts },
  };
}

// ---------------------------------------------------------------------------------------------
// Machine load: who used the CPU while a case ran. Reads /proc once a second; Linux only (elsewhere
// the sampler reports nothing). Processes are attributed to this bench's server (its wrangler +
// workerd process group), wrk, this script (which runs autocannon), or "others" (grouped by command name).

const CLK_TCK = 100; // USER_HZ: 100 on every Linux this runs on.

function procTimes() {
  const out = new Map();
  let names;
  try {
    names = readdirSync("/proc").filter((n) => /^\d+$/.test(n));
  } catch {
    return out;
  }
  for (const n of names) {
    try {
      const raw = readFileSync(`/proc/${n}/stat`, "utf8");
      const close = raw.lastIndexOf(")");
      const comm = raw.slice(raw.indexOf("(") + 1, close);
      const f = raw.slice(close + 2).split(" ");
      // After the comm: state(0) ppid(1) pgrp(2) ... utime(11) stime(12) ... starttime(19).
      out.set(Number(n), { comm: comm.replace(/[-/].*$/, ""), pgrp: Number(f[2]), start: f[19], ticks: Number(f[11]) + Number(f[12]) });
    } catch {
      // Gone between readdir and read.
    }
  }
  return out;
}

function cpuTotals() {
  try {
    const f = readFileSync("/proc/stat", "utf8").split("\n")[0].trim().split(/\s+/).slice(1).map(Number);
    const idle = f[3] + (f[4] ?? 0);
    return { total: f.reduce((a, b) => a + b, 0), idle };
  } catch {
    return null;
  }
}

/** Finds the process group of the bench's `wrangler dev --port PORT`. */
function serverGroup(port) {
  const r = spawnSync("ps", ["-eo", "pgid=,args="], { encoding: "utf8" });
  for (const line of (r.stdout ?? "").split("\n")) {
    const m = /^\s*(\d+)\s+(.*)$/.exec(line);
    if (m && /wrangler(?:\.js)?\s+dev\b/.test(m[2]) && m[2].includes(`--port ${port}`)) return Number(m[1]);
  }
  return null;
}

const names = new Map();
/** Node names its main thread "MainThread": name such processes by the script they run. */
function otherName(pid, comm) {
  if (comm !== "MainThread" && comm !== "node") return comm;
  const key = `${pid}`;
  if (!names.has(key)) {
    let name = "node";
    try {
      const args = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").filter(Boolean);
      const script = args.slice(1).find((a) => !a.startsWith("-"));
      if (script) name = `node ${path.basename(script)}${args.includes("test:e2e") || script.includes("e2e") ? " (e2e)" : ""}`;
    } catch {
      // Gone.
    }
    names.set(key, name);
  }
  return names.get(key);
}

function cpuSampler({ serverPgid }) {
  const first = cpuTotals();
  if (!first) return { setWrk() {}, stop: () => null };
  let wrkPid = null;
  const acc = { server: 0, wrk: 0, bench: 0 };
  const serverBy = new Map();
  const others = new Map();
  let prev = procTimes();
  const attribute = (pid, p) => (p.pgrp === serverPgid ? "server" : pid === wrkPid ? "wrk" : pid === process.pid ? "bench" : null);
  const sample = () => {
    const now = procTimes();
    for (const [pid, p] of now) {
      const before = prev.get(pid);
      // A process new since the last sample (or a reused pid) started within it: all its time counts.
      const d = before && before.start === p.start ? p.ticks - before.ticks : p.ticks;
      if (d <= 0) continue;
      const who = attribute(pid, p);
      if (who) acc[who] += d;
      if (who === "server") serverBy.set(p.comm, (serverBy.get(p.comm) ?? 0) + d);
      else {
        const name = otherName(pid, p.comm);
        others.set(name, (others.get(name) ?? 0) + d);
      }
    }
    prev = now;
  };
  const timer = setInterval(sample, 1000);
  const t0 = Date.now();
  return {
    setWrk(pid) {
      wrkPid = pid;
    },
    stop() {
      clearInterval(timer);
      sample();
      const last = cpuTotals();
      const seconds = (Date.now() - t0) / 1000;
      const cores = (ticks) => ticks / CLK_TCK / seconds;
      // /proc/stat counts every CPU's ticks: busy cores = busy share x CPU count.
      const busy = (1 - (last.idle - first.idle) / (last.total - first.total)) * os.availableParallelism();
      const top = [...others.entries()]
        .sort((a, b) => b[1] - a[1])
        .slice(0, 4)
        .filter(([, t]) => cores(t) >= 0.02)
        .map(([comm, t]) => `${comm} ${cores(t).toFixed(2)}`);
      const othersCores = [...others.values()].reduce((a, b) => a + b, 0);
      const serverSplit = [...serverBy.entries()].sort((a, b) => b[1] - a[1]).map(([comm, t]) => `${comm} ${cores(t).toFixed(2)}`);
      return {
        busyCores: busy,
        serverCores: cores(acc.server),
        serverSplit,
        wrkCores: cores(acc.wrk + acc.bench),
        othersCores: cores(othersCores),
        othersTop: top,
        loadAfter: os.loadavg()[0],
      };
    },
  };
}

/** Other people's test activity worth naming next to the figures (browser, vitest, other wrangler/workerd). */
function otherActivity(ownPgid) {
  const r = spawnSync("ps", ["-eo", "pgid=,comm=,args="], { encoding: "utf8" });
  const counts = {};
  for (const line of (r.stdout ?? "").split("\n")) {
    const m = /^\s*(\d+)\s+(\S+)\s+(.*)$/.exec(line);
    if (!m || Number(m[1]) === ownPgid || Number(m[1]) === process.pid) continue;
    const kind = /chrom/i.test(m[2])
      ? "chromium"
      : /\bvitest\b/.test(m[3])
        ? "vitest"
        : m[2] === "workerd"
          ? "workerd"
          : /wrangler(?:\.js)?\s+dev\b/.test(m[3])
            ? "wrangler dev"
            : null;
    if (kind) counts[kind] = (counts[kind] ?? 0) + 1;
  }
  return (
    Object.entries(counts)
      .map(([k, n]) => `${k} x${n}`)
      .join(", ") || "none seen"
  );
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * Two `wrangler dev` started in the same second collide on a socket. Waits (up to 20 s) until no
 * other wrangler dev or workerd process is younger than 3 s, then returns.
 */
async function waitForQuietStart() {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const r = spawnSync("ps", ["-eo", "etimes=,comm=,args="], { encoding: "utf8" });
    const young = (r.stdout ?? "").split("\n").some((line) => {
      const m = /^\s*(\d+)\s+(\S+)\s+(.*)$/.exec(line);
      return m && Number(m[1]) < 3 && (m[2] === "workerd" || /wrangler(?:\.js)?\s+dev\b/.test(m[3]));
    });
    if (!young || Date.now() > deadline) return;
    await sleep(500);
  }
}

async function startServer({ inspect = false } = {}) {
  await waitForQuietStart();
  session = null;
  return serveBuilt({ port: PORT, persistTo: PERSIST_TO, logFile: LOG_FILE, ...(inspect ? { inspectorPort: INSPECTOR_PORT } : {}) });
}

/**
 * A request that may meet a cold server (the first read of a large table, a busy machine): a
 * time-out is tried again, twice, before it counts as a failure.
 */
async function patientRequest(url, init) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await httpRequest(url, init);
    } catch (err) {
      if (attempt >= 3 || !/timed out/.test(String(err?.message))) throw err;
    }
  }
}

/** Median and max of `n` requests one after another: the page's own service time, without queueing. */
async function serialLatency(target, n = 20) {
  // A few first: the first requests after a start pay for compiling the worker's code.
  for (let i = 0; i < 5; i++) await patientRequest(target.url, { headers: target.headers });
  const times = [];
  for (let i = 0; i < n; i++) {
    const t = process.hrtime.bigint();
    await httpRequest(target.url, { headers: target.headers });
    times.push(Number(process.hrtime.bigint() - t) / 1e6);
  }
  times.sort((a, b) => a - b);
  return { n, medianMs: times[Math.floor(n / 2)], maxMs: times[n - 1] };
}

function d1QueriesOf(res) {
  const m = /\bd1;[^,]*\bdur=(\d+)/.exec(String(res.headers["server-timing"] ?? ""));
  return m ? Number(m[1]) : null;
}

/**
 * The bench server's CPU per answered request (ms): the cores it used during the run times the
 * run's length, over the requests answered. Unlike req/s it hardly moves when other work shares
 * the machine, so on a busy machine it is the figure to compare.
 */
const cpuPerRequest = (r) => (r.cpu && r.requests > 0 ? (r.cpu.serverCores * r.seconds * 1000) / r.requests : null);

/**
 * The req/s ratio a case would reach if the server's CPU were the only limit: the baseline's CPU
 * per request over the case's. On a machine other work keeps busy the measured req/s ratio swings
 * with that work; this one hardly does, so a quiet machine is not needed to judge a page's cost.
 */
const cpuRatio = (r, base) => {
  const mine = cpuPerRequest(r);
  const theirs = cpuPerRequest(base);
  return mine && theirs ? theirs / mine : null;
};

/** The CPU ratio to the baseline measured just before and after the case (its mean CPU per request), when it was. */
const adjacentRatio = (r) => {
  const mine = cpuPerRequest(r);
  return mine && r.adjacentBaseCpuMs ? r.adjacentBaseCpuMs / mine : null;
};

/**
 * A case against its budget. The share of the baseline is judged on the CPU ratio when the CPU was
 * sampled (else on req/s). p95 depends on queueing behind other work, so it is judged only when other
 * processes left the server at least three quarters of the machine; otherwise it is shown, not judged.
 */
function budgetVerdict(r, base, budget, cpus) {
  const measured = r.rps / base.rps;
  const byCpu = cpuRatio(r, base);
  const adjacent = adjacentRatio(r);
  const ratio = adjacent ?? byCpu ?? measured;
  const quiet = !r.cpu || r.cpu.othersCores <= cpus * 0.25;
  const slow = budget.p95Ms != null && quiet && r.p95Ms > budget.p95Ms;
  const p95 = budget.p95Ms != null ? `, p95 ${r.p95Ms.toFixed(0)} ms (at most ${budget.p95Ms}${quiet ? "" : "; not judged: other work held the machine"})` : "";
  const framed = adjacent == null ? "" : `${adjacent.toFixed(3)} x the healthz around it by CPU ms/request (needs ${budget.ratio}); `;
  const text = `${framed}${byCpu == null ? "n/a" : byCpu.toFixed(3)} x the run's first healthz by CPU${adjacent == null ? ` (needs ${budget.ratio})` : ""}; ${measured.toFixed(3)} x by req/s in this run${p95}`;
  return { miss: ratio < budget.ratio || slow, text };
}

const fmt = (n, digits = 1) => n.toFixed(digits).padStart(8);
const cores = (n) => (n == null ? "n/a" : n.toFixed(2));

// eslint-disable-next-line max-lines-per-function -- a bench script owned by the capacity work in parallel
async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const tAll = Date.now();
  // Everything below is bounded (the load generator's duration, timeouts), but never let a bench hang a CI box.
  const hardStop = setTimeout(() => {
    console.error("[bench] gave up after 20 minutes");
    process.exit(2);
  }, 1_200_000);
  hardStop.unref();

  const gen = loadGenerator(opts);
  // --only "a,b": the cases whose name contains any of the comma-separated texts.
  const only = opts.only
    ? opts.only
        .split(",")
        .map((o) => o.trim())
        .filter(Boolean)
    : [];
  const cases = CASES.filter((c) => c.baseline || only.length === 0 || only.some((o) => c.name.includes(o)));
  ensureDevVars();
  const cpus = os.availableParallelism();
  const loadStart = os.loadavg();
  const activityStart = otherActivity(null);
  console.log(`[bench] ${cpus} CPUs, load average ${loadStart.map((l) => l.toFixed(2)).join(" ")}; other activity: ${activityStart}`);
  let server = null;
  const results = [];
  const small = {};
  let data = null;
  try {
    const t0 = Date.now();
    const dataArgs = ["tsx", "scripts/bench-data.ts", "--count", String(opts.rows), "--invoices", String(opts.invoices), "--out", BENCH_SQL];
    const renderData = run("npx", dataArgs, { label: "scripts/bench-data.ts" }).then((out) => {
      const line = out.split("\n").find((l) => l.startsWith("BENCH_DATA "));
      data = JSON.parse(line.slice("BENCH_DATA ".length));
    });
    await settleAll([opts.build ? buildApp() : Promise.resolve(), freshState(PERSIST_TO), renderData]);
    console.log(
      `[bench] ${opts.build ? "built, " : ""}migrated + seeded ${PERSIST_TO} and rendered ${data.rows} bench subcontractors and ${data.invoices} invoices in ${since(t0)}`,
    );

    // First with only the seed's subcontractors: the D1 queries of each list page at that size.
    const t1 = Date.now();
    server = await startServer();
    for (const c of cases.filter((x) => x.list)) {
      const target = await c.target();
      const res = await patientRequest(target.url, { headers: target.headers });
      if (res.status !== target.expectStatus)
        throw new Error(`${c.name} (seed rows only): ${target.url} answered ${res.status}, expected ${target.expectStatus}`);
      small[c.name] = { d1Queries: d1QueriesOf(res), ...c.check(res.body, { big: false, invoices: false }), serial: await serialLatency(target) };
    }
    await server.stop();
    server = null;
    const t2 = Date.now();
    await run("npx", [...dataArgs, "--persist-to", PERSIST_TO], {
      label: "bench-data apply",
    });
    console.log(
      `[bench] list pages probed with the seed's rows (${since(t1)}); ${data.rows} bench subcontractors and ${data.invoices} invoices applied in ${since(t2)}`,
    );

    server = await startServer({ inspect: opts.profile });
    const serverPgid = serverGroup(PORT);
    console.log(`[bench] serving the built worker at ${server.url}; ${gen.describe} per case (after ${opts.warmup}s warm-up)\n`);

    // The baseline around each case (--adjacent): its CPU per request over a short run.
    const baseCase = cases.find((x) => x.baseline);
    const baseTarget = baseCase ? await baseCase.target() : null;
    const baselineCpuMs = async (target) => {
      const sampler = cpuSampler({ serverPgid });
      const r = await gen.run(target, { ...opts, seconds: opts.adjacent }, (pid) => sampler.setWrk(pid));
      return cpuPerRequest({ ...r, cpu: sampler.stop() });
    };

    for (const c of cases) {
      const target = await c.target();
      const [load] = os.loadavg();
      const probe = await patientRequest(target.url, { headers: target.headers });
      if (probe.status !== target.expectStatus) throw new Error(`${c.name}: ${target.url} answered ${probe.status}, expected ${target.expectStatus}`);
      const page = c.check ? c.check(probe.body, { big: opts.rows, invoices: opts.invoices }) : null;
      if (opts.warmup > 0) await gen.run(target, { ...opts, seconds: opts.warmup });
      const serial = await serialLatency(target);
      const framed = !c.baseline && opts.adjacent > 0 && baseTarget !== null;
      const before = framed ? await baselineCpuMs(baseTarget) : null;
      const activity = otherActivity(serverPgid);
      const sampler = cpuSampler({ serverPgid });
      const profiler = opts.profile ? await startIsolateProfile(INSPECTOR_PORT) : null;
      const r = await gen.run(target, { ...opts, seconds: opts.duration }, (pid) => sampler.setWrk(pid));
      const cpu = sampler.stop();
      const profile = profiler ? await profiler.stop() : null;
      if (profile) {
        const dir = path.join(ROOT, "bench-results");
        mkdirSync(dir, { recursive: true });
        const file = path.join(dir, `profile-${c.name.replace(/\W+/g, "-")}-${new Date().toISOString().replace(/[:.]/g, "-")}.cpuprofile`);
        console.log(`\n  ${c.name}: ${profileSummary(profile, path.relative(ROOT, file), 25).join("\n  ")}\n`);
        writeFileSync(file, JSON.stringify(profile));
      }
      const activityEnd = otherActivity(serverPgid);
      const afterBase = framed ? await baselineCpuMs(baseTarget) : null;
      const adjacentBaseCpuMs = before && afterBase ? (before + afterBase) / 2 : null;
      // Outside production workers/app.ts reports the request's D1 round trips in Server-Timing.
      const d1Queries = d1QueriesOf(probe);
      // The same page again after the run: the count must not depend on the request either.
      const after = c.list ? d1QueriesOf(await patientRequest(target.url, { headers: target.headers })) : d1Queries;
      results.push({
        name: c.name,
        baseline: Boolean(c.baseline),
        url: target.url,
        note: target.note,
        status: target.expectStatus,
        d1Queries,
        d1QueriesAfter: after,
        page,
        seedOnly: small[c.name] ?? null,
        loadBefore: load,
        cpu,
        activity: { before: activity, after: activityEnd },
        serial,
        adjacentBaseCpuMs,
        ...r,
      });
      console.log(
        `  ${c.name}: ${r.rps.toFixed(1)} req/s, p50 ${r.p50Ms.toFixed(0)} ms, p95 ${r.p95Ms.toFixed(0)} ms over ${r.requests} requests; server CPU ${cpuPerRequest({ ...r, cpu })?.toFixed(1) ?? "n/a"} ms a request${framed ? `; /healthz around it ${before?.toFixed(2) ?? "n/a"} and ${afterBase?.toFixed(2) ?? "n/a"} ms a request` : ""}`,
      );
      const pageNote = page ? `; ${page.rows} rows / ${page.ids} ids in the HTML of ${page.total} items` : "";
      console.log(`  ${c.name}: ${target.url} (answers ${probe.status}; ${target.note}; D1 queries per request: ${d1Queries ?? "n/a"}${pageNote})`);
      console.log(
        `    one request at a time: median ${serial.medianMs.toFixed(1)} ms, max ${serial.maxMs.toFixed(1)} ms over ${serial.n}${small[c.name] ? ` (with the seed's rows only: median ${small[c.name].serial.medianMs.toFixed(1)} ms)` : ""}`,
      );
      // The load generator and workerd share the CPU with anything else running: say so next to the figures.
      if (cpu && cpu.othersCores > cpus * 0.25)
        console.log(`    (other processes used ${cores(cpu.othersCores)} of ${cpus} CPUs during "${c.name}": its figures are low)`);
      if (cpu)
        console.log(
          `    CPU cores busy ${cores(cpu.busyCores)} of ${cpus}: bench server ${cores(cpu.serverCores)} (${cpu.serverSplit.join(", ")}), ${gen.name} ${cores(cpu.wrkCores)}, others ${cores(cpu.othersCores)}${cpu.othersTop.length ? ` (${cpu.othersTop.join(", ")})` : ""}; load ${load.toFixed(2)} -> ${cpu.loadAfter.toFixed(2)}; running before: ${activity}, after: ${activityEnd}`,
        );
    }
  } finally {
    if (server) await server.stop();
  }

  console.log(
    `\n  ${"case".padEnd(26)}${"req/s".padStart(8)}${"p50 ms".padStart(9)}${"p95 ms".padStart(9)}${"p99 ms".padStart(9)}${"requests".padStart(10)}${"D1/req".padStart(8)}  errors`,
  );
  for (const r of results) {
    const errs = Object.entries(r.errors)
      .filter(([, n]) => n > 0)
      .map(([k, n]) => `${k} ${n}`)
      .join(", ");
    console.log(
      `  ${r.name.padEnd(26)}${fmt(r.rps, 0)} ${fmt(r.p50Ms)} ${fmt(r.p95Ms)} ${fmt(r.p99Ms)}${String(r.requests).padStart(10)}${String(r.d1Queries ?? "n/a").padStart(8)}  ${errs || "none"}`,
    );
  }
  const base = results.find((r) => r.baseline);
  if (base) {
    console.log("");
    for (const r of results.filter((x) => !x.baseline)) {
      console.log(
        `  ${r.name}: ${(r.rps / base.rps).toFixed(3)} x the baseline's req/s (baseline ${(base.rps / r.rps).toFixed(2)} x faster); p50 ${(r.p50Ms / base.p50Ms).toFixed(2)} x, p95 ${(r.p95Ms / base.p95Ms).toFixed(2)} x the baseline's`,
      );
    }
  }

  // The list must cost the same number of D1 round trips with 25 rows as with thousands.
  const problems = [];
  console.log("");
  for (const r of results.filter((x) => x.seedOnly)) {
    const same = r.seedOnly.d1Queries === r.d1Queries && r.d1Queries === r.d1QueriesAfter && r.d1Queries != null;
    if (!same)
      problems.push(
        `${r.name}: D1 queries per request ${r.seedOnly.d1Queries} with ${r.seedOnly.total} items, ${r.d1Queries} (then ${r.d1QueriesAfter}) with ${r.page.total}`,
      );
    console.log(
      `  ${r.name}: D1 queries per request ${r.seedOnly.d1Queries} with the seed's rows (${r.seedOnly.total} items), ${r.d1Queries} with the bench rows (${r.page.total} items): ${same ? "does not grow" : "GROWS"}; ${r.page.rows} rows rendered (at most ${PAGE_SIZE})`,
    );
  }

  // Each case against its budget, measured in this run.
  const misses = [];
  if (base) {
    console.log("");
    for (const r of results.filter((x) => !x.baseline && BUDGETS[x.name])) {
      const verdict = budgetVerdict(r, base, BUDGETS[r.name], cpus);
      if (verdict.miss) misses.push(r.name);
      console.log(`  budget ${verdict.miss ? "MISSED" : "met"}: ${r.name}: ${verdict.text}`);
    }
  }

  const dir = path.join(ROOT, "bench-results");
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${new Date().toISOString().replace(/[:.]/g, "-")}.json`);
  const loadEnd = os.loadavg();
  writeFileSync(
    file,
    `${JSON.stringify({ at: new Date().toISOString(), options: opts, machine: { cpus, loadStart, loadEnd, activityStart }, benchData: data, results }, null, 2)}\n`,
  );

  // Markdown for an issue note.
  const cmd = `npm run bench${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(" ")}` : ""}`;
  const lines = [
    `**\`${cmd}\`** (${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC; built worker under \`wrangler dev\` on :${PORT}; \`${gen.describe}\` per case after ${opts.warmup}s warm-up; ${cpus} CPUs shared with ${gen.name})`,
    `acme holds ${data.rows} bench subcontractors + 25 seeded (${data.archived} bench rows archived, ${data.deleted} soft-deleted; ${data.individual} individual / ${data.company} company / ${data.partnership} partnership) and ${data.invoices} bench invoices + 120 seeded (${data.paid} paid, ${data.deletedInvoices} soft-deleted)`,
    "",
    `| case | req/s | req/s × healthz | p50 ms | p95 ms | p95 × healthz | server CPU ms/req (× healthz) | CPU ratio (healthz ms ÷ case ms) | CPU ratio to the healthz around it | serial ms (seed rows → bench rows) | D1 q/req (seed rows → bench rows) | rows in HTML / items | CPU: server · ${gen.name} · others | ${gen.name} errors |`,
    "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---|",
    ...results.map((r) => {
      const d1 = r.seedOnly ? `${r.seedOnly.d1Queries} → ${r.d1Queries}` : String(r.d1Queries ?? "–");
      const rows = r.page ? `${r.page.rows || r.page.ids} / ${r.page.total ?? "n/a"}` : "–";
      const cpu = r.cpu ? `${cores(r.cpu.serverCores)} · ${cores(r.cpu.wrkCores)} · ${cores(r.cpu.othersCores)}` : "n/a";
      const serial = r.seedOnly ? `${r.seedOnly.serial.medianMs.toFixed(1)} → ${r.serial.medianMs.toFixed(1)}` : r.serial.medianMs.toFixed(1);
      const errs =
        Object.entries(r.errors)
          .filter(([, n]) => n > 0)
          .map(([k, n]) => `${k} ${n}`)
          .join(", ") || "none";
      const cpuMs = cpuPerRequest(r);
      const baseCpuMs = base ? cpuPerRequest(base) : null;
      const cpuCell = cpuMs == null ? "n/a" : `${cpuMs.toFixed(1)}${baseCpuMs ? ` (${(cpuMs / baseCpuMs).toFixed(1)})` : ""}`;
      const ratioCell = base ? (cpuRatio(r, base)?.toFixed(3) ?? "n/a") : "–";
      const rpsRatio = base ? (r.rps / base.rps).toFixed(3) : "–";
      const adjacentCell = r.baseline ? "–" : (adjacentRatio(r)?.toFixed(3) ?? "n/a");
      return `| ${r.name} | ${r.rps.toFixed(0)} | ${rpsRatio} | ${r.p50Ms.toFixed(1)} | ${r.p95Ms.toFixed(1)} | ${base ? (r.p95Ms / base.p95Ms).toFixed(2) : "–"} | ${cpuCell} | ${ratioCell} | ${adjacentCell} | ${serial} | ${d1} | ${rows} | ${cpu} | ${errs} |`;
    }),
    "",
    "serial ms: median of 20 requests one at a time (after 5 unmeasured; no queueing), measured with the seed's 25 rows and again with the bench rows. CPU: cores used during the measured run.",
    opts.adjacent > 0
      ? `CPU ratio to the healthz around it: /healthz's CPU per request over ${opts.adjacent} s just before and ${opts.adjacent} s just after the case (their mean), over the case's; budgets are judged on it.`
      : "Budgets are judged on the CPU ratio to the run's first /healthz (--adjacent 0).",
    `Load average ${loadStart[0].toFixed(2)} at start, ${loadEnd[0].toFixed(2)} at end; other activity at start: ${activityStart}.`,
  ];
  console.log(`\n---- summary (Markdown) ----\n${lines.join("\n")}\n----------------------------`);

  console.log(`\n[bench] done in ${since(tAll)}; figures in ${path.relative(ROOT, file)}`);
  const failedRequests = results.some((r) => r.errors.status + r.errors.timeout + r.errors.connect > 0);
  if (failedRequests) {
    console.log("[bench] some requests failed: figures above include them");
    process.exitCode = 1;
  }
  // A page slower than the run is long completes nothing: its zeros are not figures.
  const empty = results.filter((r) => r.requests === 0).map((r) => r.name);
  if (empty.length) {
    console.log(`[bench] no response completed during the run for: ${empty.join(", ")}; run longer (--duration) or on a quieter machine`);
    process.exitCode = 1;
  }
  if (misses.length) {
    console.log(`[bench] cases below their budget: ${misses.join(", ")}`);
    process.exitCode = 1;
  }
  if (problems.length) {
    console.log(`[bench] D1 queries grow with the number of rows:\n  ${problems.join("\n  ")}`);
    process.exitCode = 1;
  }
}

main().catch((err) => {
  console.error(`[bench] ${err?.stack ?? err}`);
  process.exit(1);
});
