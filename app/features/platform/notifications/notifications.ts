/** Client-safe: what the shell and the inbox page share. */
import { z } from "zod";

/** The shell counts unread notifications up to this many and shows more as "99+". */
export const UNREAD_COUNT_CAP = 100;

/** Notifications per page of the inbox. */
export const NOTIFICATIONS_PAGE_SIZE = 25;

/** The badge's text: the count, or "99+" once it reaches the cap. */
export function unreadBadge(count: number): string {
  return count >= UNREAD_COUNT_CAP ? `${UNREAD_COUNT_CAP - 1}+` : String(count);
}

/** The bell's accessible name, e.g. "Notifications, 3 unread". */
export function notificationsLabel(count: number): string {
  return count > 0 ? `Notifications, ${unreadBadge(count)} unread` : "Notifications, none unread";
}

/** ?page=N: a whole number from 1; anything else is the first page. */
export const notificationsQuerySchema = z.object({ page: z.coerce.number().int().min(1).max(10_000).catch(1) });

/** The inbox's two forms, told apart by `intent`. */
export const notificationActionSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("read"), id: z.string().min(1).max(300), page: z.coerce.number().int().min(1).max(10_000).catch(1) }),
  z.object({ intent: z.literal("read-all"), upTo: z.coerce.number().int().min(0) }),
]);
