import { env } from "cloudflare:workers";
import { getTableColumns, getTableName, is } from "drizzle-orm";
import { SQLiteTable } from "drizzle-orm/sqlite-core";
import { afterEach } from "vitest";
import * as schema from "~/db/schema";
import { tenancyFindings, type TenancyFinding } from "~/db/tenancy-sql";
import { CROSS_TENANT } from "./cross-tenant";

/*
 * The tenancy check of every workers test (ADR 0051): each SQL statement given to D1 is read, and
 * a statement that touches a tenant-owned table without a tenant_id condition fails the test it
 * ran in, unless its call site is listed in cross-tenant.ts. Statements the tests issue themselves
 * (setup, migrations, assertions reading rows directly) are not checked.
 */

/** Every table the schema gives a tenant_id column. */
export const TENANT_TABLES: ReadonlySet<string> = new Set(
  Object.values(schema as Record<string, unknown>)
    .filter((v): v is SQLiteTable => is(v, SQLiteTable))
    .filter((t) => Object.values(getTableColumns(t)).some((c) => c.name === "tenant_id"))
    .map((t) => getTableName(t)),
);

/** The first frame of the project's own code that issued the statement: `file › function`. */
export function callSite(stack: string): string {
  for (const line of stack.split("\n").slice(1)) {
    if (line.includes("node_modules")) continue;
    const m = /at (?:async )?(?:Object\.)?([\w$.<>]+)? ?\(?.*?\/((?:app|workers|tests)\/[^:?)]+)/.exec(line);
    if (!m || m[2]!.startsWith("tests/tenancy/") || m[2]!.startsWith("app/db/")) continue;
    return `${m[2]} › ${m[1] ?? "?"}`;
  }
  return "(no project frame)";
}

type Violation = { site: string; findings: TenancyFinding[]; sql: string };
const violations: Violation[] = [];

function inspect(sql: string) {
  const findings = tenancyFindings(sql, TENANT_TABLES);
  if (findings.length === 0) return;
  const site = callSite(new Error().stack ?? "");
  if (site.startsWith("tests/")) return;
  const excepted = CROSS_TENANT.find((e) => e.site === site);
  const left = findings.filter((f) => !excepted?.tables.includes(f.table));
  if (left.length > 0) violations.push({ site, findings: left, sql });
}

const proto = Object.getPrototypeOf(env.DB) as D1Database;
const prepare = proto.prepare;
const exec = proto.exec;
proto.prepare = function (this: D1Database, sql: string) {
  inspect(sql);
  return prepare.call(this, sql);
};
proto.exec = function (this: D1Database, sql: string) {
  for (const one of sql.split(";")) inspect(one);
  return exec.call(this, sql);
};

afterEach(() => {
  const found = violations.splice(0);
  if (found.length === 0) return;
  const lines = found.map((v) => `${v.site}: ${v.findings.map((f) => `${f.kind} ${f.table}: ${f.reason}`).join("; ")}\n    ${v.sql}`);
  throw new Error(
    `A query touched a tenant-owned table without tenant_id (ADR 0051; fix it or list it in tests/tenancy/cross-tenant.ts):\n${[...new Set(lines)].join("\n")}`,
  );
});
