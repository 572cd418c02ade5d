// A CPU profile of the Worker isolate under `wrangler dev`, taken through the DevTools protocol of
// its inspector (Profiler.start / Profiler.stop), and a summary of it: the functions with the most
// self time. The benchmarks use it to say where a page's or a slice's CPU goes.
/* global WebSocket */
import { writeFileSync } from "node:fs";

/**
 * A DevTools protocol session with the Worker behind the inspector on `port`: call(method, params,
 * waitMs) resolves the result (undefined when the inspector leaves it unanswered), on(method, fn)
 * hears its events, close() ends it.
 */
export async function connectInspector(port) {
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
  const listeners = new Map();
  ws.addEventListener("message", (ev) => {
    const msg = JSON.parse(String(ev.data));
    if (msg.method) listeners.get(msg.method)?.(msg.params);
    const resolve = msg.id && pending.get(msg.id);
    if (!resolve) return;
    pending.delete(msg.id);
    resolve(msg.result);
  });
  return {
    call: (method, params = {}, waitMs = 10_000) =>
      new Promise((resolve) => {
        id += 1;
        const mine = id;
        pending.set(mine, resolve);
        ws.send(JSON.stringify({ id: mine, method, params }));
        setTimeout(() => pending.delete(mine) && resolve(undefined), waitMs);
      }),
    on: (method, fn) => listeners.set(method, fn),
    close: () => ws.close(),
  };
}

/**
 * Starts the sampling profiler of the Worker behind the inspector on `port` (sampling every
 * `intervalUs` microseconds). Returns { stop() }, which resolves the profile (a .cpuprofile
 * object Chrome's DevTools opens) or null when the inspector did not answer.
 */
export async function startIsolateProfile(port, intervalUs = 200) {
  const { call, close } = await connectInspector(port);
  await call("Profiler.enable");
  await call("Profiler.setSamplingInterval", { interval: intervalUs });
  await call("Profiler.start");
  return {
    async stop() {
      // A busy isolate answers late: wait longer for the profile than for the other calls.
      const r = await call("Profiler.stop", {}, 60_000);
      close();
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
  // workerd records no idle samples while the isolate waits between requests or queue batches:
  // the first sample after such a gap carries the whole gap. A delta is capped at ten times the
  // typical one, so waiting is not charged to whatever ran next.
  const sorted = [...profile.timeDeltas].sort((a, b) => a - b);
  const cap = Math.max(10 * (sorted[Math.floor(sorted.length / 2)] ?? 0), 1000);
  const spent = new Map();
  for (let i = 0; i < profile.samples.length; i++) {
    spent.set(profile.samples[i], (spent.get(profile.samples[i]) ?? 0) + Math.min(profile.timeDeltas[i] ?? 0, cap));
  }
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

/**
 * The heap's self size summed per constructor (objects) or per kind (strings, code, arrays...) from
 * a V8 heap snapshot, largest first: what the isolate holds, by what holds it.
 */
export function heapByConstructor(snapshot, limit = 15) {
  const { node_fields: fields, node_types: types } = snapshot.snapshot.meta;
  const kinds = types[0];
  const width = fields.length;
  const [typeAt, nameAt, sizeAt] = ["type", "name", "self_size"].map((f) => fields.indexOf(f));
  const by = new Map();
  let total = 0;
  for (let i = 0; i < snapshot.nodes.length; i += width) {
    const kind = kinds[snapshot.nodes[i + typeAt]];
    const size = snapshot.nodes[i + sizeAt];
    total += size;
    const name = kind === "object" || kind === "closure" ? `${kind} ${snapshot.strings[snapshot.nodes[i + nameAt]]}` : `(${kind})`;
    const entry = by.get(name) ?? { count: 0, bytes: 0 };
    entry.count += 1;
    entry.bytes += size;
    by.set(name, entry);
  }
  const top = [...by.entries()]
    .sort((a, b) => b[1].bytes - a[1].bytes)
    .slice(0, limit)
    .map(([name, e]) => ({ name, ...e }));
  return { totalBytes: total, top };
}

/**
 * The isolate at rest: its heap used after a full collection, and with `summary` what holds it
 * by constructor. workerd's inspector leaves HeapProfiler.collectGarbage unanswered, but a heap
 * snapshot collects first: one is taken, and the heap's used size read straight after it.
 * Returns { usedMb, collected, summary? }; `collected` is false when no snapshot came back (the
 * figure then includes garbage).
 */
export async function heapAtRest(port, { summary = false, limit = 15 } = {}) {
  const inspector = await connectInspector(port);
  try {
    await inspector.call("HeapProfiler.enable");
    const chunks = [];
    inspector.on("HeapProfiler.addHeapSnapshotChunk", (p) => chunks.push(p.chunk));
    // The snapshot's chunks arrive before its answer, which workerd may send as an error.
    await inspector.call("HeapProfiler.takeHeapSnapshot", { reportProgress: false }, 120_000);
    const usage = await inspector.call("Runtime.getHeapUsage");
    const usedMb = (usage?.usedSize ?? 0) / (1024 * 1024);
    if (!summary || chunks.length === 0) return { usedMb, collected: chunks.length > 0, summary: null };
    return { usedMb, collected: true, summary: heapByConstructor(JSON.parse(chunks.join("")), limit) };
  } finally {
    inspector.close();
  }
}

/** Markdown lines for a heapAtRest() result. */
export function heapSummaryLines(label, rest) {
  const lines = [
    `${label}: ${rest.usedMb.toFixed(1)} MB used${rest.collected ? " after the full collection of a heap snapshot" : " (no snapshot came back: garbage included)"}`,
  ];
  if (!rest.summary) return lines;
  const mb = (b) => (b / (1024 * 1024)).toFixed(2);
  lines.push(
    "",
    `Heap snapshot: ${mb(rest.summary.totalBytes)} MB live, self size by constructor:`,
    "",
    "| MB | objects | constructor or kind |",
    "|---:|---:|---|",
    ...rest.summary.top.map((t) => `| ${mb(t.bytes)} | ${t.count} | \`${t.name}\` |`),
  );
  return lines;
}
