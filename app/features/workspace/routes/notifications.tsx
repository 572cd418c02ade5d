import { data, Form, Link, redirect } from "react-router";
import { buttonClass, SubmitButton } from "~/components/ui/button";
import { cloudflareContext } from "~/context";
import { requireTenant, requireUser, safeRedirectPath } from "~/features/auth/index.server";
import { formatDateTime } from "~/utils/dates";
import { AppShell, unreadBadge } from "~/features/platform";
import {
  listNotifications,
  markAllNotificationsRead,
  markNotificationRead,
  notificationActionSchema,
  notificationsQuerySchema,
  redirectWithToast,
} from "~/features/platform/index.server";
import type { Route } from "./+types/notifications";

/** The signed-in person's own notifications, newest first, a page at a time. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { env } = context.get(cloudflareContext);
  const tenant = requireTenant(context);
  const user = requireUser(request, context);
  const { page } = notificationsQuerySchema.parse(Object.fromEntries(new URL(request.url).searchParams));
  const list = await listNotifications(env, tenant.id, user.id, page);
  return {
    page: list.page,
    hasMore: list.hasMore,
    unread: user.unreadNotifications,
    // Mark all as read covers what had arrived when the page was shown.
    shownAt: Date.now(),
    items: list.items.map((n) => ({
      id: n.id,
      title: n.title,
      message: n.message,
      // Stored links are our own paths; anything else is not rendered as a link.
      link: n.link && safeRedirectPath(n.link, "") === n.link ? n.link : null,
      read: n.read,
      when: formatDateTime(n.createdAt),
    })),
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const { env } = context.get(cloudflareContext);
  const tenant = requireTenant(context);
  const user = requireUser(request, context);
  const parsed = notificationActionSchema.safeParse(Object.fromEntries(await request.formData()));
  if (!parsed.success) throw data("Bad request", { status: 400 });
  if (parsed.data.intent === "read") {
    const res = await markNotificationRead(env, tenant.id, user.id, parsed.data.id);
    if (!res.ok) throw data("Notification not found", { status: 404 });
    return redirect(parsed.data.page > 1 ? `/notifications?page=${parsed.data.page}` : "/notifications");
  }
  await markAllNotificationsRead(env, tenant.id, user.id, parsed.data.upTo);
  return redirectWithToast(env, "/notifications", { type: "success", title: "All notifications marked as read" });
}

// eslint-disable-next-line max-lines-per-function -- one page read top to bottom, a little over the limit; a split would only pass the loader data through props
export default function Notifications({ loaderData }: Route.ComponentProps) {
  const { items, page, hasMore, unread, shownAt } = loaderData;
  return (
    <AppShell>
      <div className="mx-auto max-w-3xl px-6 py-10">
        <div className="flex flex-wrap items-center justify-between gap-4">
          <div>
            <h1 className="text-2xl font-bold">Notifications</h1>
            <p className="text-sm opacity-70" data-testid="unread-summary">
              {unread > 0 ? `${unreadBadge(unread)} unread` : "No unread notifications"}. Times are London time.
            </p>
          </div>
          {unread > 0 ? (
            <Form method="post">
              <input type="hidden" name="upTo" value={shownAt} />
              <SubmitButton name="intent" value="read-all" variant="secondary" pendingText="Marking…">
                Mark all as read
              </SubmitButton>
            </Form>
          ) : null}
        </div>
        {items.length === 0 ? (
          <p className="mt-10 rounded-brand border border-dashed border-line p-8 text-center" data-testid="notifications-empty">
            {page > 1 ? "No more notifications." : "No notifications yet. Deadline reminders and files shared with you will appear here."}
          </p>
        ) : (
          <ul className="mt-6 divide-y divide-line rounded-brand border border-line" aria-label="Notifications, newest first">
            {items.map((n) => (
              <li
                key={n.id}
                data-testid="notification"
                data-unread={n.read ? "false" : "true"}
                className={`flex items-start gap-4 p-4 ${n.read ? "" : "bg-surface"}`}
              >
                <div className="min-w-0 flex-1">
                  <h2 className={`text-base ${n.read ? "font-normal" : "font-semibold"}`}>
                    {n.read ? null : (
                      <>
                        <span className="mr-2 rounded-full bg-accent px-2 py-0.5 text-xs text-accent-foreground">Unread</span>{" "}
                      </>
                    )}
                    {n.link ? (
                      <Link to={n.link} className="underline">
                        {n.title}
                      </Link>
                    ) : (
                      n.title
                    )}
                  </h2>
                  {n.message ? <p className="mt-1 text-sm">{n.message}</p> : null}
                  <p className="mt-1 text-xs opacity-70">{n.when}</p>
                </div>
                {n.read ? null : (
                  <Form method="post">
                    <input type="hidden" name="id" value={n.id} />
                    <input type="hidden" name="page" value={page} />
                    <SubmitButton
                      name="intent"
                      value="read"
                      match={{ id: n.id }}
                      variant="ghost"
                      pendingText="Marking…"
                      aria-label={`Mark as read: ${n.title}`}
                    >
                      Mark as read
                    </SubmitButton>
                  </Form>
                )}
              </li>
            ))}
          </ul>
        )}
        {page > 1 || hasMore ? (
          <nav aria-label="Pages" className="mt-6 flex justify-between text-sm">
            {page > 1 ? (
              <Link to={page === 2 ? "/notifications" : `/notifications?page=${page - 1}`} className={buttonClass("secondary")}>
                Newer
              </Link>
            ) : (
              <span />
            )}
            {hasMore ? (
              <Link to={`/notifications?page=${page + 1}`} className={buttonClass("secondary")}>
                Older
              </Link>
            ) : null}
          </nav>
        ) : null}
      </div>
    </AppShell>
  );
}

export function meta() {
  return [{ title: "Notifications" }];
}
