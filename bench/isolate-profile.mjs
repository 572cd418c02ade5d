// A CPU profile of the Worker isolate under `wrangler dev`, taken through the DevTools protocol of
// its inspector (Profiler.start / Profiler.stop), and a summary of it: the functions with the most
// self time. The benchmarks use it to say where a page's or a slice's CPU goes.
/* global WebSocket */
import { writeFileSync } from "node:fs";

/**
 * Starts the sampling profiler of the Worker behind the inspector on `port` (sampling every
 * `intervalUs` microseconds). Returns { stop() }, which resolves the profile (a .cpuprofile
 * object Chrome's DevTools opens) or null when the inspector did not answer.
 */
export async function startIsolateProfile(port, intervalUs = 200) {
  const targets = await (await fetch(`http://127.0.0.1:${port}/json`)).json();
  const target = targets.find((t) => t.webSocketDebuggerUrl);
  if (!target) throw new Error(`no inspectable Worker on inspector port ${port}`);
  // The inspector proxy of `wrangler dev` accepts only local origins (undici takes the headers as a second argument).
  const ws = new WebSocket(target.webSocketDebuggerUrl, { headers: { Origin: "http://localhost" } });
  await new Promise((resolve, reject) => {
    ws.addEventListener("open", resolve, { once: true });
    ws.addEventListener("error", () => reject(new Error(`could not connect to ${target.webSocketDebuggerUrl}`)), { once: true });
  });
  let id = 0;
  const pending = new Map();
  ws.addEventListener("message", (ev) => {
    const msg = JSON.parse(String(ev.data));
    const resolve = msg.id && pending.get(msg.id);
    if (!resolve) return;
    pending.delete(msg.id);
    resolve(msg.result);
  });
  const call = (method, params = {}, waitMs = 10_000) =>
    new Promise((resolve) => {
      id += 1;
      const mine = id;
      pending.set(mine, resolve);
      ws.send(JSON.stringify({ id: mine, method, params }));
      setTimeout(() => pending.delete(mine) && resolve(undefined), waitMs);
    });
  await call("Profiler.enable");
  await call("Profiler.setSamplingInterval", { interval: intervalUs });
  await call("Profiler.start");
  return {
    async stop() {
      // A busy isolate answers late: wait longer for the profile than for the other calls.
      const r = await call("Profiler.stop", {}, 60_000);
      ws.close();
      return r?.profile ?? null;
    },
  };
}

/** Where a call frame comes from, short: the last two path segments of its script and its line. */
function frameName(cf) {
  const file = cf.url ? cf.url.split("/").slice(-2).join("/") : "";
  return `${cf.functionName || "(anonymous)"}${file ? ` ${file}:${cf.lineNumber + 1}` : ""}`;
}

/**
 * The `limit` functions with the most self time in `profile`, each { name, ms, share }, and the
 * profile's total sampled time in ms (idle time left out, so shares are of the CPU used).
 */
export function topSelfTime(profile, limit = 15) {
  const spent = new Map();
  for (let i = 0; i < profile.samples.length; i++) spent.set(profile.samples[i], (spent.get(profile.samples[i]) ?? 0) + (profile.timeDeltas[i] ?? 0));
  const byName = new Map();
  let total = 0;
  for (const node of profile.nodes) {
    const us = spent.get(node.id) ?? 0;
    if (node.callFrame.functionName === "(idle)") continue;
    total += us;
    const name = frameName(node.callFrame);
    byName.set(name, (byName.get(name) ?? 0) + us);
  }
  const top = [...byName.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, limit)
    .map(([name, us]) => ({ name, ms: us / 1000, share: total ? us / total : 0 }));
  return { totalMs: total / 1000, top };
}

/** Writes `profile` to `file` and returns its summary as Markdown table lines. */
export function profileSummary(profile, file, limit = 15) {
  if (file) writeFileSync(file, JSON.stringify(profile));
  const { totalMs, top } = topSelfTime(profile, limit);
  return [
    `CPU profile${file ? ` (${file})` : ""}: ${totalMs.toFixed(0)} ms sampled outside idle`,
    "",
    "| self ms | share | function |",
    "|---:|---:|---|",
    ...top.map((t) => `| ${t.ms.toFixed(1)} | ${(t.share * 100).toFixed(1)}% | \`${t.name}\` |`),
  ];
}
