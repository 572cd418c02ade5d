// Prepares a machine for local development: secrets in .dev.vars, migrations and demo data
// in the local D1. Run by `npm run dev` (before `react-router dev`) and `npm run setup`;
// imported by tests/e2e/run.mjs and bench/run.mjs with their own --persist-to directory.
//
//   node scripts/setup-local.mjs [--persist-to DIR] [--quiet]
//
// Safe to run any number of times: .dev.vars is only ever added to, migrations are tracked
// by wrangler in d1_migrations, and the seed is INSERT OR IGNORE with fixed ids.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { appendFileSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";
import { devAppDomain, devPort } from "./dev-port.mjs";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const DEV_VARS = path.join(ROOT, ".dev.vars");

const secret = () => randomBytes(32).toString("base64url");

/** Each local secret and how to make a fresh one. Values follow env.d.ts. */
const LOCAL_SECRETS = {
  // Newest first; two so that rotation (sign with the first, accept any) is exercised locally.
  SESSION_SECRETS: () => `${secret()},${secret()}`,
  TOKEN_SECRET: secret,
  PII_KEYS: () => `1:${randomBytes(32).toString("base64")}`,
  PII_HMAC_KEY: secret,
  // version:secret; the seeded accounts' hashes depend on it, like real users' do (ADR 0009).
  PASSWORD_PEPPER: () => `1:${secret()}`,
  // Not a secret: HMRC submissions go to the development Transaction Engine (/dev/hmrc).
  HMRC_TRANSPORT: () => "fake",
};

function definedKeys(text) {
  const keys = new Set();
  for (const line of text.split(/\r?\n/)) {
    const m = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=/.exec(line);
    if (m) keys.add(m[1]);
  }
  return keys;
}

/**
 * Creates .dev.vars with random secrets, or appends the ones an existing file lacks.
 * Never changes a value that is already there: sessions and encrypted PII depend on them.
 */
export function ensureDevVars(file = DEV_VARS) {
  const exists = existsSync(file);
  const current = exists ? readFileSync(file, "utf8") : "";
  const have = definedKeys(current);
  const missing = Object.keys(LOCAL_SECRETS).filter((k) => !have.has(k));
  if (missing.length === 0) return { created: false, added: [] };
  const lines = missing.map((k) => `${k}=${LOCAL_SECRETS[k]()}`);
  if (!exists) {
    const header = "# Local secrets written by scripts/setup-local.mjs. Not committed; delete a line to regenerate it.\n";
    writeFileSync(file, `${header}${lines.join("\n")}\n`, { mode: 0o600 });
  } else {
    const sep = current === "" || current.endsWith("\n") ? "" : "\n";
    appendFileSync(file, `${sep}${lines.join("\n")}\n`);
  }
  return { created: !exists, added: missing };
}

/**
 * Runs a command through npx (so it gets the project's Node 24), capturing output and
 * printing it only on failure unless `echo` is set.
 */
export function run(cmd, args, { echo = false, env = {}, label = `${cmd} ${args.join(" ")}` } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, {
      cwd: ROOT,
      // CI=true makes wrangler skip its confirmation prompts.
      env: { ...process.env, CI: "true", ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    const onData = (stream) => (chunk) => {
      output += chunk;
      if (echo) stream.write(chunk);
    };
    child.stdout.on("data", onData(process.stdout));
    child.stderr.on("data", onData(process.stderr));
    child.on("error", reject);
    child.on("close", (code) => {
      if (code === 0) return resolve(output);
      if (!echo) process.stderr.write(output);
      reject(new Error(`${label} failed with exit code ${code}`));
    });
  });
}

const persistArgs = (persistTo) => (persistTo ? ["--persist-to", persistTo] : []);

/** Applies migrations/ to the local D1. `-c wrangler.toml` because after a build a bare
 *  wrangler would follow .wrangler/deploy/config.json to the generated config. */
export async function applyMigrations({ persistTo = null, echo = false } = {}) {
  const out = await run("npx", ["wrangler", "d1", "migrations", "apply", "DB", "--local", "-c", "wrangler.toml", ...persistArgs(persistTo)], {
    echo,
    label: "wrangler d1 migrations apply",
  });
  // wrangler redraws its table after each migration, so count distinct names.
  const applied = new Set([...out.matchAll(/│\s*(\S+\.sql)\s*│/g)].map((m) => m[1])).size;
  return { applied, upToDate: /No migrations to apply/i.test(out) };
}

const seedSqlFile = (persistTo) => path.join(".wrangler", persistTo ? `seed-${path.basename(persistTo)}.sql` : "seed.sql");

/** Runs scripts/seed.ts --sql-only: renders the seed to SQL and reports the demo accounts. */
export async function buildSeedSql({ persistTo = null } = {}) {
  const out = seedSqlFile(persistTo);
  const output = await run("npx", ["tsx", "scripts/seed.ts", "--sql-only", "--print-accounts", "--out", out], { label: "scripts/seed.ts" });
  let accounts = null;
  for (const line of output.split("\n")) {
    if (line.startsWith("SEED_ACCOUNTS ")) accounts = JSON.parse(line.slice("SEED_ACCOUNTS ".length));
    else if (line.startsWith("[seed] warning")) console.warn(line);
  }
  return { out, accounts };
}

export async function applySeedSql(file, { persistTo = null } = {}) {
  await run("npx", ["wrangler", "d1", "execute", "DB", "--local", "-c", "wrangler.toml", "--file", file, ...persistArgs(persistTo)], {
    label: "wrangler d1 execute (seed)",
  });
}

/** Everything a fresh checkout needs before a server can start. */
export async function setupLocal({ persistTo = null, quiet = false } = {}) {
  const log = quiet ? () => {} : (msg) => console.log(`[setup] ${msg}`);
  const t0 = Date.now();
  const vars = ensureDevVars();
  if (vars.created) log(`wrote .dev.vars with fresh random secrets (${vars.added.join(", ")})`);
  else if (vars.added.length) log(`added missing keys to .dev.vars: ${vars.added.join(", ")}`);
  const where = persistTo ? ` in ${persistTo}` : "";
  // wrangler takes ~3 s just to start here, so the seed SQL is rendered while migrations run;
  // the seed itself is applied once the tables exist.
  const [migrated, seedSql] = await Promise.all([applyMigrations({ persistTo }), buildSeedSql({ persistTo })]);
  log(migrated.upToDate ? `migrations up to date${where}` : `applied ${migrated.applied} migration(s)${where}`);
  await applySeedSql(seedSql.out, { persistTo });
  log(`seeded${where} (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
  return { accounts: seedSql.accounts };
}

/** Where everything is; `base` is APP_DOMAIN: localhost and the dev server's port (PORT, else 5173). */
export function printWelcome(accounts, base = devAppDomain(devPort({ argv: [] }))) {
  const url = (sub) => `http://${sub ? `${sub}.` : ""}${base}`;
  const places = [
    ["Public site", url()],
    ...(accounts?.tenants ?? []).map((t) => [t.name, url(t.slug)]),
    ["Dev mailbox", `${url()}/dev/mailbox  (sign-in codes and e-mail land here)`],
  ];
  const width = Math.max(...places.map(([label]) => label.length)) + 2;
  const lines = ["", "  Local workspace", ...places.map(([label, where]) => `    ${label.padEnd(width)}${where}`)];
  if (accounts) {
    lines.push("", `  Seeded accounts (password: ${accounts.password})`);
    for (const u of accounts.users)
      lines.push(`    ${u.email.padEnd(28)} ${u.role.padEnd(11)} ${u.tenant ? url(u.tenant) : url()}${u.note ? `  ${u.note}` : ""}`);
  }
  console.log(`${lines.join("\n")}\n`);
}

function parseArgs(argv) {
  const opts = { persistTo: null, quiet: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--persist-to") opts.persistTo = argv[++i];
    else if (a.startsWith("--persist-to=")) opts.persistTo = a.slice("--persist-to=".length);
    else if (a === "--quiet") opts.quiet = true;
    else throw new Error(`Unknown argument ${a}`);
  }
  return opts;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    const opts = parseArgs(process.argv.slice(2));
    const { accounts } = await setupLocal(opts);
    if (!opts.quiet) printWelcome(accounts);
  } catch (err) {
    console.error(`[setup] ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  }
}
