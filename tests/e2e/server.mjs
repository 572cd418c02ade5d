// Builds the app and serves the built worker with `wrangler dev` against its own local state.
// Used by tests/e2e/run.mjs and bench/run.mjs, so both exercise the production bundle.
/* global AbortSignal */
import { spawn } from "node:child_process";
import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import net from "node:net";
import path from "node:path";
import process from "node:process";
import { ROOT, ensureDevVars, run, setupLocal } from "../../scripts/setup-local.mjs";

export { ROOT };

/** `react-router build`: writes build/ and points a bare `wrangler` at build/server/wrangler.json. */
export async function buildApp() {
  // The build copies .dev.vars next to the built worker, so it has to exist first.
  ensureDevVars();
  await run("npx", ["react-router", "build"], { label: "react-router build" });
  // Every build the browser tests make is also held to the first-load budget (ADR 0057), so
  // `npm test` fails when a page's JavaScript grows past it; only the over-budget pages print.
  await run("node", ["scripts/bundle-budget.mjs", "--quiet"], { echo: true, label: "bundle budget (scripts/bundle-budget.mjs)" });
}

/**
 * Writes build/server/wrangler.e2e.json: the built worker's config with the EMAIL queue's
 * consumer taking each message at once (max_batch_timeout 0) instead of waiting 2 s for a
 * fuller batch, so a scenario that reads a mailed code or link waits for the mail, not the
 * batch window. Beside the built config, so its relative paths (main, assets, .dev.vars)
 * resolve the same. JOBS keeps its window: scenarios look at states a job later changes.
 * Returns the file, for serveBuilt's `config`.
 */
export function e2eConfig() {
  const built = path.join(ROOT, "build", "server", "wrangler.json");
  const config = JSON.parse(readFileSync(built, "utf8"));
  for (const consumer of config.queues?.consumers ?? []) if (consumer.queue === "cis-workspace-email") consumer.max_batch_timeout = 0;
  const out = path.join(ROOT, "build", "server", "wrangler.e2e.json");
  writeFileSync(out, JSON.stringify(config, null, 1));
  return out;
}

/** Wipes `persistTo` and migrates + seeds a fresh local D1 there. */
export async function freshState(persistTo) {
  rmSync(path.resolve(ROOT, persistTo), { recursive: true, force: true });
  await setupLocal({ persistTo, quiet: true });
}

function portInUse(port) {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host: "127.0.0.1" });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * Starts `wrangler dev` on the built worker (without `config`, wrangler follows
 * .wrangler/deploy/config.json, which the build wrote) and waits for /healthz.
 * APP_DOMAIN is overridden so tenant subdomains resolve on this port.
 * inspectorPort opens the Worker's DevTools inspector there (benchmarks read its heap).
 * Returns { url, stop(), logFile }. stop() is idempotent and also runs on exit and signals.
 */
export async function serveBuilt({ port = 8787, persistTo, logFile, readyTimeoutMs = 60_000, vars = {}, inspectorPort, config }) {
  if (await portInUse(port)) throw new Error(`Port ${port} is already in use: stop whatever is listening there (an earlier run?) and try again`);
  mkdirSync(path.dirname(logFile), { recursive: true });
  const fd = openSync(logFile, "w");
  const varArgs = Object.entries({ APP_DOMAIN: `localhost:${port}`, ...vars }).flatMap(([k, v]) => ["--var", `${k}:${v}`]);
  const inspectorArgs = inspectorPort ? ["--inspector-port", String(inspectorPort)] : [];
  const configArgs = config ? ["--config", config] : [];
  const child = spawn(
    "npx",
    ["wrangler", "dev", ...configArgs, "--port", String(port), "--persist-to", persistTo, ...varArgs, ...inspectorArgs, "--show-interactive-dev-session=false"],
    {
      cwd: ROOT,
      // Own process group, so stop() takes workerd down with wrangler.
      detached: true,
      stdio: ["ignore", fd, fd],
      env: { ...process.env, WRANGLER_SEND_METRICS: "false", CI: "true" },
    },
  );
  closeSync(fd);
  let exited = null;
  const exitedPromise = new Promise((resolve) =>
    child.on("exit", (code, signal) => {
      exited = { code, signal };
      resolve();
    }),
  );

  const killGroup = (signal) => {
    try {
      process.kill(-child.pid, signal);
    } catch {
      // Already gone.
    }
  };
  const onExit = () => killGroup("SIGKILL");
  const onSignal = (signal) => {
    killGroup("SIGTERM");
    process.exit(signal === "SIGINT" ? 130 : 143);
  };
  process.on("exit", onExit);
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);

  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    if (!exited) {
      killGroup("SIGTERM");
      await Promise.race([exitedPromise, sleep(5_000)]);
      if (!exited) killGroup("SIGKILL");
    }
    // workerd may outlive wrangler for a moment; make sure the whole group is gone.
    killGroup("SIGKILL");
    process.off("exit", onExit);
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
  };

  const url = `http://localhost:${port}`;
  const deadline = Date.now() + readyTimeoutMs;
  for (;;) {
    if (exited) {
      await stop();
      throw new Error(`wrangler dev exited (${exited.code ?? exited.signal}) before it was ready:\n${tail(logFile)}`);
    }
    try {
      const res = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(2_000) });
      if (res.ok) break;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`wrangler dev did not answer ${url}/healthz within ${readyTimeoutMs / 1000} s:\n${tail(logFile)}`);
    }
    await sleep(200);
  }
  return { url, stop, logFile };
}

export function tail(file, lines = 40) {
  try {
    return readFileSync(file, "utf8").trimEnd().split("\n").slice(-lines).join("\n");
  } catch {
    return "(no log)";
  }
}

/** Like Promise.all, but waits for every promise (no wrangler left writing after a failure). */
export async function settleAll(promises) {
  const results = await Promise.allSettled(promises);
  const failed = results.find((r) => r.status === "rejected");
  if (failed) throw failed.reason;
  return results.map((r) => r.value);
}

/** Seconds since t0, for step timings. */
export const since = (t0) => `${((Date.now() - t0) / 1000).toFixed(1)} s`;

/**
 * One HTTP request to the local server with an explicit Host header. Node cannot resolve
 * *.localhost names (Chromium and curl special-case them, getaddrinfo here does not), so
 * tenant hosts are reached by connecting to 127.0.0.1 and naming the host in the header.
 * Redirects are not followed. Resolves { status, headers, setCookies, body }.
 */
export function httpRequest(url, { method = "GET", headers = {}, body = null } = {}) {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: "127.0.0.1", port: u.port || 80, path: `${u.pathname}${u.search}`, method, headers: { Host: u.host, ...headers }, timeout: 10_000 },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (c) => (text += c));
        res.on("end", () => {
          const setCookies = res.headers["set-cookie"] ?? [];
          resolve({ status: res.statusCode ?? 0, headers: res.headers, setCookies, body: text });
        });
      },
    );
    req.on("timeout", () => req.destroy(new Error(`${method} ${url} timed out`)));
    req.on("error", reject);
    if (body != null) req.write(body);
    req.end();
  });
}
