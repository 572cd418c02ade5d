import { env } from "cloudflare:workers";
import { expect } from "vitest";

/** Every table of the database (D1's and SQLite's own bookkeeping left out), read from sqlite_master. */
export async function allTables(): Promise<string[]> {
  const { results } = await env.DB.prepare(
    "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%' AND name != 'd1_migrations' ORDER BY name",
  ).all<{ name: string }>();
  return results.map((r) => r.name);
}

/**
 * Reads every column of every row of every table and fails, naming table and column, where any
 * of `secrets` appears in plain text (also without spaces and in either case).
 */
export async function expectNoPlaintextAnywhere(secrets: string[]): Promise<void> {
  const needles = [...new Set(secrets.flatMap((s) => [s, s.replace(/\s+/g, ""), s.toLowerCase()]).filter((s) => s.length >= 6))];
  const found: string[] = [];
  const tables = await allTables();
  expect(tables.length).toBeGreaterThan(20);
  for (const table of tables) {
    const { results } = await env.DB.prepare(`SELECT * FROM "${table}"`).all<Record<string, unknown>>();
    for (const row of results) {
      for (const [column, value] of Object.entries(row)) {
        if (value === null || value === undefined) continue;
        const text = value instanceof ArrayBuffer ? new TextDecoder().decode(value) : String(value);
        for (const needle of needles) if (text.includes(needle)) found.push(`${table}.${column} holds ${needle}`);
      }
    }
  }
  expect([...new Set(found)]).toEqual([]);
}

let ninoSeq = 0;
/** A valid-looking National Insurance number no other test uses. */
export function newNino(): string {
  ninoSeq += 1;
  const digits = String((Math.floor(Math.random() * 9000) * 100 + ((Date.now() + ninoSeq) % 100)) % 1_000_000).padStart(6, "3");
  return `JK${digits}C`;
}
