// `npm run bench:files [-- --no-build --files 10000 --mb 50 --multipart-mb 200]`
//
// The files area on the built worker under `wrangler dev` (port 8789, or BENCH_FILES_PORT), with its
// own migrated and seeded state (.wrangler/bench-files-state):
//  1. one upload of --mb MB (50 by default) through the no-JavaScript form's endpoint, streamed from
//     this process with its Content-Length: wall time, throughput, and the resident memory of the
//     server's processes (workerd) before and at peak during the upload, sampled from /proc every
//     25 ms. A Worker that buffered the body would grow by at least the file's size.
//  2. one upload of --multipart-mb MB (200 by default; 0 skips it) in parts, as the upload screen's
//     script sends a file above the Worker's body limit: declare, 10 MiB parts by PUT one at a
//     time, complete; the same wall time, throughput and memory figures.
//  3. /files/all with --files rows (10,000 by default) for Acme: an admin (manages all files) and a
//     standard member (the visibility filter's EXISTS on the access list): serial latency over 30
//     requests, D1 queries per request (Server-Timing), and a check that one page (50) is rendered.
// Prints the figures and a Markdown summary.
/* global setInterval, clearInterval */
import { Buffer } from "node:buffer";
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import process from "node:process";
import { httpRequest, ROOT, serial as serialTimes, signIn as signInAt, startBench } from "./lib/server.mjs";

const PORT = Number(process.env.BENCH_FILES_PORT ?? 8789);
const tenant = (p) => `http://acme.localhost:${PORT}${p}`;

function parseArgs(argv) {
  const opts = { build: true, files: 10_000, mb: 50, multipartMb: 200 };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--no-build") opts.build = false;
    else if (a === "--files") opts.files = Number(argv[++i]);
    else if (a === "--mb") opts.mb = Number(argv[++i]);
    else if (a === "--multipart-mb") opts.multipartMb = Number(argv[++i]);
    else throw new Error(`Unknown option ${a}`);
  }
  return opts;
}

const signIn = (email) => signInAt(tenant(""), email);

/** PIDs in the process group of the `wrangler dev` serving PORT (wrangler, workerd). */
function serverPids() {
  const r = spawnSync("ps", ["-eo", "pid=,pgid=,args="], { encoding: "utf8" });
  const rows = (r.stdout ?? "")
    .split("\n")
    .map((l) => /^\s*(\d+)\s+(\d+)\s+(.*)$/.exec(l))
    .filter(Boolean);
  const leader = rows.find((m) => /wrangler(?:\.js)?\s+dev\b/.test(m[3]) && m[3].includes(`--port ${PORT}`));
  if (!leader) return [];
  return rows.filter((m) => m[2] === leader[2] && /workerd/.test(m[3])).map((m) => Number(m[1]));
}

function rssMb(pids) {
  let kb = 0;
  for (const pid of pids) {
    try {
      const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
      if (m) kb += Number(m[1]);
    } catch {
      // Gone.
    }
  }
  return kb / 1024;
}

/** Streams a multipart body of `bytes` file bytes to /files/upload with its Content-Length. */
function streamUpload(cookie, bytes) {
  const boundary = `----bench${Date.now()}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="visibility"\r\n\r\nprivate\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="bench-${bytes}.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const chunk = Buffer.alloc(1024 * 1024);
  for (let i = 0; i < chunk.length; i++) chunk[i] = (i * 7) & 0xff;
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: "127.0.0.1",
        port: PORT,
        path: "/files/upload",
        method: "POST",
        timeout: 300_000,
        headers: {
          Host: `acme.localhost:${PORT}`,
          Origin: tenant(""),
          Cookie: cookie,
          "Content-Type": `multipart/form-data; boundary=${boundary}`,
          "Content-Length": String(head.length + bytes + tail.length),
        },
      },
      (res) => {
        res.resume();
        res.on("end", () => resolve({ status: res.statusCode, location: res.headers.location }));
      },
    );
    req.on("error", reject);
    req.write(head);
    let sent = 0;
    const pump = () => {
      while (sent < bytes) {
        const n = Math.min(chunk.length, bytes - sent);
        sent += n;
        if (!req.write(n === chunk.length ? chunk : chunk.subarray(0, n))) return req.once("drain", pump);
      }
      req.end(tail);
    };
    pump();
  });
}

/** One request with a JSON or binary body; answers status and parsed JSON. */
function send(cookie, method, p, body, contentType) {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: "127.0.0.1",
        port: PORT,
        path: p,
        method,
        timeout: 300_000,
        headers: { Host: `acme.localhost:${PORT}`, Origin: tenant(""), Cookie: cookie, "Content-Type": contentType, "Content-Length": String(body.length) },
      },
      (res) => {
        const chunks = [];
        res.on("data", (c) => chunks.push(c));
        res.on("end", () => {
          const text = Buffer.concat(chunks).toString("utf8");
          let json;
          try {
            json = JSON.parse(text);
          } catch {
            json = { text };
          }
          resolve({ status: res.statusCode, json });
        });
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

/** A file of `bytes` sent in parts, one part request at a time, as the upload screen's script does. */
async function partsUpload(cookie, bytes) {
  const decl = Buffer.from(JSON.stringify({ name: `bench-parts-${bytes}.bin`, size: bytes, type: "application/octet-stream" }));
  const started = await send(cookie, "POST", "/files/upload/multipart", decl, "application/json");
  if (started.status !== 200) throw new Error(`multipart start answered ${started.status} ${JSON.stringify(started.json)}`);
  const { uploadId, partSize, partCount } = started.json;
  const part = Buffer.alloc(partSize);
  for (let i = 0; i < part.length; i++) part[i] = (i * 7) & 0xff;
  for (let n = 1; n <= partCount; n++) {
    const length = n < partCount ? partSize : bytes - (partCount - 1) * partSize;
    const r = await send(cookie, "PUT", `/files/upload/multipart/${uploadId}?part=${n}`, part.subarray(0, length), "application/octet-stream");
    if (r.status !== 200) throw new Error(`part ${n} answered ${r.status} ${JSON.stringify(r.json)}`);
  }
  const done = await send(cookie, "POST", `/files/upload/multipart/${uploadId}`, Buffer.from(JSON.stringify({ intent: "complete" })), "application/json");
  if (done.status !== 200) throw new Error(`complete answered ${done.status} ${JSON.stringify(done.json)}`);
  return { partSize, partCount };
}

function filesSql(n) {
  // One INSERT ... SELECT over a recursive counter: a third shared, a third restricted (to the
  // standard member every 10th), a third private; owners alternate between admin and lead.
  return `INSERT INTO files (id, tenant_id, name, size, stored_bytes, mime_type, category, storage_key, version, visibility, folder_id, owner_id, owner_email, owner_name, signed, pending_sign, created_at, updated_at)
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${n})
SELECT 'bench_file_' || i, 'tnt_acme', 'bench-' || printf('%05d', i) || '.pdf', 1000 + i, 1000 + i, 'application/pdf', 'pdf',
  'tenants/tnt_acme/files/bench_file_' || i || '/v1/original/bench.pdf', 1,
  CASE i % 3 WHEN 0 THEN 'shared' WHEN 1 THEN 'restricted' ELSE 'private' END, NULL,
  CASE i % 2 WHEN 0 THEN 'usr_acme_admin' ELSE 'usr_acme_lead' END, 'bench@acme.test', 'Bench Owner', 0, 0,
  1700000000000 + i * 1000, 1700000000000 + i * 1000
FROM n;
INSERT INTO file_access (tenant_id, file_id, user_id, via, created_at)
SELECT 'tnt_acme', id, 'usr_acme_staff', 'shared', 0 FROM files WHERE tenant_id = 'tnt_acme' AND visibility = 'restricted' AND CAST(substr(id, 12) AS INTEGER) % 10 = 1;
`;
}

/** Serial timing of a files list, with the rows it rendered and the total it names. */
async function serial(url, cookie) {
  const { body, ...timing } = await serialTimes(url, cookie);
  const rows = (body.match(/\bdata-file-id="/g) ?? []).length;
  const total = /(\d+)(?:<!-- -->)? file\(s\)/.exec(body)?.[1];
  return { ...timing, rows, total: Number(total ?? 0) };
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const { server, logFile: LOG_FILE } = await startBench({
    name: "files",
    port: PORT,
    build: opts.build,
    sql: filesSql(opts.files),
    seeded: `${opts.files} file rows`,
  });
  try {
    const admin = await signIn("admin@acme.test");
    const staff = await signIn("staff@acme.test");
    // Warm the worker (first requests compile it), then the memory baseline.
    await httpRequest(tenant("/files/all"), { headers: { Cookie: admin } });
    const pids = serverPids();
    /** One streamed upload: its time and the server's resident memory before and at peak. */
    async function measured(mb, how = "form") {
      const before = rssMb(pids);
      let peak = before;
      const sampler = setInterval(() => (peak = Math.max(peak, rssMb(pids))), 25);
      const t1 = process.hrtime.bigint();
      let parts = null;
      try {
        if (how === "parts") parts = await partsUpload(admin, Math.round(mb * 1024 * 1024));
        else {
          const up = await streamUpload(admin, Math.round(mb * 1024 * 1024));
          if (up.status !== 302 || up.location !== "/files/all") throw new Error(`upload answered ${up.status} ${up.location ?? ""}: see ${LOG_FILE}`);
        }
      } finally {
        clearInterval(sampler);
      }
      const seconds = Number(process.hrtime.bigint() - t1) / 1e9;
      return { how, mb, parts, seconds, mbPerSecond: mb / seconds, rssBeforeMb: before, rssPeakMb: peak, rssGrowthMb: peak - before };
    }
    // A small upload first, so the growth that does not depend on the size (R2 simulator, buffers) shows.
    const small = await measured(10);
    const upload = await measured(opts.mb);
    const inParts = opts.multipartMb > 0 ? await measured(opts.multipartMb, "parts") : null;

    const list = {
      admin: await serial(tenant("/files/all"), admin),
      adminSortedByName: await serial(tenant("/files/all?sort=name&dir=asc&page=50"), admin),
      adminSearch: await serial(tenant("/files/all?q=bench-0999"), admin),
      staff: await serial(tenant("/files/all"), staff),
    };
    for (const [name, r] of Object.entries(list)) {
      if (r.status !== 200) throw new Error(`${name}: ${r.status}`);
      if (r.rows > 50) throw new Error(`${name}: ${r.rows} rows rendered, more than one page`);
    }

    console.log(`\n## Files benchmark (built worker under wrangler dev, loopback)\n`);
    console.log(
      `Uploads (the form's multipart body streamed to R2 in 5 MiB parts; "in parts": the script's R2 multipart upload, one request per part); workerd resident memory over ${pids.length} process(es), which include the local R2 simulator:\n`,
    );
    console.log(`| upload | seconds | MB/s | RSS before MB | RSS peak MB | growth MB |`);
    console.log(`|---|---|---|---|---|---|`);
    for (const u of [small, upload, inParts].filter(Boolean))
      console.log(
        `| ${u.mb} MB${u.parts ? ` in parts (${u.parts.partCount} x ${u.parts.partSize / 1024 / 1024} MiB)` : ""} | ${u.seconds.toFixed(2)} | ${u.mbPerSecond.toFixed(1)} | ${u.rssBeforeMb.toFixed(0)} | ${u.rssPeakMb.toFixed(0)} | ${u.rssGrowthMb.toFixed(0)} |`,
      );
    console.log(`\n/files/all with ${opts.files} files (+${inParts ? 3 : 2} uploaded), 30 serial requests each:\n`);
    console.log(`| case | listed total | rows | D1 queries | p50 ms | p95 ms | max ms |`);
    console.log(`|---|---|---|---|---|---|---|`);
    for (const [name, r] of Object.entries(list))
      console.log(`| ${name} | ${r.total} | ${r.rows} | ${r.d1} | ${r.p50.toFixed(1)} | ${r.p95.toFixed(1)} | ${r.max.toFixed(1)} |`);
    const out = path.join(ROOT, "bench-results");
    try {
      readdirSync(out);
    } catch {
      spawnSync("mkdir", ["-p", out]);
    }
    writeFileSync(
      path.join(out, `files-${new Date().toISOString().replace(/[:.]/g, "-")}.json`),
      JSON.stringify({ uploads: [small, upload, inParts].filter(Boolean), list }, null, 2),
    );
  } finally {
    await server.stop();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
