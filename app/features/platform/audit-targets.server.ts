import { sql, type SQL } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { auditEvents } from "~/db/schema";

/** The audit entry's columns a name is looked up by. */
export type AuditRef = { id: SQLiteColumn; tenantId: SQLiteColumn };

/**
 * How the audit log names the targets of one type ('invoice', 'file', …), registered by the
 * feature that owns the table. `name` is a scalar sub-select reading the entry's target id and
 * tenant (it must filter by both: another tenant's row never names anything); `format` turns
 * what it read into the words shown ("invoice HAR-202611-045").
 */
export type AuditTargetNamer = {
  targetType: string;
  name(target: AuditRef): SQL;
  format?(value: string): string;
};

/** A way to name an actor who is not a team member (a subcontractor signed in to the portal). */
export type AuditActorNamer = { name(actor: AuditRef): SQL };

const targets = new Map<string, AuditTargetNamer>();
const actors: AuditActorNamer[] = [];

/** Called by the composition root (app/jobs.server.ts) with each feature's namers; registering a type again replaces it. */
export function registerAuditNamers(namers: { targets?: readonly AuditTargetNamer[]; actors?: readonly AuditActorNamer[] }): void {
  for (const namer of namers.targets ?? []) targets.set(namer.targetType, namer);
  for (const namer of namers.actors ?? []) if (!actors.includes(namer)) actors.push(namer);
}

/**
 * The target's name as one column of the audit query: a CASE on the target type whose branch is
 * the owner's sub-select, so naming costs no extra round trip and only the matching branch runs.
 */
export function auditTargetNameColumn(): SQL<string | null> {
  const branches = [...targets.values()].map((t) => sql`WHEN ${t.targetType} THEN (${t.name({ id: auditEvents.targetId, tenantId: auditEvents.tenantId })})`);
  if (branches.length === 0) return sql<string | null>`NULL`;
  return sql<string | null>`CASE ${auditEvents.targetType} ${sql.join(branches, sql` `)} ELSE NULL END`;
}

/** The actor's name from the registered namers (tried in order), as one column; null when none knows them. */
export function auditActorNameColumn(): SQL<string | null> {
  const names = actors.map((a) => sql`(${a.name({ id: auditEvents.actorId, tenantId: auditEvents.tenantId })})`);
  if (names.length === 0) return sql<string | null>`NULL`;
  if (names.length === 1) return sql<string | null>`${names[0]}`;
  return sql<string | null>`COALESCE(${sql.join(names, sql`, `)})`;
}

/** The words for a target's stored name, through its owner's `format`. */
export function formatAuditTarget(targetType: string | null, value: string | null): string | null {
  if (targetType === null || value === null) return null;
  const format = targets.get(targetType)?.format;
  return format ? format(value) : value;
}
