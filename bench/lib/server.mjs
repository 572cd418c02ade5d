// What the benches that drive the built worker under `wrangler dev` share: a fresh migrated and
// seeded state of their own plus the bench's rows, the server, signing in, and serial timing.
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import process from "node:process";
import { URLSearchParams } from "node:url";
import { spawnSync } from "node:child_process";
import { run } from "../../scripts/setup-local.mjs";
import { buildApp, freshState, httpRequest, ROOT, serveBuilt, since } from "../../tests/e2e/server.mjs";

export { httpRequest, ROOT };

/**
 * Builds the app (unless `build` is false) while it migrates and seeds `.wrangler/bench-<name>-state`,
 * runs `sql` in it, and serves the built worker on `port`. `seeded` says what the SQL wrote, for the
 * progress line. Returns the server (`stop()` it) with the state folder and the server's log file.
 */
export async function startBench({ name, port, build, sql, seeded }) {
  const t0 = Date.now();
  const persistTo = path.join(".wrangler", `bench-${name}-state`);
  const logFile = path.join(ROOT, ".wrangler", `bench-${name}-wrangler.log`);
  await Promise.all([build ? buildApp() : Promise.resolve(), freshState(persistTo)]);
  const sqlFile = path.join(ROOT, ".wrangler", `bench-${name}.sql`);
  writeFileSync(sqlFile, sql);
  await run("npx", ["wrangler", "d1", "execute", "DB", "--local", "--persist-to", persistTo, "--file", sqlFile], { label: `bench ${name} rows` });
  console.log(`[bench:${name}] ${build ? "built, " : ""}migrated + seeded, ${seeded} in ${since(t0)}`);
  const server = await serveBuilt({ port, persistTo, logFile });
  return { server, persistTo, logFile };
}

/** Signs in with the seed's shared password at `origin` (http://acme.localhost:PORT) and returns the session cookie. */
export async function signIn(origin, email) {
  const res = await httpRequest(`${origin}/login`, {
    method: "POST",
    headers: { Origin: origin, "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ email, password: "workspace-demo-2026" }).toString(),
  });
  const cookie = res.setCookies
    .map((c) => c.split(";")[0])
    .filter((c) => !c.endsWith("="))
    .join("; ");
  if (!cookie) throw new Error(`cannot sign in as ${email}: ${res.status}`);
  return cookie;
}

/** The D1 round trips a response's Server-Timing header reports, or null. */
export function d1Trips(res) {
  const d1 = /\bd1;[^,]*\bdur=(\d+)/.exec(String(res.headers["server-timing"] ?? ""));
  return d1 ? Number(d1[1]) : null;
}

/** The p-th fraction of sorted figures. */
export const pct = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];

/** `n` serial GETs after three warm-ups: p50, p95 and max in ms, the D1 round trips and the last response. */
export async function serial(url, cookie, n = 30) {
  for (let i = 0; i < 3; i++) await httpRequest(url, { headers: { Cookie: cookie } });
  const times = [];
  let last = null;
  for (let i = 0; i < n; i++) {
    const t = process.hrtime.bigint();
    last = await httpRequest(url, { headers: { Cookie: cookie } });
    times.push(Number(process.hrtime.bigint() - t) / 1e6);
  }
  times.sort((a, b) => a - b);
  return { status: last.status, p50: pct(times, 0.5), p95: pct(times, 0.95), max: times[n - 1], d1: d1Trips(last), body: last.body };
}

/** autocannon at `connections` for `duration` seconds on `url` (sent to 127.0.0.1 with its Host): req/s, p50, p97.5, errors. */
export async function load(url, headers, { connections, duration }) {
  const { default: autocannon } = await import("autocannon");
  const u = new URL(url);
  const result = await new Promise((resolve, reject) => {
    autocannon(
      { url: `http://127.0.0.1:${u.port}${u.pathname}${u.search}`, headers: { Host: u.host, ...headers }, connections, duration, timeout: 10 },
      (err, res) => (err ? reject(err) : resolve(res)),
    );
  });
  return {
    rps: result.requests.average,
    requests: result.requests.total,
    p50: result.latency.p50,
    p97: result.latency.p97_5,
    errors: result.errors + result.non2xx,
  };
}

/**
 * The CPU time (ms, user + system) used so far by the processes of the `wrangler dev --port <port>`
 * server's process group (wrangler and workerd), read from /proc; null where /proc or ps is missing.
 * The difference over a load run divided by its requests is the server's CPU per request, a figure
 * that swings far less with the machine's load than req/s.
 */
export function serverCpuMs(port) {
  const ps = spawnSync("ps", ["-eo", "pgid=,args="], { encoding: "utf8" });
  const line = (ps.stdout ?? "").split("\n").find((l) => /wrangler(?:\.js)?\s+dev\b/.test(l) && l.includes(`--port ${port} `));
  if (!line) return null;
  const group = Number(line.trim().split(/\s+/, 1)[0]);
  let ticks = 0;
  for (const pid of readdirSync("/proc").filter((n) => /^\d+$/.test(n))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      // After the command: state, ppid, pgrp (2), ..., utime (11), stime (12); in clock ticks of 10 ms.
      if (Number(fields[2]) === group) ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // The process ended between the listing and the read.
    }
  }
  return ticks * 10;
}
