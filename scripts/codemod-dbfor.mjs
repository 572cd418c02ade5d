// node scripts/codemod-dbfor.mjs [--write] [--list] [paths...]
//
// Moves data modules from `getDb(env)` to the shard seam of ADR 0064: `dbFor(env, tenantId)` where
// the call's function works for one tenant, `globalDb(env)` where it only touches global tables.
// Re-runnable: it only looks at `getDb(...)` calls, so a second run changes nothing, and it can run
// again after more branches are merged. Without --write it only reports. A call it cannot decide
// stays `getDb(env)` (still the home database, so behaviour is unchanged) and is listed with the
// reason; those are the cross-tenant jobs and mixed batches that need a person (a `fanOut`, or a
// split between the global and the tenant's database).
//
// How a call is decided (the nearest enclosing function first, then the functions around it):
// - the tenant: a parameter or destructured parameter named `tenantId`, a `const tenantId`
//   declared before the call, or a parameter `p` whose `p.tenantId` / `p.tenant.id` / `p.id` (when
//   the parameter is named `tenant`) the function reads. Never a value read from a query result.
// - the tables: the schema tables (imported from ~/db/schema) named inside the outermost function
//   around the call, and `db.query.<table>`.
// - left when the function writes `tenants` or `modules` (held globally and copied in each shard);
//   dbFor when a tenant is found and no global-only table is named; globalDb when only global
//   tables are named and the database is not handed to another function; otherwise left.
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import process from "node:process";
import { pathToFileURL } from "node:url";
import ts from "typescript";

const ROOT = path.resolve(import.meta.dirname, "..");
const SEAM = path.join(ROOT, "app", "db", "client.server.ts");

/** Tables only the home database holds (ADR 0064): a function naming one is global or mixed. */
const GLOBAL_ONLY = new Set(["platformAdmins", "authThrottle", "projectRequests", "deadLetters", "devHmrcMessages", "devHmrcModes", "devMailbox"]);
/** Global tables every shard also holds a copy of: reading them through a tenant's shard is right. */
const REPLICATED = new Set(["tenants", "modules"]);

function parseArgs(argv) {
  const opts = { write: false, list: false, paths: [] };
  for (const a of argv) {
    if (a === "--write") opts.write = true;
    else if (a === "--list") opts.list = true;
    else if (a.startsWith("--")) throw new Error(`Unknown option ${a}`);
    else opts.paths.push(path.resolve(a));
  }
  if (opts.paths.length === 0) opts.paths = [path.join(ROOT, "app"), path.join(ROOT, "workers")];
  return opts;
}

function sourceFiles(p) {
  if (statSync(p).isFile()) return [p];
  return readdirSync(p, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(p, e.name);
    if (e.isDirectory()) return e.name === "node_modules" ? [] : sourceFiles(full);
    return /\.(ts|tsx)$/.test(e.name) && !/\.d\.ts$/.test(e.name) && !/\.test\.tsx?$/.test(e.name) ? [full] : [];
  });
}

const isFunction = (n) => ts.isFunctionDeclaration(n) || ts.isFunctionExpression(n) || ts.isArrowFunction(n) || ts.isMethodDeclaration(n);

function enclosingFunctions(node) {
  const out = [];
  for (let n = node.parent; n; n = n.parent) if (isFunction(n)) out.push(n);
  return out;
}

function walk(node, visit) {
  visit(node);
  ts.forEachChild(node, (c) => walk(c, visit));
}

/** Names imported from the schema module in this file: local name -> exported table name. */
function schemaImports(sf) {
  const names = new Map();
  for (const st of sf.statements) {
    if (!ts.isImportDeclaration(st) || !ts.isStringLiteral(st.moduleSpecifier)) continue;
    if (!/(^|\/)db\/schema(\/[\w-]+)?$/.test(st.moduleSpecifier.text)) continue;
    const b = st.importClause?.namedBindings;
    // Tables are camelCase values; SCREAMING_CASE exports are enums and constants.
    if (b && ts.isNamedImports(b))
      for (const el of b.elements) if (!el.isTypeOnly && !/^[A-Z0-9_]+$/.test(el.name.text)) names.set(el.name.text, (el.propertyName ?? el.name).text);
  }
  return names;
}

/** The tenant id expression available at `call` inside `fn`, or null. */
function tenantIn(fn, call) {
  const params = fn.parameters;
  for (const p of params) {
    // An optional tenant id (`tenantId?: string`) means "every tenant" when absent: not one tenant.
    if (p.questionToken || p.initializer) continue;
    if (ts.isIdentifier(p.name) && p.name.text === "tenantId") return "tenantId";
    if (ts.isObjectBindingPattern(p.name)) {
      for (const el of p.name.elements) {
        const key = (el.propertyName ?? el.name).getText();
        if (key === "tenantId" && ts.isIdentifier(el.name)) return el.name.text;
      }
    }
  }
  const paramNames = new Set(params.filter((p) => ts.isIdentifier(p.name)).map((p) => p.name.text));
  let local = null;
  const readsTenantId = (fn.body ?? fn).getText().includes("tenant.id");
  walk(fn.body ?? fn, (n) => {
    if (local || !ts.isVariableDeclaration(n)) return;
    // Declared before the call, in a block that contains the call.
    const block = n.parent?.parent?.parent;
    if (!(n.getEnd() <= call.getStart() && block && block.getStart() <= call.getStart() && call.getEnd() <= block.getEnd())) return;
    if (ts.isIdentifier(n.name) && n.name.text === "tenantId") local = "tenantId";
    // `const { tenantId } = input` / `const { tenant } = opts`, destructured from a parameter.
    else if (ts.isObjectBindingPattern(n.name) && n.initializer && ts.isIdentifier(n.initializer) && paramNames.has(n.initializer.text)) {
      for (const el of n.name.elements) {
        const key = (el.propertyName ?? el.name).getText();
        if (key === "tenantId" && ts.isIdentifier(el.name)) local = el.name.text;
        else if (key === "tenant" && ts.isIdentifier(el.name) && el.name.text === "tenant" && readsTenantId) local = "tenant.id";
      }
    }
  });
  if (local) return local;
  const seen = new Map();
  walk(fn.body ?? fn, (n) => {
    if (!ts.isPropertyAccessExpression(n)) return;
    const text = n.getText();
    const m = /^([A-Za-z_$][\w$]*)\.(?:tenantId|tenant\.id)$/.exec(text) ?? (/^(tenant)\.id$/.exec(text) && paramNames.has("tenant") ? ["", "tenant"] : null);
    if (m && paramNames.has(m[1])) seen.set(text, (seen.get(text) ?? 0) + 1);
  });
  const best = [...seen.entries()].sort((a, b) => b[1] - a[1])[0];
  return best ? best[0] : null;
}

/** Schema tables named inside `fn` (and `db.query.<table>` reads), and whether the db is handed on. */
function tablesIn(fn, schema) {
  const tables = new Set();
  walk(fn, (n) => {
    if (ts.isIdentifier(n) && schema.has(n.text) && !ts.isPropertyAccessExpression(n.parent)) tables.add(schema.get(n.text));
    if (ts.isPropertyAccessExpression(n) && ts.isPropertyAccessExpression(n.expression) && n.expression.name.text === "query") tables.add(n.name.text);
  });
  return tables;
}

/** Schema tables `fn` inserts into, updates or deletes from. */
function writtenTables(fn, schema) {
  const out = new Set();
  walk(fn, (n) => {
    if (!ts.isCallExpression(n) || !ts.isPropertyAccessExpression(n.expression)) return;
    if (!["insert", "update", "delete"].includes(n.expression.name.text)) return;
    const a = n.arguments[0];
    if (a && ts.isIdentifier(a) && schema.has(a.text)) out.add(schema.get(a.text));
  });
  return [...out];
}

function dbHandedOn(fn) {
  let handed = false;
  walk(fn, (n) => {
    if (!ts.isCallExpression(n)) return;
    for (const a of n.arguments) {
      if (ts.isIdentifier(a) && a.text === "db") handed = true;
      if (ts.isCallExpression(a) && ts.isIdentifier(a.expression) && a.expression.text === "getDb") handed = true;
    }
  });
  return handed;
}

function decide(call, sf, schema) {
  const fns = enclosingFunctions(call);
  if (fns.length === 0) return { kind: "left", reason: "outside any function" };
  const outer = fns[fns.length - 1];
  const tables = tablesIn(outer, schema);
  const globalOnly = [...tables].filter((t) => GLOBAL_ONLY.has(t));
  const tenantTables = [...tables].filter((t) => !GLOBAL_ONLY.has(t) && !REPLICATED.has(t));
  let tenant = null;
  for (const fn of fns) {
    tenant = tenantIn(fn, call);
    if (tenant) break;
  }
  const fnName = (outer.name && outer.name.getText()) || (ts.isVariableDeclaration(outer.parent) ? outer.parent.name.getText() : "(anonymous)");
  const where = `${path.isAbsolute(sf.fileName) ? path.relative(ROOT, sf.fileName) : sf.fileName}:${sf.getLineAndCharacterOfPosition(call.getStart()).line + 1} ${fnName}`;
  const replicatedWrites = writtenTables(outer, schema).filter((t) => REPLICATED.has(t));
  if (replicatedWrites.length > 0)
    return { kind: "left", where, reason: `writes ${replicatedWrites.join(", ")}, held globally and copied in shards: write both by hand` };
  if (tenant && globalOnly.length === 0) return { kind: "dbFor", tenant, where };
  if (tables.size > 0 && tenantTables.length === 0 && !dbHandedOn(outer)) return { kind: "globalDb", where };
  if (globalOnly.length > 0 && tenantTables.length > 0)
    return { kind: "left", where, reason: `mixes global-only (${globalOnly.join(", ")}) and tenant tables (${tenantTables.join(", ")})` };
  if (!tenant && tenantTables.length > 0)
    return { kind: "left", where, reason: `tenant tables (${tenantTables.join(", ")}) with no tenant id in scope: cross-tenant, needs fanOut` };
  if (tables.size === 0) return { kind: "left", where, reason: "no schema table named here (the database is passed on): decide by hand" };
  return { kind: "left", where, reason: "global tables but the database is handed to another function: decide by hand" };
}

/** Rewrites the named imports from the seam module to what the file now uses. */
function fixImport(text, sf, uses) {
  for (const st of sf.statements) {
    if (!ts.isImportDeclaration(st) || !ts.isStringLiteral(st.moduleSpecifier) || !/db\/client\.server$/.test(st.moduleSpecifier.text)) continue;
    const b = st.importClause?.namedBindings;
    if (!b || !ts.isNamedImports(b) || st.importClause.isTypeOnly) continue;
    const kept = b.elements.filter((el) => !["getDb", "dbFor", "globalDb"].includes(el.name.text)).map((el) => el.getText());
    const body = text.slice(0, st.getStart()) + text.slice(st.getEnd());
    const values = ["dbFor", "getDb", "globalDb"].filter((n) => uses.has(n) || new RegExp(`\\b${n}\\b`).test(body));
    // Values first, then types, each in name order: `{ dbFor, getDb, type Db }`.
    const isType = (x) => x.startsWith("type ");
    const all = [...values, ...kept].sort((x, y) => Number(isType(x)) - Number(isType(y)) || x.replace(/^type /, "").localeCompare(y.replace(/^type /, "")));
    const replacement = `{ ${all.join(", ")} }`;
    return text.slice(0, b.getStart()) + replacement + text.slice(b.getEnd());
  }
  return text;
}

/**
 * One file's text with its decidable `getDb(...)` calls rewritten and the seam's import fixed,
 * and what was decided for each call. `fileName` only names the file in the report.
 */
export function convertSource(fileName, text) {
  const report = [];
  if (!text.includes("getDb(")) return { text, report };
  const kind = fileName.endsWith(".tsx") ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const sf = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, kind);
  const schema = schemaImports(sf);
  const edits = [];
  const uses = new Set();
  walk(sf, (n) => {
    if (!ts.isCallExpression(n) || !ts.isIdentifier(n.expression) || n.expression.text !== "getDb" || n.arguments.length !== 1) return;
    const d = decide(n, sf, schema);
    const env = n.arguments[0].getText();
    report.push(d);
    if (d.kind === "dbFor") edits.push({ start: n.getStart(), end: n.getEnd(), text: `dbFor(${env}, ${d.tenant})` });
    else if (d.kind === "globalDb") edits.push({ start: n.getStart(), end: n.getEnd(), text: `globalDb(${env})` });
    uses.add(d.kind === "left" ? "getDb" : d.kind);
  });
  if (edits.length === 0) return { text, report };
  let out = text;
  for (const e of edits.sort((a, b) => b.start - a.start)) out = out.slice(0, e.start) + e.text + out.slice(e.end);
  out = fixImport(out, ts.createSourceFile(fileName, out, ts.ScriptTarget.Latest, true, kind), uses);
  return { text: out, report };
}

function main() {
  const opts = parseArgs(process.argv.slice(2));
  const report = [];
  for (const p of opts.paths) {
    for (const file of sourceFiles(p)) {
      if (path.resolve(file) === SEAM) continue;
      const text = readFileSync(file, "utf8");
      const res = convertSource(file, text);
      report.push(...res.report);
      if (opts.write && res.text !== text) writeFileSync(file, res.text);
    }
  }
  const by = (k) => report.filter((r) => r.kind === k);
  console.log(
    `[codemod-dbfor] ${report.length} getDb() call(s): ${by("dbFor").length} -> dbFor, ${by("globalDb").length} -> globalDb, ${by("left").length} left on getDb${opts.write ? " (written)" : " (dry run: --write to apply)"}`,
  );
  if (opts.list) for (const r of report.filter((x) => x.kind !== "left")) console.log(`  ${r.kind.padEnd(8)} ${r.where}${r.tenant ? ` (${r.tenant})` : ""}`);
  for (const r of by("left")) console.log(`  left     ${r.where ?? ""}: ${r.reason}`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) main();
