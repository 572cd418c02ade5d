/**
 * Client-safe and light: what the shell (on every page) and the inbox page share. No zod here:
 * the shell would carry it into every page's first load.
 */
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
