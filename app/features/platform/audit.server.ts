import { and, desc, eq, getTableColumns, is, sql, SQL } from "drizzle-orm";
import type { SQLiteTable } from "drizzle-orm/sqlite-core";
import { dbFor, type Db } from "~/db/client.server";
import { insertWhere } from "~/db/insert-where.server";
import { activityLog, auditEvents, users } from "~/db/schema";
import { newId } from "~/utils/ids";
import type { AuditAction } from "./audit-actions";
import { auditActorNameColumn, auditTargetNameColumn, formatAuditTarget } from "./audit-targets.server";

export { AUDIT_ACTIONS, auditSentence, type AuditAction } from "./audit-actions";

export type AuditEntry = {
  tenantId: string | null;
  /** A registered action (see audit-actions.ts): anything else fails typecheck. */
  action: AuditAction;
  actorId?: string | null;
  actorEmail?: string | null;
  targetType?: string | null;
  targetId?: string | null;
  /** Never a password, code, token or plaintext identifier. */
  payload?: Record<string, unknown>;
  ip?: string | null;
};

/** The row of an entry, as stored. */
function auditRow(entry: AuditEntry, now: number) {
  return {
    id: newId(),
    tenantId: entry.tenantId,
    action: entry.action,
    actorId: entry.actorId ?? null,
    actorEmail: entry.actorEmail ?? null,
    targetType: entry.targetType ?? null,
    targetId: entry.targetId ?? null,
    payload: entry.payload ?? {},
    ip: entry.ip ?? null,
    createdAt: now,
  };
}

/** The insert as a statement, so callers can put it in the same D1 batch as the change it records. */
export function auditInsert(db: Db, entry: AuditEntry, now = Date.now()) {
  return db.insert(auditEvents).values(auditRow(entry, now));
}

/** Several entries in one statement (an import's per-row entries); the caller keeps each statement under D1's bound-parameter limit. */
export function auditInsertMany(db: Db, entries: readonly AuditEntry[], now = Date.now()) {
  return db.insert(auditEvents).values(entries.map((e) => auditRow(e, now)));
}

/** An entry whose fields other than the action may also be SQL, read from the row the condition finds. */
export type ConditionalAuditEntry = {
  [K in keyof AuditEntry]: K extends "action" ? AuditEntry[K] : AuditEntry[K] | SQL;
};

/**
 * An audit entry that lands only while `where` holds, checked by the database in the same
 * statement: in a D1 batch it sees the batch's earlier writes, so placed after an UPDATE it
 * records exactly the change that happened (and nothing when the UPDATE lost a race). `from`
 * names the table (or a join, as SQL) the condition and any SQL fields read.
 */
export function auditInsertWhere(db: Db, entry: ConditionalAuditEntry, where: SQL, opts: { from?: SQLiteTable | SQL; now?: number } = {}) {
  const payload = entry.payload;
  return insertWhere(
    db,
    auditEvents,
    {
      id: newId(),
      tenantId: entry.tenantId,
      action: entry.action,
      actorId: entry.actorId ?? null,
      actorEmail: entry.actorEmail ?? null,
      targetType: entry.targetType ?? null,
      targetId: entry.targetId ?? null,
      payload: is(payload, SQL) ? payload : JSON.stringify(payload ?? {}),
      ip: entry.ip ?? null,
      createdAt: opts.now ?? Date.now(),
    },
    where,
    { from: opts.from },
  );
}

/** An entry of a tenant lands in the tenant's database; one of the platform (no tenant) in the platform's. */
export async function writeAudit(env: Env, entry: AuditEntry): Promise<void> {
  await auditInsert(dbFor(env, entry.tenantId), entry);
}

export function clientIp(request: Request): string | null {
  return request.headers.get("CF-Connecting-IP") ?? request.headers.get("X-Forwarded-For")?.split(",")[0]?.trim() ?? null;
}

export type ActivityEntry = {
  tenantId: string;
  module: string;
  action: string;
  entityType: string;
  entityId?: string | null;
  performedBy?: string | null;
  performedByName?: string | null;
  details?: Record<string, unknown>;
};

export function activityInsert(db: Db, e: ActivityEntry, now = Date.now()) {
  return db.insert(activityLog).values({
    id: newId(),
    tenantId: e.tenantId,
    module: e.module,
    action: e.action,
    entityType: e.entityType,
    entityId: e.entityId ?? null,
    performedBy: e.performedBy ?? null,
    performedByName: e.performedByName ?? null,
    details: e.details ?? {},
    performedAt: now,
  });
}

export async function listRecentActivity(env: Env, tenantId: string, module: string, limit = 10) {
  return recentActivityQuery(dbFor(env, tenantId), tenantId, module, limit);
}

/** The query alone, for a page that reads it in its own D1 batch. */
export function recentActivityQuery(db: Db, tenantId: string, module: string, limit = 10) {
  return db
    .select()
    .from(activityLog)
    .where(and(eq(activityLog.tenantId, tenantId), eq(activityLog.module, module)))
    .orderBy(desc(activityLog.performedAt))
    .limit(limit);
}

/**
 * Newest first, with names for the sentences: `actorName` (the member's display name, "Former
 * user" once erased, or what a registered namer calls them: a subcontractor in the portal) and
 * `targetName` (what the target's owner calls it, formatted; null when it has none or is gone).
 * One query: the names are sub-selects in the same statement.
 */
export async function listAudit(env: Env, tenantId: string, limit = 50) {
  const rows = await dbFor(env, tenantId)
    .select({
      ...getTableColumns(auditEvents),
      actorErased: sql<boolean>`${users.scrubbedAt} IS NOT NULL`.mapWith(Boolean),
      actorName: sql<string | null>`COALESCE(${users.displayName}, ${auditActorNameColumn()})`,
      targetName: auditTargetNameColumn(),
    })
    .from(auditEvents)
    .leftJoin(users, and(eq(users.tenantId, auditEvents.tenantId), eq(users.id, auditEvents.actorId)))
    .where(eq(auditEvents.tenantId, tenantId))
    .orderBy(desc(auditEvents.createdAt))
    .limit(limit);
  return rows.map((r) => ({ ...r, targetName: formatAuditTarget(r.targetType, r.targetName) }));
}
