// `npm run bench:schedule [-- --no-build --events 20000 --connections 50 --duration 10]`
//
// The calendar on the built worker under `wrangler dev` (port 8806, or BENCH_SCHEDULE_PORT), with its
// own migrated and seeded state (.wrangler/bench-schedule-state) plus Acme's bench calendar: 200 people
// (standard, leads, managers) in 10 teams and 5 sites, 8 calendars of every type, and --events events
// (20,000) over three years (2025-2027): single events and weekly, daily and monthly series, of every
// type, status and visibility, shared as the event form shares them.
// Measured per page: autocannon at --connections (50) for --duration seconds (req/s as a ratio to the
// bare worker's /healthz in the same run), then 30 serial requests (p50, p95), and the D1 round trips
// its Server-Timing header reports. Pages: the day, week, month and year views and an event page as
// the admin (who sees every event), and the week and month views as a standard member (whose rows go
// through the visibility clause). Prints a Markdown table.
import { Buffer } from "node:buffer";
import os from "node:os";
import process from "node:process";
import { d1Trips, httpRequest, load, serial, serverCpuMs, signIn, startBench } from "./lib/server.mjs";

const PORT = Number(process.env.BENCH_SCHEDULE_PORT ?? 8806);
const tenant = (p) => `http://acme.localhost:${PORT}${p}`;
const PEOPLE = 200;
const DAY = 86_400_000;
const FROM = Date.UTC(2025, 0, 1);
const DAYS = 1095;

function parseArgs(argv) {
  const opts = { build: true, events: 20_000, connections: 50, duration: 10 };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--no-build") opts.build = false;
    else if (["--events", "--connections", "--duration"].includes(a)) opts[a.slice(2)] = Number(argv[++i]);
    else throw new Error(`Unknown option ${a}`);
  }
  return opts;
}

const counter = (n) => `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${n})`;

/** People, teams, sites and calendars; Acme's staff member belongs to the first team, site and calendar. */
function groupsSql() {
  const types = ["team", "project", "resource", "public", "team", "project", "resource", "personal"];
  const calendars = types.map((t, c) => `('cal_bench_${c}', 'tnt_acme', 'Bench ${t} ${c}', '#3B82F6', '${t}', 0, 'usr_acme_admin', 0, 0)`);
  return `
INSERT INTO users (id, tenant_id, email, display_name, role, password_hash, password_changed_at, created_at, updated_at)
  ${counter(PEOPLE)}
  SELECT 'usr_bench_' || i, 'tnt_acme', 'bench' || i || '@acme.test', 'Bench ' || i,
    CASE WHEN i % 20 = 0 THEN 'manager' WHEN i % 10 = 0 THEN 'lead' ELSE 'standard' END, u.password_hash, 0, 0, 0
  FROM n, users u WHERE u.id = 'usr_acme_staff';
INSERT INTO teams (id, tenant_id, name, created_at) ${counter(10)} SELECT 'team_bench_' || i, 'tnt_acme', 'Bench team ' || i, 0 FROM n;
INSERT INTO sites (id, tenant_id, name, created_at) ${counter(5)} SELECT 'site_bench_' || i, 'tnt_acme', 'Bench site ' || i, 0 FROM n;
INSERT INTO team_members (tenant_id, team_id, user_id) ${counter(PEOPLE)} SELECT 'tnt_acme', 'team_bench_' || (i % 10 + 1), 'usr_bench_' || i FROM n;
INSERT INTO site_members (tenant_id, site_id, user_id) ${counter(PEOPLE)} SELECT 'tnt_acme', 'site_bench_' || (i % 5 + 1), 'usr_bench_' || i FROM n;
INSERT INTO team_members (tenant_id, team_id, user_id) VALUES ('tnt_acme', 'team_bench_1', 'usr_acme_staff');
INSERT INTO site_members (tenant_id, site_id, user_id) VALUES ('tnt_acme', 'site_bench_1', 'usr_acme_staff');
INSERT INTO calendars (id, tenant_id, name, color, type, archived, created_by, created_at, updated_at) VALUES
  ${calendars.join(",\n  ")};
INSERT INTO calendar_members (tenant_id, calendar_id, user_id) ${counter(PEOPLE)} SELECT 'tnt_acme', 'cal_bench_' || (i % 8), 'usr_bench_' || i FROM n;
INSERT INTO calendar_members (tenant_id, calendar_id, user_id) VALUES ('tnt_acme', 'cal_bench_0', 'usr_acme_staff');
`;
}

/**
 * `n` events: about 18 a day between 06:00 and 18:00 UTC, one in 25 a series (weekly on three
 * weekdays for 12 times, daily for 5, or monthly for 6), visibility cycling through the five, a third in
 * the personal calendar. Shares are written as saving the form writes them.
 */
function eventsSql(n) {
  const types = ["shift", "task", "delivery", "training", "meeting"];
  const typeCase = types.map((t, k) => `WHEN ${k} THEN '${t}'`).join(" ");
  const start = `(${FROM} + (i % ${DAYS}) * ${DAY} + (6 + i % 12) * 3600000)`;
  const end = `(${start} + (1 + i % 3) * 3600000)`;
  return `
INSERT INTO events (id, tenant_id, title, start_utc, end_utc, type, status, visibility, calendar_id, site_id, shared_all, rrule, repeat_until, exdates, series_id, created_by, created_at, updated_at)
  ${counter(n)}
  SELECT 'evt_bench_' || i, 'tnt_acme', 'Bench ' || (CASE i % 5 ${typeCase} END) || ' ' || i, ${start}, ${end},
    CASE i % 5 ${typeCase} END, CASE i % 7 WHEN 0 THEN 'red' WHEN 1 THEN 'amber' ELSE 'green' END,
    CASE (i / 5) % 5 WHEN 0 THEN 'private' WHEN 1 THEN 'users' WHEN 2 THEN 'team' WHEN 3 THEN 'site' ELSE 'org' END,
    CASE WHEN i % 3 = 0 THEN NULL ELSE 'cal_bench_' || (i % 8) END,
    CASE WHEN (i / 5) % 5 = 3 THEN 'site_bench_' || (i % 5 + 1) END,
    CASE WHEN (i / 5) % 5 >= 2 THEN 1 ELSE 0 END,
    CASE WHEN i % 25 <> 0 THEN NULL WHEN i % 75 = 0 THEN 'FREQ=MONTHLY;COUNT=6' WHEN i % 50 = 0 THEN 'FREQ=DAILY;COUNT=5'
      ELSE 'FREQ=WEEKLY;BYDAY=MO,WE,FR;COUNT=12' END,
    CASE WHEN i % 25 <> 0 THEN NULL WHEN i % 75 = 0 THEN ${end} + 186 * ${DAY} WHEN i % 50 = 0 THEN ${end} + 5 * ${DAY}
      ELSE ${end} + 28 * ${DAY} END,
    NULL, NULL, 'usr_bench_' || (i % ${PEOPLE} + 1), 0, 0
  FROM n;
INSERT INTO event_shares (tenant_id, event_id, user_id)
  SELECT tenant_id, id, created_by FROM events WHERE id LIKE 'evt_bench_%' AND visibility IN ('private', 'users');
INSERT OR IGNORE INTO event_shares (tenant_id, event_id, user_id)
  SELECT tenant_id, id, 'usr_bench_' || ((CAST(substr(id, 11) AS INTEGER) * 7) % ${PEOPLE} + 1) FROM events WHERE id LIKE 'evt_bench_%' AND visibility = 'users';
INSERT OR IGNORE INTO event_shares (tenant_id, event_id, user_id)
  SELECT tenant_id, id, 'usr_acme_staff' FROM events WHERE id LIKE 'evt_bench_%' AND visibility = 'users' AND CAST(substr(id, 11) AS INTEGER) % 50 = 5;
INSERT INTO event_teams (tenant_id, event_id, team_id)
  SELECT e.tenant_id, e.id, m.team_id FROM events e JOIN team_members m ON m.tenant_id = e.tenant_id AND m.user_id = e.created_by
  WHERE e.id LIKE 'evt_bench_%' AND e.visibility = 'team';
`;
}

/** The pages measured; the event page is a single event in the middle of the `n`. */
function cases(admin, staff, n) {
  const a = { Cookie: admin };
  const s = { Cookie: staff };
  return [
    { name: "bare worker /healthz", url: `http://localhost:${PORT}/healthz`, headers: {} },
    { name: "day view (admin)", url: tenant("/schedule?view=day&date=2026-03-18&hours=24h"), headers: a },
    { name: "week view (admin)", url: tenant("/schedule?view=week&date=2026-03-18"), headers: a },
    { name: "month view (admin)", url: tenant("/schedule?view=month&date=2026-03-18"), headers: a },
    { name: "year view (admin)", url: tenant("/schedule?view=year&date=2026-03-18"), headers: a },
    { name: "event page (admin)", url: tenant(`/schedule/evt_bench_${Math.floor(n / 2) + 1}`), headers: a },
    { name: "week view (standard member)", url: tenant("/schedule?view=week&date=2026-03-18"), headers: s },
    { name: "month view (standard member)", url: tenant("/schedule?view=month&date=2026-03-18"), headers: s },
  ];
}

/** Waits until the server has worked off the previous load (its /healthz answers within 200 ms again). */
async function drain() {
  for (let i = 0; i < 60; i++) {
    const t = Date.now();
    const ok = await httpRequest(`http://localhost:${PORT}/healthz`).then(
      () => true,
      () => false,
    );
    if (ok && Date.now() - t < 200) return;
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}

/** D1 rows read as the development counter reports them in Server-Timing, or null. */
function rowsRead(res) {
  const m = /\bd1rows;[^,]*\bdur=(\d+)/.exec(String(res.headers["server-timing"] ?? ""));
  return m ? Number(m[1]) : null;
}

async function measure(c, opts) {
  await drain();
  const probe = await httpRequest(c.url, { headers: c.headers });
  if (probe.status !== 200) throw new Error(`${c.name} answered ${probe.status}`);
  const events = (probe.body.match(/href="\/schedule\/evt_bench_/g) ?? []).length;
  await load(c.url, c.headers, { connections: opts.connections, duration: 2 });
  await drain();
  const cpuBefore = serverCpuMs(PORT);
  const r = await load(c.url, c.headers, opts);
  const cpuAfter = serverCpuMs(PORT);
  const cpu = cpuBefore !== null && cpuAfter !== null && r.requests > 0 ? (cpuAfter - cpuBefore) / r.requests : null;
  await drain();
  // One request at a time, all answered: the server's CPU per request without queueing or time-outs.
  const serialBefore = serverCpuMs(PORT);
  const s = await serial(c.url, c.headers.Cookie ?? "", 30);
  const serialAfter = serverCpuMs(PORT);
  const cpuSerial = serialBefore !== null && serialAfter !== null ? (serialAfter - serialBefore) / 33 : null;
  const html = Buffer.byteLength(probe.body) / 1024;
  const row = { ...c, ...r, cpu, cpuSerial, html, rows: rowsRead(probe), p50: s.p50, p95: s.p95, d1: d1Trips(probe) ?? 0, events };
  console.log(
    `[bench:schedule] ${c.name}: ${r.rps.toFixed(0)} req/s, CPU ${cpu?.toFixed(1) ?? "n/a"} ms/req under load, ${cpuSerial?.toFixed(1) ?? "n/a"} one at a time, p50 ${s.p50.toFixed(1)} ms, p95 ${s.p95.toFixed(1)} ms, ${html.toFixed(0)} KB, D1 ${row.d1} (${row.rows ?? "n/a"} rows), errors ${r.errors}`,
  );
  return row;
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const sql = groupsSql() + eventsSql(opts.events);
  const seeded = `${PEOPLE} people, 10 teams, 5 sites, 8 calendars, ${opts.events} events`;
  const { server } = await startBench({ name: "schedule", port: PORT, build: opts.build, sql, seeded });
  try {
    const admin = await signIn(tenant(""), "admin@acme.test");
    const staff = await signIn(tenant(""), "staff@acme.test");
    const rows = [];
    for (const c of cases(admin, staff, opts.events)) rows.push(await measure(c, opts));
    const base = rows[0].rps;
    const loadAvg = os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(" ");
    console.log(
      `\n${opts.events} events over 2025-2027, autocannon -c${opts.connections} -d${opts.duration}s on loopback; p50/p95 of 30 serial requests; load average ${loadAvg}:\n`,
    );
    console.log(
      "| page | req/s | ratio to /healthz | server CPU ms/req under load | server CPU ms/req one at a time | p50 ms | p95 ms | HTML KB | D1 round trips | D1 rows read | bench events linked | errors |",
    );
    console.log("|---|---|---|---|---|---|---|---|---|---|---|---|");
    for (const r of rows) {
      console.log(
        `| ${r.name} | ${r.rps.toFixed(0)} | ${(r.rps / base).toFixed(2)} | ${r.cpu?.toFixed(1) ?? "n/a"} | ${r.cpuSerial?.toFixed(1) ?? "n/a"} | ${r.p50.toFixed(1)} | ${r.p95.toFixed(1)} | ${r.html.toFixed(0)} | ${r.d1} | ${r.rows ?? "n/a"} | ${r.events} | ${r.errors} |`,
      );
    }
    const over = rows.filter((r) => r.d1 > 2);
    if (over.length) throw new Error(`more than two D1 round trips: ${over.map((r) => r.name).join(", ")}`);
  } finally {
    await server.stop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
