import { sql, type SQL } from "drizzle-orm";

/**
 * Counts the shell shows beside a module's link (say, unread chat messages), read inside the
 * session's own statement so they cost no round trip. A feature registers a scalar sub-select
 * over the statement's tenant and user (its register.server.ts, at start-up); auth never imports
 * the feature.
 */
export type ShellCount = (tenantId: SQL, userId: SQL) => SQL<number>;

const counts = new Map<string, ShellCount>();
let registrations = 0;

/** Registering a module again replaces its count (a module evaluated twice is harmless). */
export function registerShellCount(moduleId: string, count: ShellCount): void {
  counts.set(moduleId, count);
  registrations += 1;
}

/** Changes whenever a count is registered: a statement built with the column is built again. */
export function shellCountsVersion(): string {
  return String(registrations);
}

/** One JSON object column, module id to count: '{}' when nobody registered a count. */
export function shellCountsColumn(tenantId: SQL, userId: SQL): SQL<string> {
  if (counts.size === 0) return sql<string>`'{}'`;
  const pairs = [...counts].map(([id, count]) => sql`${id}, ${count(tenantId, userId)}`);
  return sql<string>`json_object(${sql.join(pairs, sql`, `)})`;
}

/** The column's value as numbers by module id; anything unreadable counts as nothing. */
export function readShellCounts(raw: unknown): Record<string, number> {
  if (typeof raw !== "string") return {};
  try {
    const parsed: unknown = JSON.parse(raw);
    if (!parsed || typeof parsed !== "object") return {};
    return Object.fromEntries(Object.entries(parsed).filter((e): e is [string, number] => typeof e[1] === "number" && e[1] > 0));
  } catch {
    return {};
  }
}
