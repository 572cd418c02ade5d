/// <reference types="node" />
/**
 * PII key rotation against the local D1 (default, `--local`) or the deployed one (`--remote`).
 *
 *   npx tsx scripts/rotate-keys.ts [--local | --remote] [--batch-size N] [--dry-run] [--persist-to DIR]
 *
 * Procedure:
 *   1. Add a new `version:base64(32 bytes)` entry to PII_KEYS, keeping the old ones
 *      (locally in .dev.vars; deployed with `wrangler secret put PII_KEYS`), and restart/deploy,
 *      so the app encrypts new values with it and still reads the old ones.
 *   2. Run this command with the same PII_KEYS. Locally it is read from .dev.vars; for --remote
 *      it must be in the environment (the deployed secret cannot be read back).
 *   3. When it reports nothing left on an older key, the old entries may be removed.
 *
 * Reads go through `wrangler d1 execute DB --json --command`, writes through a temporary SQL file
 * and `wrangler d1 execute DB --file`. The re-encryption is rotateWithPort from
 * app/features/cis/key-rotation.server.ts, the same code the Worker tests run. Running it twice
 * changes nothing the second time; an interrupted run resumes where it stopped.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";
import { describeRotation, rotateWithPort, type RotationPort, type SqlStatement } from "../app/features/cis/key-rotation.server";
import { parseKeySpec } from "../app/features/cis/pii.server";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

type Options = { remote: boolean; batchSize: number; dryRun: boolean; persistTo: string | null };

function parseArgs(argv: string[]): Options {
  const opts: Options = { remote: false, batchSize: 200, dryRun: false, persistTo: null };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--local") opts.remote = false;
    else if (a === "--remote") opts.remote = true;
    else if (a === "--dry-run") opts.dryRun = true;
    else if (a === "--batch-size" || a.startsWith("--batch-size=")) {
      const v = Number(a.includes("=") ? a.split("=")[1] : argv[++i]);
      if (!Number.isInteger(v) || v < 1 || v > 1000) throw new Error("--batch-size must be a whole number from 1 to 1000");
      opts.batchSize = v;
    } else if (a === "--persist-to") opts.persistTo = argv[++i];
    else if (a.startsWith("--persist-to=")) opts.persistTo = a.slice("--persist-to=".length);
    else if (a === "--help" || a === "-h") {
      console.log("Usage: npm run keys:rotate -- [--local | --remote] [--batch-size N] [--dry-run] [--persist-to DIR]");
      process.exit(0);
    } else throw new Error(`Unknown argument ${a}`);
  }
  if (opts.remote && opts.persistTo) throw new Error("--persist-to only applies to --local");
  return opts;
}

/** PII_KEYS from the environment, else (locally) from .dev.vars. */
function keySpec(remote: boolean): string {
  if (process.env.PII_KEYS) return process.env.PII_KEYS;
  if (remote) throw new Error("Set PII_KEYS in the environment to the deployed secret's value (old and new keys) for --remote");
  const file = path.join(ROOT, ".dev.vars");
  if (!existsSync(file)) throw new Error(".dev.vars not found: run `npm run setup` first, or set PII_KEYS");
  for (const line of readFileSync(file, "utf8").split(/\r?\n/)) {
    const m = /^\s*(?:export\s+)?PII_KEYS\s*=\s*(.*)$/.exec(line);
    if (m) return m[1].trim().replace(/^(["'])(.*)\1$/, "$2");
  }
  throw new Error("PII_KEYS is not set in .dev.vars");
}

function sqlLiteral(v: string | number | null): string {
  if (v === null) return "NULL";
  if (typeof v === "number") {
    if (!Number.isFinite(v)) throw new Error("Non-finite number in SQL");
    return String(v);
  }
  if (v.includes("\0")) throw new Error("NUL in SQL string");
  return `'${v.replaceAll("'", "''")}'`;
}

/** Our statements only use `?` outside quotes, so a left-to-right substitution is exact. */
function inline(s: SqlStatement): string {
  let i = 0;
  const out = s.sql.replace(/\?/g, () => {
    if (i >= s.params.length) throw new Error("More placeholders than parameters");
    return sqlLiteral(s.params[i++]);
  });
  if (i !== s.params.length) throw new Error("More parameters than placeholders");
  return out.replace(/\s+/g, " ").trim();
}

function wranglerPort(opts: Options): RotationPort {
  const target = opts.remote ? ["--remote"] : ["--local", ...(opts.persistTo ? ["--persist-to", opts.persistTo] : [])];
  const wrangler = (args: string[]) => {
    const res = spawnSync("npx", ["wrangler", "d1", "execute", "DB", "-c", "wrangler.toml", ...target, ...args], {
      cwd: ROOT,
      encoding: "utf8",
      env: { ...process.env, CI: "true" },
      maxBuffer: 256 * 1024 * 1024,
    });
    if (res.status !== 0) throw new Error(`wrangler d1 execute failed (exit ${res.status}):\n${res.stderr || res.stdout}`);
    return res.stdout;
  };
  return {
    async all<T>(s: SqlStatement): Promise<T[]> {
      const out = wrangler(["--json", "--command", inline(s)]);
      const start = out.indexOf("[");
      if (start < 0) throw new Error(`Unexpected wrangler output:\n${out}`);
      const parsed = JSON.parse(out.slice(start)) as { results: T[]; success: boolean }[];
      if (!parsed[0]?.success) throw new Error(`Query failed: ${out}`);
      return parsed[0].results;
    },
    async batch(statements: SqlStatement[]): Promise<void> {
      if (statements.length === 0) return;
      const dir = mkdtempSync(path.join(os.tmpdir(), "rotate-keys-"));
      const file = path.join(dir, "rotate.sql");
      try {
        writeFileSync(file, `${statements.map((s) => `${inline(s)};`).join("\n")}\n`, { mode: 0o600 });
        wrangler(["--file", file]);
      } finally {
        // The file holds ciphertext only, but nothing of it should linger.
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const spec = keySpec(opts.remote);
  const versions = parseKeySpec(spec)
    .map((k) => k.version)
    .sort((a, b) => a - b);
  const where = opts.remote ? "the deployed D1 (--remote)" : `the local D1${opts.persistTo ? ` in ${opts.persistTo}` : ""}`;
  console.log(
    `[keys:rotate] ${where}; PII_KEYS holds version(s) ${versions.map((v) => `v${v}`).join(", ")}; encrypting with v${versions[versions.length - 1]}`,
  );
  if (versions.length === 1) console.log("[keys:rotate] only one key is configured: values under another version cannot be read and will be reported.");
  const t0 = Date.now();
  const report = await rotateWithPort(wranglerPort(opts), spec, {
    batchSize: opts.batchSize,
    dryRun: opts.dryRun,
    log: (l) => console.log(`[keys:rotate] ${l}`),
  });
  console.log(describeRotation(report));
  console.log(`[keys:rotate] done in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  if (report.failures.length) process.exit(2);
}

main().catch((err) => {
  console.error(`[keys:rotate] ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
