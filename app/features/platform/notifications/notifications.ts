/** Client-safe: what the inbox page and its server code share. */
import { z } from "zod";

export { NOTIFICATIONS_PAGE_SIZE, notificationsLabel, UNREAD_COUNT_CAP, unreadBadge } from "./badge";

/** ?page=N: a whole number from 1; anything else is the first page. */
export const notificationsQuerySchema = z.object({ page: z.coerce.number().int().min(1).max(10_000).catch(1) });

/** The inbox's two forms, told apart by `intent`. */
export const notificationActionSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("read"), id: z.string().min(1).max(300), page: z.coerce.number().int().min(1).max(10_000).catch(1) }),
  z.object({ intent: z.literal("read-all"), upTo: z.coerce.number().int().min(0) }),
]);
