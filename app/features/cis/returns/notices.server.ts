import { and, desc, eq, sql, type SQLWrapper } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { dbFor, type Db } from "~/db/client.server";
import { cisNoPaymentNotices } from "~/db/schema";
import { forTenant } from "~/db/tenancy";
import { auditInsert, auditInsertWhere } from "~/features/platform/index.server";
import type { Actor } from "~/features/auth";
import { newId } from "~/utils/ids";
import type { NoPaymentsNotice } from "../domain";

export type NoticeRow = typeof cisNoPaymentNotices.$inferSelect;

/** Every notice of no payments the tenant gave HMRC, newest first (a few a year: read whole). */
export function noticesQuery(db: Db, tenantId: string | SQLWrapper) {
  return db
    .select()
    .from(cisNoPaymentNotices)
    .where(forTenant(cisNoPaymentNotices, tenantId))
    .orderBy(desc(cisNoPaymentNotices.givenOn), desc(cisNoPaymentNotices.createdAt));
}

/** The rules engine's view of stored notices. */
export function toNotices(rows: readonly Pick<NoticeRow, "givenOn" | "firstMonth" | "months">[]): NoPaymentsNotice[] {
  return rows.map((r) => ({ givenOn: r.givenOn, firstMonth: r.firstMonth, months: r.months }));
}

/** A notice given to HMRC another way than a CIS300 (by phone, online): the notice and its audit entry in one batch. */
export async function recordNotice(
  env: Env,
  tenantId: string,
  actor: Actor,
  notice: NoPaymentsNotice,
  opts: { now?: Date; ip?: string | null } = {},
): Promise<{ id: string }> {
  const db = dbFor(env, tenantId);
  const now = (opts.now ?? new Date()).getTime();
  const id = newId();
  await db.batch([
    db.insert(cisNoPaymentNotices).values({
      tenantId,
      id,
      source: "other",
      givenOn: notice.givenOn,
      firstMonth: notice.firstMonth,
      months: notice.months,
      returnId: null,
      createdAt: now,
      createdBy: actor.id,
    }),
    auditInsert(
      db,
      {
        tenantId,
        action: "cis.notice.recorded",
        actorId: actor.id,
        actorEmail: actor.email,
        targetType: "notice",
        targetId: id,
        payload: { givenOn: notice.givenOn, firstMonth: notice.firstMonth, months: notice.months, source: "other" },
        ip: opts.ip ?? null,
      },
      now,
    ),
  ]);
  return { id };
}

/**
 * Why a notice could not be changed: another tenant's or an unknown id (404), or the inactivity
 * declaration of an accepted CIS300, which is what HMRC was told and is kept as it was.
 */
export type NoticeChangeRefusal = "not_found" | "declaration";
export const NOTICE_CHANGE_MESSAGES: Readonly<Record<NoticeChangeRefusal, string>> = {
  not_found: "Notice not found",
  declaration: "An inactivity declaration on a return is what HMRC was told: it cannot be changed or deleted here.",
};

/** The tenant's notice with this id, or why it may not be changed. */
export async function editableNotice(env: Env, tenantId: string, id: string): Promise<{ ok: true; row: NoticeRow } | { ok: false; code: NoticeChangeRefusal }> {
  const [row] = await dbFor(env, tenantId)
    .select()
    .from(cisNoPaymentNotices)
    .where(and(forTenant(cisNoPaymentNotices, tenantId), eq(cisNoPaymentNotices.id, id)))
    .limit(1);
  if (!row) return { ok: false, code: "not_found" };
  return row.source === "other" ? { ok: true, row } : { ok: false, code: "declaration" };
}

/** A notice given another way, still there: what an edit or a delete (and its audit entry) applies to. */
function otherNotice(tenantId: string, id: string) {
  return and(forTenant(cisNoPaymentNotices, tenantId), eq(cisNoPaymentNotices.id, id), eq(cisNoPaymentNotices.source, "other"));
}

type NoticeChange = {
  action: "cis.notice.updated" | "cis.notice.deleted";
  payload: (row: NoticeRow) => Record<string, unknown>;
  statement: (db: Db, where: ReturnType<typeof otherNotice>) => BatchItem<"sqlite">;
};

/**
 * A change to a notice given another way: its audit entry and the change in one batch, both only
 * while the notice is still there and not a declaration (a racing delete leaves no entry).
 */
async function changeNotice(
  env: Env,
  tenantId: string,
  actor: Actor,
  id: string,
  change: NoticeChange,
  opts: { now?: Date; ip?: string | null },
): Promise<{ ok: true } | { ok: false; code: NoticeChangeRefusal }> {
  const found = await editableNotice(env, tenantId, id);
  if (!found.ok) return found;
  const db = dbFor(env, tenantId);
  const now = (opts.now ?? new Date()).getTime();
  const entry = { tenantId, action: change.action, actorId: actor.id, actorEmail: actor.email, targetType: "notice", targetId: id, ip: opts.ip ?? null };
  const [audit] = await db.batch([
    auditInsertWhere(db, { ...entry, payload: change.payload(found.row) }, sql`${otherNotice(tenantId, id)}`, { from: cisNoPaymentNotices, now }),
    change.statement(db, otherNotice(tenantId, id)),
  ]);
  return (audit.meta.changes ?? 0) > 0 ? { ok: true } : { ok: false, code: "not_found" };
}

const noticeFields = (row: Pick<NoticeRow, "givenOn" | "firstMonth" | "months">) => ({ givenOn: row.givenOn, firstMonth: row.firstMonth, months: row.months });

/** Corrects a notice given another way; the audit entry keeps the new values and the old. */
export function updateNotice(env: Env, tenantId: string, actor: Actor, id: string, notice: NoPaymentsNotice, opts: { now?: Date; ip?: string | null } = {}) {
  return changeNotice(
    env,
    tenantId,
    actor,
    id,
    {
      action: "cis.notice.updated",
      payload: (row) => ({ ...noticeFields(notice), before: noticeFields(row) }),
      statement: (db, where) => db.update(cisNoPaymentNotices).set(noticeFields(notice)).where(where),
    },
    opts,
  );
}

/** Deletes a notice given another way; the audit entry keeps what it said. */
export function deleteNotice(env: Env, tenantId: string, actor: Actor, id: string, opts: { now?: Date; ip?: string | null } = {}) {
  return changeNotice(
    env,
    tenantId,
    actor,
    id,
    { action: "cis.notice.deleted", payload: noticeFields, statement: (db, where) => db.delete(cisNoPaymentNotices).where(where) },
    opts,
  );
}
