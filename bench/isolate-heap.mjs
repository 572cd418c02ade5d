// Samples the Worker isolate's own JavaScript heap under `wrangler dev`, through the DevTools
// protocol of its inspector (Runtime.getHeapUsage), so a benchmark can report the figure the
// 128 MB isolate limit applies to. workerd's resident set also holds local D1 (SQLite), R2's
// storage and the runtime itself, which in production live outside the Worker.
/* global WebSocket, setInterval, clearInterval */

/**
 * Connects to the inspector on `port` and samples the heap's used size every `everyMs`. It
 * includes garbage not yet collected (workerd's inspector does not answer
 * HeapProfiler.collectGarbage), so the peak is an upper bound of the live set. Returns
 * { peakMb(), lastMb(), stop() }.
 */
export async function sampleIsolateHeap(port, everyMs = 50) {
  const targets = await (await fetch(`http://127.0.0.1:${port}/json`)).json();
  const target = targets.find((t) => t.webSocketDebuggerUrl);
  if (!target) throw new Error(`no inspectable Worker on inspector port ${port}`);
  // The inspector proxy of `wrangler dev` accepts only local origins; Node's WebSocket sends none
  // unless told (undici takes the extra headers as a second argument).
  const ws = new WebSocket(target.webSocketDebuggerUrl, { headers: { Origin: "http://localhost" } });
  await new Promise((resolve, reject) => {
    ws.addEventListener("open", resolve, { once: true });
    ws.addEventListener("error", () => reject(new Error(`could not connect to ${target.webSocketDebuggerUrl}`)), { once: true });
  });
  let id = 0;
  let peak = 0;
  let last = 0;
  const pending = new Map();
  ws.addEventListener("message", (ev) => {
    const msg = JSON.parse(String(ev.data));
    const resolve = msg.id && pending.get(msg.id);
    if (!resolve) return;
    pending.delete(msg.id);
    resolve(msg.result);
  });
  // A method the inspector leaves unanswered must not stall the benchmark.
  const call = (method) =>
    new Promise((resolve) => {
      id += 1;
      const mine = id;
      pending.set(mine, resolve);
      ws.send(JSON.stringify({ id: mine, method }));
      setTimeout(() => pending.delete(mine) && resolve(undefined), 2_000);
    });
  const sample = async () => {
    const r = await call("Runtime.getHeapUsage");
    if (r && typeof r.usedSize === "number") {
      last = r.usedSize;
      peak = Math.max(peak, r.usedSize);
    }
    return last;
  };
  await sample();
  const timer = setInterval(() => void sample(), everyMs);
  const mb = (bytes) => bytes / (1024 * 1024);
  return {
    peakMb: () => mb(peak),
    lastMb: () => mb(last),
    async stop() {
      clearInterval(timer);
      await sample();
      ws.close();
    },
  };
}
