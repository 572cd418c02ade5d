// `npm run bench:chat [-- --no-build --seconds 30 --rate 20 --sockets 50 --history 100000]`
//
// The chat on the built worker under `wrangler dev` (port 8803, or BENCH_CHAT_PORT), with its own
// migrated and seeded state (.wrangler/bench-chat-state):
//  1. one Everyone room of Acme with --sockets live sockets (50 by default) spread over 20 people;
//     --rate messages a second (20) for --seconds (30), sent round-robin by those 20 people (one
//     person may send 30 a minute, so one person cannot send 20 a second): the delivery latency from
//     send to each socket (p50, p95, max) and the messages lost (expected deliveries not received;
//     must be 0), plus the messages stored in D1.
//  2. the room page of a room holding --history messages (100,000): 30 serial requests, p50 and p95,
//     as a ratio to /healthz (the bare worker) in the same run, and its D1 round trips.
// Prints the figures and a Markdown summary. Uses the `ws` client (already installed with
// miniflare) because Node's WebSocket cannot be pointed at acme.localhost.
/* global performance */
import { spawnSync } from "node:child_process";
import process from "node:process";
import WebSocket from "ws";
import { pct, ROOT, serial, signIn as signInAt, startBench } from "./lib/server.mjs";

const PORT = Number(process.env.BENCH_CHAT_PORT ?? 8803);
const ORIGIN = `http://acme.localhost:${PORT}`;
const PEOPLE = 20;

function parseArgs(argv) {
  const opts = { build: true, seconds: 30, rate: 20, sockets: 50, history: 100_000 };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--no-build") opts.build = false;
    else if (["--seconds", "--rate", "--sockets", "--history"].includes(a)) opts[a.slice(2)] = Number(argv[++i]);
    else throw new Error(`Unknown option ${a}`);
  }
  return opts;
}

/** Bench people (sharing the staff member's password hash), a live room for everyone, a room with a long history. */
function benchSql(history) {
  return `
INSERT OR IGNORE INTO users (id, tenant_id, email, display_name, role, password_hash, password_changed_at, created_at, updated_at)
  WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${PEOPLE})
  SELECT 'usr_bench_' || i, 'tnt_acme', 'bench' || i || '@acme.test', 'Bench ' || i, 'standard', u.password_hash, 0, 0, 0
  FROM n, users u WHERE u.id = 'usr_acme_staff';
INSERT OR IGNORE INTO chat_rooms (id, tenant_id, kind, name, everyone, created_by, created_at, last_activity_at)
  VALUES ('chr_bench_live', 'tnt_acme', 'group', 'Bench live', 1, 'usr_acme_admin', 0, 0),
         ('chr_bench_history', 'tnt_acme', 'group', 'Bench history', 1, 'usr_acme_admin', 0, 0);
INSERT OR IGNORE INTO chat_messages (id, tenant_id, room_id, sender_id, client_id, text, created_at)
  WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${history})
  SELECT 'chm_bench_' || i, 'tnt_acme', 'chr_bench_history', CASE i % 2 WHEN 0 THEN 'usr_acme_admin' ELSE 'usr_acme_staff' END,
    'bench-' || i, 'History message ' || i || ': delivery note and a link https://example.com/' || i, 1700000000000 + i * 1000
  FROM n;
`;
}

const signIn = (email) => signInAt(ORIGIN, email);

const lookup = (_host, opts, cb) => (opts && opts.all ? cb(null, [{ address: "127.0.0.1", family: 4 }]) : cb(null, "127.0.0.1", 4));

function connect(cookie, roomId) {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://acme.localhost:${PORT}/chat/${roomId}/socket`, { headers: { Cookie: cookie, Origin: ORIGIN }, lookup });
    const got = new Map();
    ws.on("message", (data) => {
      const frame = JSON.parse(String(data));
      if (frame.type === "ready") resolve({ ws, got });
      if (frame.type === "message") {
        const sent = Number(frame.message.clientId.split("-")[1]);
        if (!got.has(frame.message.clientId)) got.set(frame.message.clientId, performance.timeOrigin + performance.now() - sent);
      }
    });
    ws.on("error", reject);
    ws.on("unexpected-response", (_req, res) => reject(new Error(`socket refused: ${res.statusCode}`)));
  });
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const { server, persistTo: PERSIST_TO } = await startBench({
    name: "chat",
    port: PORT,
    build: opts.build,
    sql: benchSql(opts.history),
    seeded: `${PEOPLE} people and ${opts.history} history messages`,
  });
  try {
    const cookies = [];
    for (let i = 1; i <= PEOPLE; i++) cookies.push(await signIn(`bench${i}@acme.test`));
    const sockets = [];
    for (let i = 0; i < opts.sockets; i++) sockets.push(await connect(cookies[i % PEOPLE], "chr_bench_live"));
    const total = opts.seconds * opts.rate;
    const started = Date.now();
    for (let i = 0; i < total; i++) {
      const due = started + (i * 1000) / opts.rate;
      const wait = due - Date.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      const sender = sockets[i % PEOPLE];
      const now = performance.timeOrigin + performance.now();
      // The client id carries the send time, so each socket can time its delivery.
      sender.ws.send(JSON.stringify({ type: "send", clientId: `b${i}-${Math.round(now)}`, text: `Bench message ${i}` }));
    }
    // Let the last deliveries arrive.
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline && sockets.some((s) => s.got.size < total)) await new Promise((r) => setTimeout(r, 100));
    const latencies = sockets.flatMap((s) => [...s.got.values()]).sort((a, b) => a - b);
    const lost = total * sockets.length - latencies.length;
    for (const s of sockets) s.ws.close();
    const stored = /(\d+)/.exec(
      spawnSync(
        "npx",
        [
          "wrangler",
          "d1",
          "execute",
          "DB",
          "--local",
          "--persist-to",
          PERSIST_TO,
          "--json",
          "--command",
          "SELECT count(*) AS n FROM chat_messages WHERE room_id = 'chr_bench_live'",
        ],
        {
          cwd: ROOT,
          encoding: "utf8",
        },
      ).stdout.match(/"n":\s*(\d+)/)?.[0] ?? "",
    )?.[1];

    const admin = await signIn("admin@acme.test");
    const bare = await serial(`http://localhost:${PORT}/healthz`, "");
    const page = await serial(`${ORIGIN}/chat/chr_bench_history`, admin);
    if (page.status !== 200) throw new Error(`room page answered ${page.status}`);
    const rows = (page.body.match(/data-testid="message"/g) ?? []).length;

    console.log(`\n## Chat benchmark (built worker under wrangler dev, loopback)\n`);
    console.log(
      `${opts.sockets} sockets in one room (${PEOPLE} people), ${opts.rate} messages/s for ${opts.seconds} s (${total} messages, ${total * opts.sockets} deliveries):\n`,
    );
    console.log(`| stored | deliveries | lost | p50 ms | p95 ms | max ms |`);
    console.log(`|---|---|---|---|---|---|`);
    console.log(
      `| ${stored ?? "?"} | ${latencies.length} | ${lost} | ${pct(latencies, 0.5)?.toFixed(1)} | ${pct(latencies, 0.95)?.toFixed(1)} | ${latencies.at(-1)?.toFixed(1)} |`,
    );
    console.log(`\nRoom page with ${opts.history} messages, 30 serial requests (rows rendered: ${rows}, D1 round trips: ${page.d1}):\n`);
    console.log(`| case | p50 ms | p95 ms | p50 ratio to /healthz |`);
    console.log(`|---|---|---|---|`);
    console.log(`| /healthz | ${bare.p50.toFixed(1)} | ${bare.p95.toFixed(1)} | 1 |`);
    console.log(`| room page | ${page.p50.toFixed(1)} | ${page.p95.toFixed(1)} | ${(page.p50 / bare.p50).toFixed(1)} |`);
    if (lost > 0) process.exitCode = 1;
  } finally {
    await server.stop();
  }
}

await main();
