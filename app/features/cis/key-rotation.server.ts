/**
 * Re-encrypts every stored identifier with the newest key in PII_KEYS (`npm run keys:rotate`).
 *
 * Encrypted columns: cis_subcontractors.utr_enc and nino_enc; cis_settings.utr_enc,
 * gateway_sender_id_enc and gateway_password_enc; cis_statement_documents.utr_enc (the UTR a
 * frozen statement shows); the stored GovTalk XML, hmrc_submissions.request_xml
 * and response_xml and dev_hmrc_messages.request_xml, response_xml and final_response_xml (legacy
 * rows still holding plain XML are encrypted on the way, so a rotation also finishes that
 * migration). Each value
 * is decrypted with its own binding (tenant, table, record, field) and the key version it names,
 * encrypted again with the current version, and written back in batches. Rows already on the
 * current version are not selected, so a second run changes nothing and an interrupted run
 * simply resumes. Each UPDATE only applies while the column still holds the value that was
 * read, so a concurrent edit by the app is never overwritten. Search hashes (HMAC) are not
 * touched: they use PII_HMAC_KEY, not the rotated keys.
 *
 * The logic talks to the database through a two-method port, so the same code runs inside the
 * Worker (tests, D1 binding) and in Node through `wrangler d1 execute` (scripts/rotate-keys.ts).
 */
import { devMessageXmlContext, submissionXmlContext, type DevMessageXmlField, type SubmissionXmlField } from "./hmrc/stored-xml.server";
import { allShards } from "~/db/client.server";
import { currentKeyVersion, decryptPii, encryptPii, keyVersionOf, type PiiContext } from "./pii.server";

export type SqlStatement = { sql: string; params: (string | number | null)[] };

export interface RotationPort {
  /** Runs one read and returns its rows. */
  all<T>(statement: SqlStatement): Promise<T[]>;
  /** Applies writes together (one D1 batch). */
  batch(statements: SqlStatement[]): Promise<void>;
}

export type RotationFailure = { table: string; id: string; field: string; error: string };
export type RotationReport = {
  currentVersion: number;
  subcontractors: { scanned: number; updatedRows: number; utr: number; nino: number };
  settings: { scanned: number; updatedRows: number; utr: number; gateway: number };
  /** hmrc_submissions and dev_hmrc_messages: XML values re-encrypted, of which `legacy` were plain XML encrypted for the first time. */
  hmrc: { scanned: number; updatedRows: number; values: number; legacy: number };
  statementDocuments: { scanned: number; updatedRows: number };
  failures: RotationFailure[];
  dryRun: boolean;
};

export type RotationOptions = { batchSize?: number; dryRun?: boolean; log?: (line: string) => void };

export function d1RotationPort(db: D1Database): RotationPort {
  return {
    async all<T>(s: SqlStatement) {
      return (
        await db
          .prepare(s.sql)
          .bind(...s.params)
          .all<T>()
      ).results;
    },
    async batch(statements: SqlStatement[]) {
      if (statements.length) await db.batch(statements.map((s) => db.prepare(s.sql).bind(...s.params)));
    },
  };
}

/** Rotation inside the Worker, against every shard's D1 binding in turn (home first); the report sums them. */
export async function rotatePiiKeys(env: Pick<Env, "DB" | "PII_KEYS">, opts: RotationOptions = {}): Promise<RotationReport> {
  let total: RotationReport | null = null;
  for (const { db } of allShards(env)) {
    const report = await rotateWithPort(d1RotationPort(db.$client), env.PII_KEYS, opts);
    total = total ? addReports(total, report) : report;
  }
  return total!;
}

function addReports(a: RotationReport, b: RotationReport): RotationReport {
  const sum = <T extends Record<string, number>>(x: T, y: T) => Object.fromEntries(Object.keys(x).map((k) => [k, x[k]! + y[k]!])) as T;
  return {
    ...a,
    subcontractors: sum(a.subcontractors, b.subcontractors),
    settings: sum(a.settings, b.settings),
    hmrc: sum(a.hmrc, b.hmrc),
    statementDocuments: sum(a.statementDocuments, b.statementDocuments),
    failures: [...a.failures, ...b.failures],
  };
}

const prefixOf = (version: number) => `v${version}.`;
/** True when the stored value is not (yet) under the current key version. */
const stale = (stored: string | null, prefix: string) => stored !== null && !stored.startsWith(prefix);
const errorText = (err: unknown) => (err instanceof Error ? err.message : String(err));

/** What every step of one run shares: the keys, the page size, the report it fills. */
type Run = {
  port: RotationPort;
  keySpec: string;
  prefix: string;
  likePrefix: string;
  batchSize: number;
  dryRun: boolean;
  log: (line: string) => void;
  report: RotationReport;
};

/** One column's new value and the value it must still hold for the write to apply. */
type ColumnChange = { column: string; fresh: string; stored: string };

/**
 * An UPDATE of the changed columns of one row, keyed by `keys` (column, value) and guarded by each
 * column still holding the value that was read, so a concurrent edit is never overwritten.
 */
function guardedUpdate(table: string, keys: [string, string][], changes: ColumnChange[]): SqlStatement {
  const sets = changes.map((c) => `${c.column} = ?`).join(", ");
  const where = [...keys.map(([column]) => `${column} = ?`), ...changes.map((c) => `${c.column} = ?`)].join(" AND ");
  return {
    sql: `UPDATE ${table} SET ${sets} WHERE ${where}`,
    params: [...changes.map((c) => c.fresh), ...keys.map(([, value]) => value), ...changes.map((c) => c.stored)],
  };
}

/** Decrypts with the version the value names and encrypts with the current one; a failure is reported and gives null. */
async function reencrypt(run: Run, stored: string, ctx: PiiContext): Promise<string | null> {
  try {
    return await encryptPii(run.keySpec, await decryptPii(run.keySpec, stored, ctx), ctx);
  } catch (err) {
    run.report.failures.push({ table: ctx.table, id: ctx.recordId, field: ctx.field, error: errorText(err) });
    return null;
  }
}

/**
 * Pages through the rows `select` returns after a cursor (the cursor moves past failures, so they
 * cannot loop), turns each row into at most one write and applies each page's writes in one batch.
 */
async function forEachPage<R>(
  run: Run,
  page: {
    pageSize: number;
    select: (after: string, limit: number) => SqlStatement;
    cursor: (row: R) => string;
    rewrite: (row: R) => Promise<SqlStatement | null>;
    progress: () => string;
  },
): Promise<void> {
  let after = "";
  for (;;) {
    const rows = await run.port.all<R>(page.select(after, page.pageSize));
    if (rows.length === 0) break;
    const writes: SqlStatement[] = [];
    for (const row of rows) {
      const write = await page.rewrite(row);
      if (write) writes.push(write);
    }
    if (!run.dryRun) await run.port.batch(writes);
    run.log(page.progress());
    after = page.cursor(rows[rows.length - 1]);
    if (rows.length < page.pageSize) break;
  }
}

/** A table of encrypted identifiers: each column's value is bound to (tenant, table, record, field). */
type PiiTable = {
  table: string;
  /** The column rows are paged by; also the record id the values are bound to. */
  cursor: string;
  /** The key columns of the UPDATE. */
  keys: string[];
  /** Each encrypted column, its field in the binding and the report's count it adds to, if any. */
  columns: { column: string; field: string; count?: "utr" | "nino" | "gateway" }[];
  counts: (report: RotationReport) => { scanned: number; updatedRows: number } & Partial<Record<"utr" | "nino" | "gateway", number>>;
};
type PiiRow = { tenant_id: string } & Record<string, string | null>;

/** Subcontractors' UTR and NINO, every tenant, in id order. */
const subcontractorsTable: PiiTable = {
  table: "cis_subcontractors",
  cursor: "id",
  keys: ["tenant_id", "id"],
  columns: [
    { column: "utr_enc", field: "utr", count: "utr" },
    { column: "nino_enc", field: "nino", count: "nino" },
  ],
  counts: (report) => report.subcontractors,
};
/** Each tenant's settings: the contractor's own UTR and its Government Gateway credentials. */
const settingsTable: PiiTable = {
  table: "cis_settings",
  cursor: "tenant_id",
  keys: ["tenant_id"],
  columns: [
    { column: "utr_enc", field: "utr", count: "utr" },
    { column: "gateway_sender_id_enc", field: "gateway_sender_id", count: "gateway" },
    { column: "gateway_password_enc", field: "gateway_password", count: "gateway" },
  ],
  counts: (report) => report.settings,
};
/** Frozen statements' UTRs, bound to their document row (record = statement id). */
const statementDocumentsTable: PiiTable = {
  table: "cis_statement_documents",
  cursor: "statement_id",
  keys: ["tenant_id", "statement_id"],
  columns: [{ column: "utr_enc", field: "utr" }],
  counts: (report) => report.statementDocuments,
};

/** Re-encrypts the identifiers of one table whose rows hold several encrypted columns. */
async function rotatePiiTable(run: Run, spec: PiiTable): Promise<void> {
  const counts = spec.counts(run.report);
  const selected = [...new Set([spec.cursor, "tenant_id", ...spec.columns.map((c) => c.column)])];
  await forEachPage<PiiRow>(run, {
    pageSize: run.batchSize,
    select: (after, limit) => ({
      sql: `SELECT ${selected.join(", ")} FROM ${spec.table}
            WHERE ${spec.cursor} > ? AND (${spec.columns.map((c) => `(${c.column} IS NOT NULL AND ${c.column} NOT LIKE ?)`).join(" OR ")})
            ORDER BY ${spec.cursor} LIMIT ?`,
      params: [after, ...spec.columns.map(() => run.likePrefix), limit],
    }),
    cursor: (row) => row[spec.cursor] as string,
    rewrite: async (row) => {
      counts.scanned += 1;
      const changes: ColumnChange[] = [];
      for (const c of spec.columns) {
        const stored = row[c.column];
        if (!stale(stored, run.prefix)) continue;
        const ctx = { tenantId: row.tenant_id, table: spec.table, recordId: row[spec.cursor] as string, field: c.field };
        const fresh = await reencrypt(run, stored as string, ctx);
        if (fresh === null) continue;
        changes.push({ column: c.column, fresh, stored: stored as string });
        if (c.count) counts[c.count] = (counts[c.count] ?? 0) + 1;
      }
      if (changes.length === 0) return null;
      counts.updatedRows += 1;
      return guardedUpdate(
        spec.table,
        spec.keys.map((k) => [k, row[k] as string]),
        changes,
      );
    },
    progress: () => `${spec.table}: ${counts.scanned} scanned, ${counts.updatedRows} re-encrypted so far`,
  });
}

type XmlRow = { id: string; tenant_id?: string } & Record<string, string | null | undefined>;
type XmlTable = { table: string; columns: string[]; tenant: boolean; ctx: (row: XmlRow, field: string) => PiiContext };
const xmlTables: XmlTable[] = [
  {
    table: "hmrc_submissions",
    columns: ["request_xml", "response_xml"] satisfies SubmissionXmlField[],
    tenant: true,
    ctx: (row, field) => submissionXmlContext(row.tenant_id as string, row.id, field as SubmissionXmlField),
  },
  {
    table: "dev_hmrc_messages",
    columns: ["request_xml", "response_xml", "final_response_xml"] satisfies DevMessageXmlField[],
    tenant: false,
    ctx: (row, field) => devMessageXmlContext(row.id, field as DevMessageXmlField),
  },
];

/** One stored XML value under the current key: re-encrypted, or encrypted for the first time when it is legacy plain XML. */
async function freshXml(run: Run, spec: XmlTable, row: XmlRow, column: string, stored: string): Promise<string | null> {
  if (keyVersionOf(stored) !== null) return reencrypt(run, stored, spec.ctx(row, column));
  try {
    return await encryptPii(run.keySpec, stored, spec.ctx(row, column));
  } catch (err) {
    run.report.failures.push({ table: spec.table, id: row.id, field: column, error: errorText(err) });
    return null;
  }
}

/** The stored GovTalk messages of one table: large values, so smaller pages. */
async function rotateXmlTable(run: Run, spec: XmlTable): Promise<void> {
  const counts = run.report.hmrc;
  await forEachPage<XmlRow>(run, {
    pageSize: Math.min(run.batchSize, 25),
    select: (after, limit) => ({
      sql: `SELECT id, ${spec.tenant ? "tenant_id, " : ""}${spec.columns.join(", ")} FROM ${spec.table}
              WHERE id > ? AND (${spec.columns.map((c) => `(${c} IS NOT NULL AND ${c} NOT LIKE ?)`).join(" OR ")})
              ORDER BY id LIMIT ?`,
      params: [after, ...spec.columns.map(() => run.likePrefix), limit],
    }),
    cursor: (row) => row.id,
    rewrite: async (row) => {
      counts.scanned += 1;
      const changes: ColumnChange[] = [];
      for (const column of spec.columns) {
        const stored = row[column];
        if (typeof stored !== "string" || stored.startsWith(run.prefix)) continue;
        const fresh = await freshXml(run, spec, row, column, stored);
        if (fresh === null) continue;
        changes.push({ column, fresh, stored });
        counts.values += 1;
        if (keyVersionOf(stored) === null) counts.legacy += 1;
      }
      if (changes.length === 0) return null;
      counts.updatedRows += 1;
      const keys: [string, string][] = spec.tenant
        ? [
            ["tenant_id", row.tenant_id as string],
            ["id", row.id],
          ]
        : [["id", row.id]];
      return guardedUpdate(spec.table, keys, changes);
    },
    progress: () => `${spec.table}: ${counts.scanned} scanned, ${counts.updatedRows} re-encrypted so far`,
  });
}

export async function rotateWithPort(port: RotationPort, keySpec: string, opts: RotationOptions = {}): Promise<RotationReport> {
  const current = await currentKeyVersion(keySpec);
  const prefix = prefixOf(current);
  const report: RotationReport = {
    currentVersion: current,
    subcontractors: { scanned: 0, updatedRows: 0, utr: 0, nino: 0 },
    settings: { scanned: 0, updatedRows: 0, utr: 0, gateway: 0 },
    hmrc: { scanned: 0, updatedRows: 0, values: 0, legacy: 0 },
    statementDocuments: { scanned: 0, updatedRows: 0 },
    failures: [],
    dryRun: Boolean(opts.dryRun),
  };
  const run: Run = {
    port,
    keySpec,
    prefix,
    likePrefix: `${prefix}%`,
    batchSize: Math.max(1, Math.min(opts.batchSize ?? 100, 1000)),
    dryRun: Boolean(opts.dryRun),
    log: opts.log ?? (() => {}),
    report,
  };
  await rotatePiiTable(run, subcontractorsTable);
  await rotatePiiTable(run, settingsTable);
  for (const spec of xmlTables) await rotateXmlTable(run, spec);
  await rotatePiiTable(run, statementDocumentsTable);
  return report;
}

/** What the command prints. */
export function describeRotation(r: RotationReport): string {
  const verb = r.dryRun ? "would re-encrypt" : "re-encrypted";
  const lines = [
    `Current key version: v${r.currentVersion}${r.dryRun ? " (dry run: nothing written)" : ""}`,
    `cis_subcontractors: ${r.subcontractors.scanned} row(s) on an older key; ${verb} ${r.subcontractors.updatedRows} (${r.subcontractors.utr} UTR, ${r.subcontractors.nino} NINO)`,
    `cis_settings: ${r.settings.scanned} row(s) on an older key; ${verb} ${r.settings.updatedRows} (${r.settings.utr} UTR, ${r.settings.gateway} Government Gateway credential values)`,
    `HMRC messages: ${r.hmrc.scanned} row(s) on an older key or in plain text; ${verb} ${r.hmrc.updatedRows} (${r.hmrc.values} XML values, ${r.hmrc.legacy} of them plain text until now)`,
    `cis_statement_documents: ${r.statementDocuments.scanned} row(s) on an older key; ${verb} ${r.statementDocuments.updatedRows} (UTR)`,
  ];
  if (r.failures.length) {
    lines.push(`${r.failures.length} value(s) could not be re-encrypted (left unchanged):`);
    for (const f of r.failures.slice(0, 50)) lines.push(`  ${f.table} ${f.id} ${f.field}: ${f.error}`);
  } else if (r.subcontractors.scanned + r.settings.scanned + r.hmrc.scanned + r.statementDocuments.scanned === 0) {
    lines.push("Nothing to do: every value is already on the current key.");
  }
  return lines.join("\n");
}
