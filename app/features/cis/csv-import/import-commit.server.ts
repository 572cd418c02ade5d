/**
 * The parts both CSV import commits share: the created rows' audit entries several to an INSERT,
 * the import's own audit and activity entries, and the one all-or-nothing batch. Each import
 * keeps its own rows, checks and conflict.
 */
import type { BatchItem } from "drizzle-orm/batch";
import type { Db } from "~/db/client.server";
import { activityInsert, auditInsert, auditInsertMany, type AuditEntry } from "~/features/platform/index.server";
import type { Actor } from "~/features/auth";

/** What each import records about itself. */
const IMPORT_RECORDS = {
  invoices: { audit: "cis.import.invoices", activity: "invoices.imported", targetType: "invoice" },
  subcontractors: { audit: "cis.import.subcontractors", activity: "subcontractors.imported", targetType: "subcontractor" },
} as const;
export type ImportEntity = keyof typeof IMPORT_RECORDS;

/** An audit row binds 10 parameters: 9 rows per INSERT stay within D1's 100 bound parameters per statement. */
const AUDIT_ROWS_PER_INSERT = 9;

/**
 * `rows` as INSERTs of at most `perInsert` rows each, in order. Several rows per INSERT (within
 * D1's 100 bound parameters per statement) keeps a 1,000-row import to a few hundred statements.
 */
export function insertsOf<T>(rows: T[], perInsert: number, insert: (chunk: T[]) => BatchItem<"sqlite">): BatchItem<"sqlite">[] {
  const statements: BatchItem<"sqlite">[] = [];
  for (let i = 0; i < rows.length; i += perInsert) statements.push(insert(rows.slice(i, i + perInsert)));
  return statements;
}

/** The created rows' audit entries, several per INSERT. */
export function auditInsertsOf(db: Db, entries: AuditEntry[], now: number): BatchItem<"sqlite">[] {
  return insertsOf(entries, AUDIT_ROWS_PER_INSERT, (chunk) => auditInsertMany(db, chunk, now));
}

/** The import's own entries: one audit entry with the kind and the count, one activity entry. */
export function importRecordInserts(
  db: Db,
  entity: ImportEntity,
  { tenantId, actor, count, ip, now }: { tenantId: string; actor: Actor; count: number; ip: string | null; now: number },
): BatchItem<"sqlite">[] {
  const record = IMPORT_RECORDS[entity];
  return [
    auditInsert(
      db,
      {
        tenantId,
        action: record.audit,
        actorId: actor.id,
        actorEmail: actor.email,
        targetType: record.targetType,
        payload: { entity, format: "csv", count },
        ip,
      },
      now,
    ),
    activityInsert(
      db,
      {
        tenantId,
        module: "cis",
        action: record.activity,
        entityType: record.targetType,
        performedBy: actor.id,
        performedByName: actor.name,
        details: { count },
      },
      now,
    ),
  ];
}

/**
 * Runs an import's statements as ONE D1 batch, all or nothing. A failure `isConflict` recognises
 * (a row created by someone else between the check and the batch: a unique index) answers false,
 * nothing written; any other error is thrown.
 */
export async function runImportBatch(db: Db, statements: BatchItem<"sqlite">[], isConflict: (err: unknown) => boolean): Promise<boolean> {
  try {
    await db.batch(statements as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]]);
    return true;
  } catch (err) {
    if (isConflict(err)) return false;
    throw err;
  }
}
