import type { ReactNode } from "react";
import { Form, Link, NavLink, useLocation, useRouteLoaderData } from "react-router";
import { notificationsLabel, unreadBadge } from "../notifications/badge";
import type { ShellData } from "./shell-data";
import { UserMenu } from "./user-menu";

const SKIP_LINK = "sr-only-focusable fixed left-2 top-2 z-50 rounded bg-accent px-3 py-2 text-accent-foreground";

/**
 * The tenant workspace frame: tenant name, module navigation, the user's menu. Pages outside a
 * workspace (sign-in on the bare domain, the platform console) get a plain bar. Either way the
 * page has one banner (the shell's header) and one `<main id="main">` (the skip link's target):
 * pages render their content into it and never add a <main> or a top-level <header> of their own.
 */
// eslint-disable-next-line max-lines-per-function -- the shell, owned by issue 25
export function AppShell({ children }: { children: ReactNode }) {
  const root = useRouteLoaderData("root") as ShellData | undefined;
  const location = useLocation();
  if (!root?.tenant) {
    return (
      <div className="min-h-screen">
        <a href="#main" className={SKIP_LINK}>
          Skip to content
        </a>
        <header className="border-b border-line">
          <div className="mx-auto flex max-w-6xl items-center justify-between px-6 py-4">
            <a href="/" className="text-lg font-bold">
              Workspace
            </a>
            {root?.user ? (
              <Form method="post" action="/logout">
                <button type="submit" className="text-sm underline">
                  Sign out
                </button>
              </Form>
            ) : null}
          </div>
        </header>
        <main id="main" tabIndex={-1} className="outline-none">
          {children}
        </main>
      </div>
    );
  }
  return (
    <div className="min-h-screen">
      <a href="#main" className={SKIP_LINK}>
        Skip to content
      </a>
      <header className="border-b border-line bg-elevated print:hidden">
        {/* On a phone the module links take a row of their own under the name, bell and menu. */}
        <div className="mx-auto flex max-w-7xl flex-wrap items-center gap-x-3 gap-y-2 px-4 py-3 sm:flex-nowrap sm:gap-x-6">
          <Link to="/" className="flex min-w-0 flex-1 items-center gap-2 font-bold sm:flex-none">
            <span aria-hidden="true" className="inline-block h-6 w-6 rounded-brand bg-accent" />
            <span data-testid="tenant-name">{root.tenant.name}</span>
          </Link>
          {root.user ? (
            <nav aria-label="Modules" className="order-last flex basis-full flex-wrap gap-1 text-sm sm:order-none sm:flex-1 sm:basis-auto">
              {root.tenant.modules.length === 0 ? (
                <NavLink
                  to="/welcome"
                  className={({ isActive }) => `rounded-brand px-3 py-1.5 ${isActive ? "bg-accent text-accent-foreground" : "hover:bg-surface"}`}
                >
                  Welcome
                </NavLink>
              ) : (
                root.tenant.modules.map((m) => (
                  <NavLink
                    key={m.id}
                    to={m.route}
                    className={() =>
                      `rounded-brand px-3 py-1.5 ${location.pathname === m.route || location.pathname.startsWith(`${m.route}/`) ? "bg-accent text-accent-foreground" : "hover:bg-surface"}`
                    }
                  >
                    {m.label}
                    {m.count ? (
                      <span data-testid={`module-count-${m.id}`} className="ml-1.5 rounded-full bg-red-600 px-1.5 text-xs font-semibold leading-5 text-white">
                        {unreadBadge(m.count)}
                        <span className="sr-only"> unread</span>
                      </span>
                    ) : null}
                  </NavLink>
                ))
              )}
            </nav>
          ) : (
            <div className="flex-1" />
          )}
          {root.user ? <NotificationsLink unread={root.user.unreadNotifications} active={location.pathname === "/notifications"} /> : null}
          {root.user ? (
            <UserMenu
              user={root.user}
              themePreference={root.themePreference}
              links={[{ to: "/account", label: "Account" }, ...(root.user.canViewUsers ? [{ to: "/settings/users", label: "Users" }] : [])]}
            />
          ) : null}
        </div>
      </header>
      <main id="main" tabIndex={-1} className="outline-none">
        {children}
      </main>
    </div>
  );
}

/** The bell: its accessible name carries the unread count, the badge shows it to the eye. */
function NotificationsLink({ unread, active }: { unread: number; active: boolean }) {
  return (
    <Link
      to="/notifications"
      aria-label={notificationsLabel(unread)}
      aria-current={active ? "page" : undefined}
      data-testid="notifications-link"
      className={`relative inline-flex h-9 w-9 items-center justify-center rounded-brand ${active ? "bg-accent text-accent-foreground" : "hover:bg-surface"}`}
    >
      <svg
        aria-hidden="true"
        viewBox="0 0 24 24"
        className="h-5 w-5"
        fill="none"
        stroke="currentColor"
        strokeWidth="2"
        strokeLinecap="round"
        strokeLinejoin="round"
      >
        <path d="M6 8a6 6 0 0 1 12 0c0 7 3 9 3 9H3s3-2 3-9" />
        <path d="M10.3 21a1.94 1.94 0 0 0 3.4 0" />
      </svg>
      {unread > 0 ? (
        <span
          aria-hidden="true"
          data-testid="notifications-badge"
          className="absolute -right-1 -top-1 min-w-5 rounded-full bg-red-600 px-1 text-center text-xs font-semibold leading-5 text-white"
        >
          {unreadBadge(unread)}
        </span>
      ) : null}
    </Link>
  );
}
