/// <reference types="node" />
/**
 * Seeds the local D1 database with the demo tenants and accounts.
 *
 *   npx tsx scripts/seed.ts [--persist-to DIR] [--out FILE] [--sql-only] [--print-accounts]
 *
 * The seed functions in app/db/seed.ts are written against drizzle, so they run unchanged
 * against D1 in the integration tests. Here they run against a sqlite-proxy drizzle whose
 * callback only records each statement; the statements are rendered to one SQL file and
 * handed to `wrangler d1 execute --local`, which writes the same local state that
 * `react-router dev` and `wrangler dev` read. The seed uses fixed ids and INSERT OR IGNORE,
 * so applying the file again changes nothing.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { drizzle } from "drizzle-orm/sqlite-proxy";
import * as seedModule from "../app/db/seed";

type ProxyDb = ReturnType<typeof drizzle>;
/** What a seed may need besides the database: the local secrets, from .dev.vars. */
export type SeedEnv = { vars: Record<string, string> };
type SeedFn = (db: ProxyDb, env: SeedEnv) => Promise<void>;

function requireVar(env: SeedEnv, name: string): string {
  const v = env.vars[name];
  if (!v) throw new Error(`${name} is missing from .dev.vars: run \`npm run setup\` first`);
  return v;
}

/**
 * Every seed function, in the order it must run (later seeds may refer to rows of earlier
 * ones). Add new `seed*` exports from app/db/seed.ts here.
 */
export const SEEDS: { name: string; run: SeedFn }[] = [
  // Passwords are peppered with the same secret the local server reads, or nobody could sign in.
  { name: "seedPlatform", run: (db, env) => seedModule.seedPlatform(db, { pepper: requireVar(env, "PASSWORD_PEPPER") }) },
  // PII is encrypted with the same keys the local server reads, or it could not decrypt it.
  { name: "seedCis", run: (db, env) => seedModule.seedCis(db, { piiKeys: requireVar(env, "PII_KEYS"), hmacKey: requireVar(env, "PII_HMAC_KEY") }) },
  // Dates are relative to the day the seed runs; fixed ids keep a later run from adding more.
  { name: "seedCisInvoices", run: (db) => seedModule.seedCisInvoices(db) },
  { name: "seedChat", run: (db) => seedModule.seedChat(db) },
  { name: "seedNotes", run: (db) => seedModule.seedNotes(db) },
  { name: "seedSchedule", run: (db) => seedModule.seedSchedule(db) },
];

/** KEY=VALUE lines of a .dev.vars file (quotes around a value are removed). */
export function readDevVars(file = ".dev.vars"): Record<string, string> {
  if (!existsSync(file)) return {};
  const vars: Record<string, string> = {};
  for (const line of readFileSync(file, "utf8").split(/\r?\n/)) {
    const m = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*?)\s*$/.exec(line);
    if (!m) continue;
    const raw = m[2];
    vars[m[1]] = /^(["']).*\1$/.test(raw) ? raw.slice(1, -1) : raw;
  }
  return vars;
}

export type CollectedStatement = { sql: string; params: unknown[] };

/** Runs the seeds against a drizzle instance that only records what it would execute. */
export async function collectSeedStatements(env: SeedEnv, seeds = SEEDS): Promise<CollectedStatement[]> {
  const statements: CollectedStatement[] = [];
  const db = drizzle(
    async (sql, params) => {
      statements.push({ sql, params });
      // Nothing is executed, so reads see an empty database: seeds must not depend on them.
      return { rows: [] };
    },
    async (batch) => {
      for (const q of batch) statements.push({ sql: q.sql, params: q.params });
      return batch.map(() => ({ rows: [] }));
    },
  );
  for (const seed of seeds) await seed.run(db, env);
  return statements;
}

/** One parameter as an SQLite literal. Anything we cannot render exactly is an error, not a guess. */
export function sqlLiteral(value: unknown): string {
  if (value === null || value === undefined) return "NULL";
  if (typeof value === "boolean") return value ? "1" : "0";
  if (typeof value === "bigint") return value.toString();
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw new Error(`Cannot render non-finite number ${value} as SQL`);
    return String(value);
  }
  if (typeof value === "string") {
    // A NUL would silently truncate the literal in SQLite's parser.
    if (value.includes("\0")) throw new Error("Cannot render a string containing NUL as an SQL literal");
    return `'${value.replaceAll("'", "''")}'`;
  }
  if (value instanceof Uint8Array || value instanceof ArrayBuffer) {
    const bytes = value instanceof ArrayBuffer ? new Uint8Array(value) : value;
    return `X'${Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("hex")}'`;
  }
  throw new Error(`Cannot render a ${Object.prototype.toString.call(value)} parameter as SQL`);
}

/**
 * Replaces each `?` placeholder with its literal. Placeholders inside quoted strings,
 * quoted identifiers and comments are left alone; drizzle quotes identifiers with ".
 */
export function inlineParams(sql: string, params: unknown[]): string {
  let out = "";
  let next = 0;
  let i = 0;
  while (i < sql.length) {
    const ch = sql[i];
    if (ch === "'" || ch === '"' || ch === "`" || ch === "[") {
      const close = ch === "[" ? "]" : ch;
      let j = i + 1;
      for (;;) {
        if (j >= sql.length) throw new Error(`Unterminated ${ch} in SQL: ${sql}`);
        if (sql[j] === close) {
          // A doubled quote is an escaped quote, not the end.
          if (close !== "]" && sql[j + 1] === close) {
            j += 2;
            continue;
          }
          break;
        }
        j++;
      }
      out += sql.slice(i, j + 1);
      i = j + 1;
    } else if (ch === "-" && sql[i + 1] === "-") {
      const end = sql.indexOf("\n", i);
      const stop = end === -1 ? sql.length : end;
      out += sql.slice(i, stop);
      i = stop;
    } else if (ch === "/" && sql[i + 1] === "*") {
      const end = sql.indexOf("*/", i + 2);
      if (end === -1) throw new Error(`Unterminated comment in SQL: ${sql}`);
      out += sql.slice(i, end + 2);
      i = end + 2;
    } else if (ch === "?") {
      if (/[0-9]/.test(sql[i + 1] ?? "")) throw new Error(`Numbered placeholders are not supported: ${sql}`);
      if (next >= params.length) throw new Error(`More placeholders than parameters in: ${sql}`);
      out += sqlLiteral(params[next++]);
      i++;
    } else {
      out += ch;
      i++;
    }
  }
  if (next !== params.length) throw new Error(`${params.length} parameters but ${next} placeholders in: ${sql}`);
  return out;
}

export function renderSeedSql(statements: CollectedStatement[]): string {
  const body = statements.map((s) => `${inlineParams(s.sql, s.params).trim().replace(/;+$/, "")};`).join("\n");
  return `-- Written by scripts/seed.ts. Idempotent: fixed ids, INSERT ... ON CONFLICT DO NOTHING.\n${body}\n`;
}

function parseArgs(argv: string[]) {
  const opts = { persistTo: null as string | null, out: path.join(".wrangler", "seed.sql"), sqlOnly: false, printAccounts: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = () => {
      const v = argv[++i];
      if (!v) throw new Error(`${a} needs a value`);
      return v;
    };
    if (a === "--persist-to") opts.persistTo = value();
    else if (a.startsWith("--persist-to=")) opts.persistTo = a.slice("--persist-to=".length);
    else if (a === "--out") opts.out = value();
    else if (a.startsWith("--out=")) opts.out = a.slice("--out=".length);
    else if (a === "--sql-only") opts.sqlOnly = true;
    else if (a === "--print-accounts") opts.printAccounts = true;
    else throw new Error(`Unknown argument ${a}`);
  }
  return opts;
}

/** The demo tenants and sign-ins, for scripts/setup-local.mjs to print. */
export function seededAccounts() {
  const slugOf = new Map(seedModule.SEED_TENANTS.map((t) => [t.id, t.slug]));
  return {
    password: seedModule.SEED_PASSWORD,
    tenants: seedModule.SEED_TENANTS.map((t) => ({ slug: t.slug, name: t.name })),
    users: [
      ...seedModule.SEED_USERS.map((u) => ({
        email: u.email,
        role: u.role,
        tenant: slugOf.get(u.tenantId) ?? null,
        note: u.twoFactorRequired ? "(two-factor on)" : "",
      })),
      // The platform super-admin lives outside any tenant and signs in on the bare domain.
      { email: "superadmin@workspace.test", role: "superadmin", tenant: null, note: "" },
    ],
  };
}

/** Exported seed* functions that SEEDS does not run: almost certainly a forgotten entry. */
function forgottenSeeds(): string[] {
  const listed = new Set(SEEDS.map((s) => s.name));
  return Object.entries(seedModule)
    .filter(([name, v]) => /^seed[A-Z]/.test(name) && typeof v === "function" && !listed.has(name))
    .map(([name]) => name);
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const forgotten = forgottenSeeds();
  if (forgotten.length) console.warn(`[seed] warning: app/db/seed.ts exports ${forgotten.join(", ")} but scripts/seed.ts SEEDS does not run them`);

  const statements = await collectSeedStatements({ vars: readDevVars() });
  mkdirSync(path.dirname(opts.out), { recursive: true });
  writeFileSync(opts.out, renderSeedSql(statements));
  console.log(`[seed] ${statements.length} statements from ${SEEDS.map((s) => s.name).join(", ")} -> ${opts.out}`);
  // One machine-readable line: setup-local.mjs picks it out of the output.
  if (opts.printAccounts) console.log(`SEED_ACCOUNTS ${JSON.stringify(seededAccounts())}`);
  if (opts.sqlOnly) return;

  // -c wrangler.toml: after `react-router build` a bare wrangler would follow
  // .wrangler/deploy/config.json to the built config instead.
  const args = ["wrangler", "d1", "execute", "DB", "--local", "-c", "wrangler.toml", "--file", opts.out];
  if (opts.persistTo) args.push("--persist-to", opts.persistTo);
  const r = spawnSync("npx", args, { stdio: ["ignore", "pipe", "pipe"], encoding: "utf8", env: { ...process.env, CI: "true" } });
  if (r.status !== 0) {
    process.stdout.write(r.stdout ?? "");
    process.stderr.write(r.stderr ?? "");
    throw new Error(`wrangler d1 execute failed (exit ${r.status})`);
  }
  console.log(`[seed] applied to the local D1${opts.persistTo ? ` in ${opts.persistTo}` : ""}`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  main().catch((err) => {
    console.error(`[seed] ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  });
}
