// `npm run bench [-- --duration 10 --threads 2 --connections 50 --warmup 2 --no-build]`
//
// Builds the app, serves the built worker with `wrangler dev` against its own migrated and
// seeded state (.wrangler/bench-state), and measures each case in CASES with wrk on
// loopback: requests/s and p50/p95/p99 latency. The bare /healthz (no router, no D1) is
// measured in the same run so pages can be compared with it: absolute figures drift
// between runs and machines, the ratio much less. Writes bench-results/<time>.json.
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import process from "node:process";
import { URLSearchParams } from "node:url";
import { buildApp, freshState, settleAll, httpRequest, ROOT, serveBuilt, since } from "../tests/e2e/server.mjs";

const PORT = Number(process.env.BENCH_PORT ?? 8787);
const PERSIST_TO = path.join(".wrangler", "bench-state");
const LOG_FILE = path.join(ROOT, ".wrangler", "bench-wrangler.log");
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
  const cookie = res.setCookies.map((c) => c.split(";")[0]).filter((c) => !c.endsWith("=")).join("; ");
  if (!cookie) return { cookie: null, reason: `POST /login answered ${res.status} without a cookie` };
  const check = await httpRequest(tenant(slug, "/welcome"), { headers: { Cookie: cookie } });
  if (check.status !== 200) return { cookie: null, reason: `POST /login answered ${res.status}${res.headers.location ? ` -> ${res.headers.location}` : ""}; /welcome with its cookie answered ${check.status}` };
  return { cookie, reason: null };
}

/**
 * What to measure. target() runs once the server is up and returns the request to repeat;
 * expectStatus guards against benchmarking an error page by mistake. Exactly one case is the
 * baseline the others are compared with.
 */
const CASES = [
  {
    name: "tenant page reading D1",
    async target() {
      const { cookie, reason } = await signIn("acme", "admin@acme.test", "workspace-demo-2026");
      if (cookie) return { url: tenant("acme", "/welcome"), headers: { Cookie: cookie }, expectStatus: 200, note: "signed in as admin@acme.test" };
      // Until sign-in works: the tenant home still resolves the tenant from D1, then redirects.
      return { url: tenant("acme", "/"), headers: {}, expectStatus: 302, note: `signed out (${reason})` };
    },
  },
  {
    name: "bare worker /healthz",
    baseline: true,
    async target() {
      return { url: bare("/healthz"), headers: {}, expectStatus: 200, note: "no router, no D1" };
    },
  },
];

function parseArgs(argv) {
  const opts = { duration: 10, threads: 2, connections: 50, warmup: 2, build: true };
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
    else if (a === "--no-build") opts.build = false;
    else throw new Error(`Unknown option ${a}`);
  }
  return opts;
}

function ensureWrk() {
  if (spawnSync("wrk", ["--version"], { stdio: "ignore" }).error == null) return;
  if (process.getuid?.() !== 0) throw new Error("wrk is not installed: apt-get install -y wrk");
  console.log("[bench] installing wrk (apt-get install -y wrk)");
  const r = spawnSync("sh", ["-c", "apt-get install -y wrk || (apt-get update && apt-get install -y wrk)"], { stdio: "inherit" });
  if (r.status !== 0) throw new Error("could not install wrk");
}

/** Runs wrk against `target` for `seconds`; resolves the figures from bench/report.lua. */
function wrk(target, { seconds, threads, connections }) {
  const u = new URL(target.url);
  // Connect to 127.0.0.1 and name the host in the header: getaddrinfo cannot resolve *.localhost here.
  const headers = { Host: u.host, ...target.headers };
  const args = [
    `-t${threads}`,
    `-c${connections}`,
    `-d${seconds}s`,
    "--timeout",
    "5s",
    "-s",
    path.join(ROOT, "bench", "report.lua"),
    ...Object.entries(headers).flatMap(([k, v]) => ["-H", `${k}: ${v}`]),
    `http://127.0.0.1:${u.port}${u.pathname}${u.search}`,
  ];
  return new Promise((resolve, reject) => {
    const child = spawn("wrk", args, { stdio: ["ignore", "pipe", "pipe"] });
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

const fmt = (n, digits = 1) => n.toFixed(digits).padStart(8);

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const tAll = Date.now();
  // Everything below is bounded (wrk -d, timeouts), but never let a bench hang a CI box.
  const hardStop = setTimeout(() => {
    console.error("[bench] gave up after 10 minutes");
    process.exit(2);
  }, 600_000);
  hardStop.unref();

  ensureWrk();
  let server = null;
  const results = [];
  try {
    const t0 = Date.now();
    await settleAll([opts.build ? buildApp() : Promise.resolve(), freshState(PERSIST_TO)]);
    console.log(`[bench] ${opts.build ? "built and " : ""}migrated + seeded ${PERSIST_TO} in ${since(t0)}`);
    server = await serveBuilt({ port: PORT, persistTo: PERSIST_TO, logFile: LOG_FILE });
    console.log(`[bench] serving the built worker at ${server.url}; wrk -t${opts.threads} -c${opts.connections} -d${opts.duration}s per case (after ${opts.warmup}s warm-up)\n`);

    for (const c of CASES) {
      const target = await c.target();
      const [load] = os.loadavg();
      // wrk and workerd share the CPU with anything else running: say so next to the figures.
      if (load > os.availableParallelism() * 0.75) console.log(`  (load average ${load.toFixed(1)} on ${os.availableParallelism()} CPUs before "${c.name}": figures will be low)`);
      const probe = await httpRequest(target.url, { headers: target.headers });
      if (probe.status !== target.expectStatus) throw new Error(`${c.name}: ${target.url} answered ${probe.status}, expected ${target.expectStatus}`);
      if (opts.warmup > 0) await wrk(target, { ...opts, seconds: opts.warmup });
      const r = await wrk(target, { ...opts, seconds: opts.duration });
      // Outside production workers/app.ts reports the request's D1 round trips in Server-Timing.
      const d1 = /\bd1;[^,]*\bdur=(\d+)/.exec(String(probe.headers["server-timing"] ?? ""));
      const d1Queries = d1 ? Number(d1[1]) : null;
      results.push({ name: c.name, baseline: Boolean(c.baseline), url: target.url, note: target.note, status: target.expectStatus, d1Queries, loadBefore: load, ...r });
      console.log(`  ${c.name}: ${target.url} (answers ${probe.status}; ${target.note}; D1 queries per request: ${d1Queries ?? "n/a"})`);
    }
  } finally {
    if (server) await server.stop();
  }

  console.log(`\n  ${"case".padEnd(26)}${"req/s".padStart(8)}${"p50 ms".padStart(9)}${"p95 ms".padStart(9)}${"p99 ms".padStart(9)}${"requests".padStart(10)}  errors`);
  for (const r of results) {
    const errs = Object.entries(r.errors)
      .filter(([, n]) => n > 0)
      .map(([k, n]) => `${k} ${n}`)
      .join(", ");
    console.log(`  ${r.name.padEnd(26)}${fmt(r.rps, 0)} ${fmt(r.p50Ms)} ${fmt(r.p95Ms)} ${fmt(r.p99Ms)}${String(r.requests).padStart(10)}  ${errs || "none"}`);
  }
  const base = results.find((r) => r.baseline);
  if (base) {
    console.log("");
    for (const r of results.filter((x) => !x.baseline)) {
      console.log(`  ${r.name}: ${(r.rps / base.rps).toFixed(3)} x the baseline's req/s (baseline ${(base.rps / r.rps).toFixed(2)} x faster); p50 ${(r.p50Ms / base.p50Ms).toFixed(2)} x, p95 ${(r.p95Ms / base.p95Ms).toFixed(2)} x the baseline's`);
    }
  }
  const dir = path.join(ROOT, "bench-results");
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${new Date().toISOString().replace(/[:.]/g, "-")}.json`);
  writeFileSync(file, `${JSON.stringify({ at: new Date().toISOString(), options: opts, results }, null, 2)}\n`);
  console.log(`\n[bench] done in ${since(tAll)}; figures in ${path.relative(ROOT, file)}`);
  const failedRequests = results.some((r) => r.errors.status + r.errors.timeout + r.errors.connect > 0);
  if (failedRequests) {
    console.log("[bench] some requests failed: figures above include them");
    process.exitCode = 1;
  }
}

main().catch((err) => {
  console.error(`[bench] ${err?.stack ?? err}`);
  process.exit(1);
});
