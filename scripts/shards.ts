// `npm run db:shards -- <command>`: operations on the D1 shards of ADR 0064, against the local
// (wrangler --local) databases; with --remote nothing runs, the commands are printed instead.
//   migrate                         apply migrations/ to every D1 binding in wrangler.toml, DB first
//   provision <NAME>                a new shard DB_<NAME>: its wrangler.toml block, migrations, module catalogue
//   backup <tenantId> <file>        every row of one tenant (from --binding, default DB) into a JSON file
//   restore <file>                  replace the tenant's rows in --binding with the file's
//   move <tenantId> <binding>       suspend, copy, compare, switch tenants.shard in one write, delete the old rows
// Options: --remote, --binding DB_X, --persist-to DIR.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import process from "node:process";
import { MODULE_CATALOGUE } from "~/features/platform/module-catalogue";
import { compareDumps, type TenantDump } from "~/features/platform/shards/tenant-data.server";
import { DERIVED_TENANT_TABLES, deleteRowsSql, TENANT_TABLES } from "~/features/platform/shards/tenant-tables";

const ROOT = path.resolve(import.meta.dirname, "..");
const args = process.argv.slice(2);
const flag = (name: string) => {
  const i = args.indexOf(name);
  return i < 0 ? undefined : (args.splice(i, 2)[1] ?? "");
};
const remote = args.includes("--remote") && Boolean(args.splice(args.indexOf("--remote"), 1));
const persistTo = flag("--persist-to");
const binding = flag("--binding") ?? "DB";

/** The D1 bindings of wrangler.toml's top level (DB and DB_*), DB first. */
function shardBindings(): string[] {
  const toml = readFileSync(path.join(ROOT, "wrangler.toml"), "utf8").split(/^\[env\./m)[0]!;
  const names = [...toml.matchAll(/^\[\[d1_databases\]\]\s*\nbinding\s*=\s*"([^"]+)"/gm)].map((m) => m[1]!);
  return names.filter((n) => /^DB(_[A-Z0-9_]+)?$/.test(n)).sort((a, b) => (a === "DB" ? -1 : b === "DB" ? 1 : a.localeCompare(b)));
}

/** Runs wrangler locally, or prints the remote command it stands for. */
function wrangler(argv: string[], opts: { capture?: boolean } = {}): string {
  const where = remote ? ["--remote"] : ["--local", ...(persistTo ? ["--persist-to", persistTo] : [])];
  const full = ["wrangler", ...argv, ...where];
  if (remote) {
    console.log(`would run: npx ${full.map((a) => (/\s/.test(a) ? JSON.stringify(a) : a)).join(" ")}`);
    return "[]";
  }
  const res = spawnSync("npx", full, { cwd: ROOT, encoding: "utf8", stdio: opts.capture ? ["ignore", "pipe", "inherit"] : "inherit" });
  if (res.status !== 0) throw new Error(`wrangler ${argv.slice(0, 3).join(" ")} failed`);
  return res.stdout ?? "";
}

/** Where the SQL files handed to wrangler are written (kept: with --remote they are what to run). */
const sqlDir = () => mkdtempSync(path.join(os.tmpdir(), "shards-"));

const literal = (v: unknown) => (v === null || v === undefined ? "NULL" : typeof v === "number" ? String(v) : `'${String(v).replace(/'/g, "''")}'`);

function query<T>(db: string, sqlText: string): T[] {
  const out = wrangler(["d1", "execute", db, "--json", "--command", sqlText], { capture: true });
  const parsed = JSON.parse(out.slice(out.indexOf("["))) as { results: T[] }[];
  return parsed.flatMap((p) => p.results);
}

/** Every row of one tenant in `db`: one wrangler call, one SELECT per tenant table. */
function backup(db: string, tenantId: string): TenantDump {
  const selects = TENANT_TABLES.map((t) => `SELECT * FROM "${t.name}" WHERE "${t.key}" = ${literal(tenantId)} ORDER BY rowid`);
  const out = wrangler(["d1", "execute", db, "--json", "--command", selects.join("; ")], { capture: true });
  const sets = JSON.parse(out.slice(out.indexOf("["))) as { results: Record<string, unknown>[] }[];
  const dump: TenantDump = { format: 1, tenantId, exportedAt: Date.now(), tables: {} };
  TENANT_TABLES.forEach((t, i) => {
    dump.tables[t.name] = { columns: t.columns, rows: (sets[i]?.results ?? []).map((r) => t.columns.map((c) => r[c] ?? null)) };
  });
  return dump;
}

/** The SQL replacing the tenant's rows with the dump's: deletes (children first), then inserts (parents first). */
function restoreSql(dump: TenantDump, { keepTenantRow }: { keepTenantRow: boolean }): string {
  const lines = [...[...TENANT_TABLES].reverse().filter((t) => !(keepTenantRow && t.name === "tenants")), ...DERIVED_TENANT_TABLES].map(
    (t) => deleteRowsSql(t).replace("?", literal(dump.tenantId)) + ";",
  );
  for (const t of TENANT_TABLES) {
    if (keepTenantRow && t.name === "tenants") continue;
    const data = dump.tables[t.name];
    for (const row of data?.rows ?? [])
      lines.push(`INSERT INTO "${t.name}" (${data!.columns.map((c) => `"${c}"`).join(", ")}) VALUES (${row.map(literal).join(", ")});`);
  }
  return lines.join("\n");
}

function restore(db: string, dump: TenantDump) {
  const file = path.join(sqlDir(), `restore-${dump.tenantId}-${db}.sql`);
  writeFileSync(file, restoreSql(dump, { keepTenantRow: db === "DB" }));
  wrangler(["d1", "execute", db, "--file", file]);
}

function move(tenantId: string, to: string) {
  const [row] = query<{ shard: string | null; suspended_at: number | null }>("DB", `SELECT shard, suspended_at FROM tenants WHERE id = ${literal(tenantId)}`);
  const from = row?.shard ?? "DB";
  if (!remote && !row) throw new Error(`No tenant ${tenantId}`);
  const suspend = (db: string, at: string) =>
    wrangler(["d1", "execute", db, "--command", `UPDATE tenants SET suspended_at = ${at} WHERE id = ${literal(tenantId)}`]);
  const wasActive = !row || row.suspended_at === null;
  if (wasActive) for (const db of new Set(["DB", from])) suspend(db, String(Date.now()));
  const original = backup(from, tenantId);
  restore(to, original);
  if (!remote) {
    const { differing } = compareDumps(original, backup(to, tenantId));
    if (differing.some((t) => !(to === "DB" && t === "tenants"))) throw new Error(`The copy differs in ${differing.join(", ")}: the route was not switched`);
  }
  wrangler(["d1", "execute", "DB", "--command", `UPDATE tenants SET shard = ${to === "DB" ? "NULL" : literal(to)} WHERE id = ${literal(tenantId)}`]);
  const file = path.join(sqlDir(), `delete-${tenantId}-${from}.sql`);
  writeFileSync(file, restoreSql({ ...original, tables: {} }, { keepTenantRow: from === "DB" }));
  wrangler(["d1", "execute", from, "--file", file]);
  if (wasActive) for (const db of new Set(["DB", to])) suspend(db, "NULL");
  console.log(`[shards] ${tenantId}: ${from} -> ${to}. Wait a minute (each isolate's routing table) before resuming its parked work from the console.`);
}

function provision(name: string) {
  const shard = `DB_${name.toUpperCase().replace(/[^A-Z0-9_]/g, "_")}`;
  const database = `cis-workspace-${name.toLowerCase()}`;
  if (!shardBindings().includes(shard)) {
    console.log(`Add to wrangler.toml (and to SHARDS, comma-separated), after \`npx wrangler d1 create ${database}\`:\n`);
    console.log(
      `[[d1_databases]]\nbinding = "${shard}"\ndatabase_name = "${database}"\ndatabase_id = "<id from wrangler d1 create>"\nmigrations_dir = "migrations"\n`,
    );
    if (!remote) process.exit(1);
  }
  wrangler(["d1", "migrations", "apply", shard]);
  const rows = MODULE_CATALOGUE.map((m) => `(${[m.id, m.label, m.route, m.icon, "{}", m.sortOrder].map(literal).join(", ")})`);
  wrangler([
    "d1",
    "execute",
    shard,
    "--command",
    `INSERT OR REPLACE INTO modules (id, label, route, icon, default_config, sort_order) VALUES ${rows.join(", ")}`,
  ]);
}

const [command, ...rest] = args;
if (command === "migrate") for (const db of shardBindings()) wrangler(["d1", "migrations", "apply", db]);
else if (command === "provision" && rest[0]) provision(rest[0]);
else if (command === "backup" && rest[0] && rest[1]) writeFileSync(rest[1], JSON.stringify(backup(binding, rest[0])));
else if (command === "restore" && rest[0]) restore(binding, JSON.parse(readFileSync(rest[0], "utf8")) as TenantDump);
else if (command === "move" && rest[0] && rest[1]) move(rest[0], rest[1]);
else {
  console.error(
    "usage: npm run db:shards -- migrate | provision <NAME> | backup <tenantId> <file> | restore <file> | move <tenantId> <binding> [--remote] [--binding B] [--persist-to DIR]",
  );
  process.exit(2);
}
