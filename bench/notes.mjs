// `npm run bench:notes [-- --no-build --notes 10000 --connections 50 --duration 10]`
//
// The notes lists on the built worker under `wrangler dev` (port 8801, or BENCH_NOTES_PORT), with
// their own migrated and seeded state (.wrangler/bench-notes-state) plus --notes notes for Acme's
// admin (10,000 by default; the search index fills itself through the triggers on `notes`).
// Measured with autocannon at --connections (50) for --duration seconds each: the bare worker's
// /healthz (no router, no D1) as the baseline, the all list, a deep keyset page, and a search.
// Each page's D1 round trips are read from its Server-Timing header. Prints a Markdown table.
import process from "node:process";
import { d1Trips, httpRequest, load, signIn, startBench } from "./lib/server.mjs";

const PORT = Number(process.env.BENCH_NOTES_PORT ?? 8801);
const tenant = (p) => `http://acme.localhost:${PORT}${p}`;

function parseArgs(argv) {
  const opts = { build: true, notes: 10_000, connections: 50, duration: 10 };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--no-build") opts.build = false;
    else if (a === "--notes") opts.notes = Number(argv[++i]);
    else if (a === "--connections") opts.connections = Number(argv[++i]);
    else if (a === "--duration") opts.duration = Number(argv[++i]);
    else throw new Error(`Unknown option ${a}`);
  }
  return opts;
}

const WORDS = ["snagging", "scaffold", "drainage", "roofing", "brickwork", "plaster", "electrics", "handover", "delivery", "safety"];

function notesSql(n) {
  // One INSERT ... SELECT over a recursive counter: the admin's notes, one update a minute apart,
  // each naming two trades so a search matches about a fifth of them.
  const words = WORDS.map((w, i) => `WHEN ${i} THEN '${w}'`).join(" ");
  return `INSERT INTO notes (id, tenant_id, title, content, text, tags, color, folder_id, is_pinned, is_favorite, owner_id, updated_by, version, created_at, updated_at, deleted_at)
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${n})
SELECT 'bench_note_' || i, 'tnt_acme', 'Bench note ' || i || ' ' || (CASE i % 10 ${words} END),
  '<p>Plot ' || (i % 40) || ': ' || (CASE (i / 10) % 10 ${words} END) || ' checked.</p>',
  'Plot ' || (i % 40) || ': ' || (CASE (i / 10) % 10 ${words} END) || ' checked.',
  '["bench","site"]', NULL, NULL, CASE WHEN i % 1000 = 0 THEN 1 ELSE 0 END, 0, 'usr_acme_admin', 'usr_acme_admin', 1,
  1700000000000 + i * 60000, 1700000000000 + i * 60000, NULL
FROM n;
`;
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const { server } = await startBench({ name: "notes", port: PORT, build: opts.build, sql: notesSql(opts.notes), seeded: `${opts.notes} notes` });
  try {
    const cookie = await signIn(tenant(""), "admin@acme.test");
    const first = await httpRequest(tenant("/notes/all"), { headers: { Cookie: cookie } });
    const next = /href="\/notes\/all\?after=([^"]+)"/.exec(first.body)?.[1];
    if (first.status !== 200 || !next) throw new Error(`/notes/all answered ${first.status} without a next page`);
    const cases = [
      { name: "bare worker /healthz", url: `http://localhost:${PORT}/healthz`, headers: {} },
      { name: "notes all list", url: tenant("/notes/all"), headers: { Cookie: cookie } },
      { name: "notes list, second page (keyset)", url: tenant(`/notes/all?after=${next}`), headers: { Cookie: cookie } },
      { name: "notes search 'snag'", url: tenant("/notes/all?q=snag"), headers: { Cookie: cookie } },
      { name: "notes search 'drain plot'", url: tenant("/notes/all?q=drain%20plot"), headers: { Cookie: cookie } },
    ];
    const rows = [];
    for (const c of cases) {
      const probe = await httpRequest(c.url, { headers: c.headers });
      if (probe.status !== 200) throw new Error(`${c.name} answered ${probe.status}`);
      await load(c.url, c.headers, { connections: opts.connections, duration: 2 });
      const r = await load(c.url, c.headers, opts);
      rows.push({ ...c, ...r, d1: d1Trips(probe) ?? 0 });
      console.log(`[bench:notes] ${c.name}: ${r.rps.toFixed(0)} req/s, p50 ${r.p50} ms, p97.5 ${r.p97} ms, errors ${r.errors}`);
    }
    const base = rows[0].rps;
    console.log(`\n${opts.notes} notes, autocannon -c${opts.connections} -d${opts.duration}s on loopback:\n`);
    console.log("| case | req/s | ratio to /healthz | p50 ms | p97.5 ms | D1 round trips | errors |");
    console.log("|---|---|---|---|---|---|---|");
    for (const r of rows) console.log(`| ${r.name} | ${r.rps.toFixed(0)} | ${(r.rps / base).toFixed(2)} | ${r.p50} | ${r.p97} | ${r.d1} | ${r.errors} |`);
  } finally {
    await server.stop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
