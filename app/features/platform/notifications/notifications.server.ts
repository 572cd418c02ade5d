import { and, desc, eq, lte } from "drizzle-orm";
import { dbFor } from "~/db/client.server";
import { forTenant } from "~/db/tenancy";
import { notifications } from "~/db/schema";
import { NOTIFICATIONS_PAGE_SIZE } from "./notifications";
import type { Ok, Result } from "~/utils/result";

export type NotificationItem = {
  id: string;
  type: string;
  title: string;
  message: string;
  link: string | null;
  read: boolean;
  createdAt: number;
};

export type NotificationPage = { items: NotificationItem[]; page: number; hasMore: boolean };

export type NotificationErrorCode = "not_found";

/** Only the person's own notifications, in their own tenant: every query here starts from this. */
function mine(tenantId: string, userId: string) {
  return and(forTenant(notifications, tenantId), eq(notifications.targetUserId, userId));
}

/** One page of the person's notifications, newest first, in one query (one more row tells whether there is an older page). */
export async function listNotifications(env: Env, tenantId: string, userId: string, page: number): Promise<NotificationPage> {
  const rows = await dbFor(env, tenantId)
    .select({
      id: notifications.id,
      type: notifications.type,
      title: notifications.title,
      message: notifications.message,
      link: notifications.link,
      read: notifications.read,
      createdAt: notifications.createdAt,
    })
    .from(notifications)
    .where(mine(tenantId, userId))
    .orderBy(desc(notifications.createdAt), desc(notifications.id))
    .limit(NOTIFICATIONS_PAGE_SIZE + 1)
    .offset((page - 1) * NOTIFICATIONS_PAGE_SIZE);
  return { items: rows.slice(0, NOTIFICATIONS_PAGE_SIZE), page, hasMore: rows.length > NOTIFICATIONS_PAGE_SIZE };
}

/** Marks one of the person's own notifications read; someone else's, or another tenant's, is not_found. */
export async function markNotificationRead(env: Env, tenantId: string, userId: string, id: string): Promise<Result<void, NotificationErrorCode>> {
  const res = await dbFor(env, tenantId)
    .update(notifications)
    .set({ read: true })
    .where(and(mine(tenantId, userId), eq(notifications.id, id)))
    .returning({ id: notifications.id });
  return res.length > 0 ? { ok: true } : { ok: false, code: "not_found" };
}

/**
 * Marks the person's unread notifications read, up to `upTo` (the time the page was shown):
 * one that arrived after they looked stays unread.
 */
export async function markAllNotificationsRead(env: Env, tenantId: string, userId: string, upTo: number): Promise<Ok<{ marked: number }>> {
  const res = await dbFor(env, tenantId)
    .update(notifications)
    .set({ read: true })
    .where(and(mine(tenantId, userId), eq(notifications.read, false), lte(notifications.createdAt, upTo)));
  return { ok: true, marked: res.meta.changes ?? 0 };
}
