import { desc } from "drizzle-orm";
import { dbFor, type Db } from "~/db/client.server";
import { cisNoPaymentNotices } from "~/db/schema";
import { forTenant } from "~/db/tenancy";
import { auditInsert } from "~/features/platform/index.server";
import type { Actor } from "~/features/auth";
import { newId } from "~/utils/ids";
import type { NoPaymentsNotice } from "../domain";

export type NoticeRow = typeof cisNoPaymentNotices.$inferSelect;

/** Every notice of no payments the tenant gave HMRC, newest first (a few a year: read whole). */
export function noticesQuery(db: Db, tenantId: string) {
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
