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

export async function rotateWithPort(port: RotationPort, keySpec: string, opts: RotationOptions = {}): Promise<RotationReport> {
  const batchSize = Math.max(1, Math.min(opts.batchSize ?? 100, 1000));
  const log = opts.log ?? (() => {});
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

  async function reencrypt(stored: string, ctx: PiiContext): Promise<string | null> {
    try {
      return await encryptPii(keySpec, await decryptPii(keySpec, stored, ctx), ctx);
    } catch (err) {
      report.failures.push({ table: ctx.table, id: ctx.recordId, field: ctx.field, error: err instanceof Error ? err.message : String(err) });
      return null;
    }
  }

  // Subcontractors, every tenant, in id order; the cursor moves past failures so they cannot loop.
  const likePrefix = `${prefix}%`;
  let afterId = "";
  for (;;) {
    const rows = await port.all<{ id: string; tenant_id: string; utr_enc: string | null; nino_enc: string | null }>({
      sql: `SELECT id, tenant_id, utr_enc, nino_enc FROM cis_subcontractors
            WHERE id > ? AND ((utr_enc IS NOT NULL AND utr_enc NOT LIKE ?) OR (nino_enc IS NOT NULL AND nino_enc NOT LIKE ?))
            ORDER BY id LIMIT ?`,
      params: [afterId, likePrefix, likePrefix, batchSize],
    });
    if (rows.length === 0) break;
    const writes: SqlStatement[] = [];
    for (const row of rows) {
      report.subcontractors.scanned += 1;
      const ctx = (field: "utr" | "nino"): PiiContext => ({ tenantId: row.tenant_id, table: "cis_subcontractors", recordId: row.id, field });
      const sets: string[] = [];
      const setParams: string[] = [];
      const guards: string[] = [];
      const guardParams: string[] = [];
      for (const field of ["utr", "nino"] as const) {
        const stored = field === "utr" ? row.utr_enc : row.nino_enc;
        if (!stale(stored, prefix)) continue;
        const fresh = await reencrypt(stored as string, ctx(field));
        if (fresh === null) continue;
        sets.push(`${field}_enc = ?`);
        setParams.push(fresh);
        guards.push(`${field}_enc = ?`);
        guardParams.push(stored as string);
        report.subcontractors[field] += 1;
      }
      if (sets.length === 0) continue;
      report.subcontractors.updatedRows += 1;
      writes.push({
        sql: `UPDATE cis_subcontractors SET ${sets.join(", ")} WHERE tenant_id = ? AND id = ? AND ${guards.join(" AND ")}`,
        params: [...setParams, row.tenant_id, row.id, ...guardParams],
      });
    }
    if (!opts.dryRun) await port.batch(writes);
    log(`cis_subcontractors: ${report.subcontractors.scanned} scanned, ${report.subcontractors.updatedRows} re-encrypted so far`);
    afterId = rows[rows.length - 1].id;
    if (rows.length < batchSize) break;
  }

  // Each tenant's settings: the contractor's own UTR and its Government Gateway credentials.
  const settingsFields = [
    { column: "utr_enc", field: "utr", count: "utr" },
    { column: "gateway_sender_id_enc", field: "gateway_sender_id", count: "gateway" },
    { column: "gateway_password_enc", field: "gateway_password", count: "gateway" },
  ] as const;
  type SettingsRow = { tenant_id: string; utr_enc: string | null; gateway_sender_id_enc: string | null; gateway_password_enc: string | null };
  let afterTenant = "";
  for (;;) {
    const rows = await port.all<SettingsRow>({
      sql: `SELECT tenant_id, utr_enc, gateway_sender_id_enc, gateway_password_enc FROM cis_settings
            WHERE tenant_id > ? AND (${settingsFields.map((f) => `(${f.column} IS NOT NULL AND ${f.column} NOT LIKE ?)`).join(" OR ")})
            ORDER BY tenant_id LIMIT ?`,
      params: [afterTenant, ...settingsFields.map(() => likePrefix), batchSize],
    });
    if (rows.length === 0) break;
    const writes: SqlStatement[] = [];
    for (const row of rows) {
      report.settings.scanned += 1;
      const sets: string[] = [];
      const setParams: string[] = [];
      const guards: string[] = [];
      const guardParams: string[] = [];
      for (const f of settingsFields) {
        const stored = row[f.column];
        if (!stale(stored, prefix)) continue;
        const fresh = await reencrypt(stored as string, { tenantId: row.tenant_id, table: "cis_settings", recordId: row.tenant_id, field: f.field });
        if (fresh === null) continue;
        sets.push(`${f.column} = ?`);
        setParams.push(fresh);
        guards.push(`${f.column} = ?`);
        guardParams.push(stored as string);
        report.settings[f.count] += 1;
      }
      if (sets.length === 0) continue;
      report.settings.updatedRows += 1;
      writes.push({
        sql: `UPDATE cis_settings SET ${sets.join(", ")} WHERE tenant_id = ? AND ${guards.join(" AND ")}`,
        params: [...setParams, row.tenant_id, ...guardParams],
      });
    }
    if (!opts.dryRun) await port.batch(writes);
    log(`cis_settings: ${report.settings.scanned} scanned, ${report.settings.updatedRows} re-encrypted so far`);
    afterTenant = rows[rows.length - 1].tenant_id;
    if (rows.length < batchSize) break;
  }

  // The stored GovTalk messages: large values, so smaller pages.
  const xmlBatch = Math.min(batchSize, 25);
  const xmlTables = [
    {
      table: "hmrc_submissions",
      columns: ["request_xml", "response_xml"] as SubmissionXmlField[],
      tenant: true,
      ctx: (row: XmlRow, field: string) => submissionXmlContext(row.tenant_id as string, row.id, field as SubmissionXmlField),
    },
    {
      table: "dev_hmrc_messages",
      columns: ["request_xml", "response_xml", "final_response_xml"] as DevMessageXmlField[],
      tenant: false,
      ctx: (row: XmlRow, field: string) => devMessageXmlContext(row.id, field as DevMessageXmlField),
    },
  ];
  type XmlRow = { id: string; tenant_id?: string } & Record<string, string | null | undefined>;
  for (const spec of xmlTables) {
    let afterXmlId = "";
    for (;;) {
      const rows = await port.all<XmlRow>({
        sql: `SELECT id, ${spec.tenant ? "tenant_id, " : ""}${spec.columns.join(", ")} FROM ${spec.table}
              WHERE id > ? AND (${spec.columns.map((c) => `(${c} IS NOT NULL AND ${c} NOT LIKE ?)`).join(" OR ")})
              ORDER BY id LIMIT ?`,
        params: [afterXmlId, ...spec.columns.map(() => likePrefix), xmlBatch],
      });
      if (rows.length === 0) break;
      const writes: SqlStatement[] = [];
      for (const row of rows) {
        report.hmrc.scanned += 1;
        const sets: string[] = [];
        const setParams: string[] = [];
        const guards: string[] = [];
        const guardParams: string[] = [];
        for (const column of spec.columns) {
          const stored = row[column];
          if (typeof stored !== "string" || stored.startsWith(prefix)) continue;
          const ctx = spec.ctx(row, column);
          const isLegacy = keyVersionOf(stored) === null;
          let fresh: string | null;
          if (isLegacy) {
            try {
              fresh = await encryptPii(keySpec, stored, ctx);
            } catch (err) {
              report.failures.push({ table: spec.table, id: row.id, field: column, error: err instanceof Error ? err.message : String(err) });
              fresh = null;
            }
          } else fresh = await reencrypt(stored, ctx);
          if (fresh === null) continue;
          sets.push(`${column} = ?`);
          setParams.push(fresh);
          guards.push(`${column} = ?`);
          guardParams.push(stored);
          report.hmrc.values += 1;
          if (isLegacy) report.hmrc.legacy += 1;
        }
        if (sets.length === 0) continue;
        report.hmrc.updatedRows += 1;
        writes.push({
          sql: `UPDATE ${spec.table} SET ${sets.join(", ")} WHERE ${spec.tenant ? "tenant_id = ? AND " : ""}id = ? AND ${guards.join(" AND ")}`,
          params: [...setParams, ...(spec.tenant ? [row.tenant_id as string] : []), row.id, ...guardParams],
        });
      }
      if (!opts.dryRun) await port.batch(writes);
      log(`${spec.table}: ${report.hmrc.scanned} scanned, ${report.hmrc.updatedRows} re-encrypted so far`);
      afterXmlId = rows[rows.length - 1].id;
      if (rows.length < xmlBatch) break;
    }
  }

  // Frozen statements' UTRs, bound to their document row (record = statement id).
  let afterStatement = "";
  for (;;) {
    const rows = await port.all<{ tenant_id: string; statement_id: string; utr_enc: string }>({
      sql: `SELECT tenant_id, statement_id, utr_enc FROM cis_statement_documents
            WHERE statement_id > ? AND utr_enc IS NOT NULL AND utr_enc NOT LIKE ?
            ORDER BY statement_id LIMIT ?`,
      params: [afterStatement, likePrefix, batchSize],
    });
    if (rows.length === 0) break;
    const writes: SqlStatement[] = [];
    for (const row of rows) {
      report.statementDocuments.scanned += 1;
      const fresh = await reencrypt(row.utr_enc, { tenantId: row.tenant_id, table: "cis_statement_documents", recordId: row.statement_id, field: "utr" });
      if (fresh === null) continue;
      report.statementDocuments.updatedRows += 1;
      writes.push({
        sql: "UPDATE cis_statement_documents SET utr_enc = ? WHERE tenant_id = ? AND statement_id = ? AND utr_enc = ?",
        params: [fresh, row.tenant_id, row.statement_id, row.utr_enc],
      });
    }
    if (!opts.dryRun) await port.batch(writes);
    log(`cis_statement_documents: ${report.statementDocuments.scanned} scanned, ${report.statementDocuments.updatedRows} re-encrypted so far`);
    afterStatement = rows[rows.length - 1].statement_id;
    if (rows.length < batchSize) break;
  }
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
