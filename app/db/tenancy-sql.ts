/**
 * Reads one SQL statement and says which tenant-owned tables it touches without a tenant
 * condition. Used by the workers tests, which watch every D1 statement (ADR 0051); kept pure so it
 * can be tested on its own. It reads the SQL drizzle writes (double-quoted identifiers, `?`
 * parameters) and the hand-written fragments beside it; it is a check, not a parser: a table is
 * covered when `tenant_id` (qualified by the table or its alias, or bare where that can only mean
 * this table) appears in a WHERE or ON condition, and an INSERT is covered when its column list
 * names `tenant_id`.
 */

export type TenancyFinding = { table: string; kind: "select" | "update" | "delete" | "insert"; reason: string };

const KEYWORDS = new Set([
  "where",
  "on",
  "join",
  "left",
  "right",
  "inner",
  "outer",
  "cross",
  "group",
  "order",
  "limit",
  "set",
  "values",
  "select",
  "union",
  "returning",
  "as",
  "using",
  "natural",
  "full",
  "having",
  "window",
  "default",
  "offset",
  "except",
  "intersect",
]);

/** Strips comments and string literals, lower-cases, and collapses white space. */
function normalise(sql: string): string {
  return sql
    .replace(/--[^\n]*/g, " ")
    .replace(/\/\*[\s\S]*?\*\//g, " ")
    .replace(/'(?:[^']|'')*'/g, "''")
    .toLowerCase()
    .replace(/\s+/g, " ")
    .trim();
}

type Ref = { table: string; alias: string | null; via: "from" | "join" | "update" | "into"; at: number };

function references(sql: string): Ref[] {
  const refs: Ref[] = [];
  const re = /\b(from|join|update|into)\s+"?([a-z_][a-z0-9_]*)"?(?:\s+(?:as\s+)?"?([a-z_][a-z0-9_]*)"?)?/g;
  for (let m = re.exec(sql); m; m = re.exec(sql)) {
    const alias = m[3] && !KEYWORDS.has(m[3]) ? m[3] : null;
    refs.push({ table: m[2]!, alias, via: m[1] as Ref["via"], at: m.index });
  }
  return refs;
}

/** The rest of the parenthesised group (or statement) that starts reading a table at `at`. */
function scopeFrom(sql: string, at: number): string {
  let depth = 0;
  for (let i = at; i < sql.length; i++) {
    if (sql[i] === "(") depth++;
    else if (sql[i] === ")") {
      if (depth === 0) return sql.slice(at, i);
      depth--;
    }
  }
  return sql.slice(at);
}

/** The text with every parenthesised sub-select left out: what one level of a query says. */
function withoutSubqueries(sql: string): string {
  let out = "";
  for (let i = 0; i < sql.length; i++) {
    if (sql[i] === "(" && /^\(\s*select\b/.test(sql.slice(i, i + 12))) {
      let depth = 0;
      for (; i < sql.length; i++) {
        if (sql[i] === "(") depth++;
        else if (sql[i] === ")" && --depth === 0) break;
      }
      out += "(…)";
      continue;
    }
    out += sql[i];
  }
  return out;
}

/** The text of every WHERE and ON condition (ON CONFLICT is not a condition). */
function conditions(sql: string): string {
  const parts: string[] = [];
  const re = /\b(where|on)\b(?! conflict)/g;
  for (let m = re.exec(sql); m; m = re.exec(sql)) parts.push(sql.slice(m.index));
  // `tenant_id = tenant_id` with both sides naming the same column holds for every row: no condition.
  return parts.join(" | ").replace(/((?:"?[a-z0-9_]+"?\.)?)"?tenant_id"?\s*=\s*\1"?tenant_id"?/g, "");
}

function statementKind(sql: string): TenancyFinding["kind"] | null {
  // A leading WITH names common table expressions; the statement's verb follows them.
  const body = sql.startsWith("with ") ? sql.replace(/^with .*?\)\s*(?=select|insert|update|delete)/, "") : sql;
  const verb = /^(select|insert|replace|update|delete)\b/.exec(body)?.[1];
  if (!verb) return null;
  return verb === "replace" ? "insert" : (verb as TenancyFinding["kind"]);
}

export function tenancyFindings(rawSql: string, tenantTables: ReadonlySet<string>): TenancyFinding[] {
  const sql = normalise(rawSql);
  const kind = statementKind(sql);
  if (!kind) return [];
  const refs = references(sql).filter((r) => tenantTables.has(r.table));
  if (refs.length === 0) return [];
  const cond = conditions(sql);
  const findings: TenancyFinding[] = [];
  const seen = new Set<string>();
  for (const ref of refs) {
    const key = `${ref.table}/${ref.alias ?? ""}/${ref.via}`;
    if (seen.has(key)) continue;
    seen.add(key);
    if (ref.via === "into") {
      const cols = /^(?:insert|replace)(?: or \w+)? into "?[a-z0-9_]+"?\s*\(([^)]*)\)/.exec(sql)?.[1] ?? "";
      if (!/"?tenant_id"?/.test(cols)) findings.push({ table: ref.table, kind, reason: "INSERT without a tenant_id column" });
      continue;
    }
    const names = [ref.table, ref.alias].filter((n): n is string => !!n);
    const qualified = names.some((n) => cond.includes(`"${n}"."tenant_id"`) || cond.includes(`${n}.tenant_id`));
    // A bare tenant_id names the table of its own query level when that level reads one table
    // (or it is the target of an UPDATE or DELETE).
    const level = withoutSubqueries(scopeFrom(sql, ref.at));
    const levelTables = new Set(references(level).map((r) => r.table));
    const bareFits = ref.via === "update" || (kind === "delete" && ref.at === sql.indexOf("from")) || levelTables.size === 1;
    const bare = bareFits && /(?<![.\w"])"?tenant_id"?(?![\w"]*\.)/.test(conditions(level).replace(/"[a-z0-9_]+"\."tenant_id"|\b[a-z0-9_]+\.tenant_id/g, ""));
    if (!qualified && !bare) findings.push({ table: ref.table, kind, reason: "no tenant_id in its WHERE/ON" });
  }
  return findings;
}
