import type { ReactNode } from "react";
import { Form, Link, NavLink, useLocation, useRouteLoaderData } from "react-router";
import { notificationsLabel, unreadBadge } from "../notifications/badge";
import type { ShellData } from "./shell-data";
import { UserMenu } from "./user-menu";

// Elements that are the same on every request, made once (the bell's strokes are styled by .icon).
const SKIP_LINK = (
  <a href="#main" className="sr-only-focusable skip-link">
    Skip to content
  </a>
);
const TENANT_MARK = <span aria-hidden="true" className="inline-block h-6 w-6 rounded-brand bg-accent" />;
const BELL = (
  <svg aria-hidden="true" viewBox="0 0 24 24" className="icon h-5 w-5">
    <path d="M6 8a6 6 0 0 1 12 0c0 7 3 9 3 9H3s3-2 3-9" />
    <path d="M10.3 21a1.94 1.94 0 0 0 3.4 0" />
  </svg>
);
// A module link, and the one whose module the page is in (classes in app.css).
const MODULE_LINK = "nav-link hover:bg-surface";
const MODULE_LINK_ON = "nav-link bg-accent text-accent-foreground";

/**
 * The tenant workspace frame: tenant name, module navigation, the user's menu. Pages outside a
 * workspace (sign-in on the bare domain, the platform console) get a plain bar. Either way the
 * page has one banner (the shell's header) and one `<main id="main">` (the skip link's target):
 * pages render their content into it and never add a <main> or a top-level <header> of their own.
 */
export function AppShell({ children }: { children: ReactNode }) {
  const root = useRouteLoaderData("root") as ShellData | undefined;
  const location = useLocation();
  if (!root?.tenant) {
    return (
      <div className="min-h-screen">
        {SKIP_LINK}
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
      {SKIP_LINK}
      <header className="border-b border-line bg-elevated print:hidden">
        {/* On a phone the module links take a row of their own under the name, bell and menu. */}
        <div className="shell-bar">
          <Link to="/" className="flex min-w-0 flex-1 items-center gap-2 font-bold sm:flex-none">
            {TENANT_MARK}
            <span data-testid="tenant-name">{root.tenant.name}</span>
          </Link>
          {root.user ? (
            <nav aria-label="Modules" className="module-nav">
              {root.tenant.modules.length === 0 ? (
                <NavLink to="/welcome" className={({ isActive }) => (isActive ? MODULE_LINK_ON : MODULE_LINK)}>
                  Welcome
                </NavLink>
              ) : (
                root.tenant.modules.map((m) => (
                  <NavLink
                    key={m.id}
                    to={m.route}
                    className={() => (location.pathname === m.route || location.pathname.startsWith(`${m.route}/`) ? MODULE_LINK_ON : MODULE_LINK)}
                  >
                    {m.label}
                    {m.count ? (
                      <span data-testid={`module-count-${m.id}`} className="count-badge ml-1.5 px-1.5">
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
      className={active ? "icon-btn bg-accent text-accent-foreground" : "icon-btn hover:bg-surface"}
    >
      {BELL}
      {unread > 0 ? (
        <span aria-hidden="true" data-testid="notifications-badge" className="count-badge absolute -right-1 -top-1 min-w-5 px-1 text-center">
          {unreadBadge(unread)}
        </span>
      ) : null}
    </Link>
  );
}
