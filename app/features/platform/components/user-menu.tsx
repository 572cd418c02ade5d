import { useId } from "react";
import { Form, Link, useLocation } from "react-router";
import type { ThemePreference, UserStatus } from "~/db/enums";

// The dot's colour is a class, not an inline style: a style attribute costs the server more to write.
const STATUS = {
  active: { label: "Active", dot: "bg-[#22C55E]" },
  busy: { label: "Busy", dot: "bg-[#F97316]" },
  unavailable: { label: "Unavailable", dot: "bg-[#EF4444]" },
} as const satisfies Record<UserStatus, { label: string; dot: string }>;

// The theme choices in the order shown, written out as a record keyed by the type (so none can be
// missed) rather than read from the enums module, which would bring every enum to every page.
const THEMES = Object.keys({ system: 0, light: 0, dark: 0 } satisfies Record<ThemePreference, 0>) as ThemePreference[];

type Props = {
  user: { displayName: string; email: string; userStatus: keyof typeof STATUS };
  themePreference: ThemePreference;
  /** Pages about the person and their workspace (Account, Users), shown above Sign out. */
  links?: { to: string; label: string }[];
};

/**
 * A <details> menu: opens and closes without JavaScript. Each choice is its own small form
 * posting to an action, so status and theme are saved at once with or without JavaScript.
 */
export function UserMenu({ user, themePreference, links = [] }: Props) {
  const location = useLocation();
  const back = location.pathname + location.search;
  const status = STATUS[user.userStatus] ?? STATUS.active;
  const id = useId();
  // The menu is named by the text that shows the person's name ('Account menu for' is for
  // screen readers only), so what the eye reads ('Alice Admin') is part of the accessible name.
  return (
    <details className="relative">
      <summary className="menu-summary" aria-labelledby={id}>
        {/* The initials are drawn by CSS (an avatar, not a label), so the only text shown is the name. */}
        <span aria-hidden="true" data-initials={initials(user.displayName)} className="avatar">
          <span data-status={user.userStatus} className={`avatar-dot ${status.dot}`} />
        </span>
        <span id={id} className="text-sm">
          <span className="sr-only">{"Account menu for "}</span>
          {/* Narrow screens show the avatar only; the name stays in the accessible name. */}
          <span className="sr-only sm:not-sr-only">{user.displayName}</span>
        </span>
      </summary>
      <div className="menu-panel">
        <p className="truncate text-sm font-medium">{user.displayName}</p>
        <p className="truncate text-xs opacity-70">{user.email}</p>
        <fieldset className="mt-3">
          <legend className="menu-legend">Status</legend>
          <div className="mt-1 flex flex-col">
            {(Object.keys(STATUS) as (keyof typeof STATUS)[]).map((key) => (
              <Form method="post" action="/me/status" key={key}>
                <input type="hidden" name="redirectTo" value={back} />
                <button type="submit" name="status" value={key} aria-pressed={user.userStatus === key} className="menu-item">
                  <span aria-hidden="true" className={`h-2.5 w-2.5 rounded-full ${STATUS[key].dot}`} />
                  {STATUS[key].label}
                </button>
              </Form>
            ))}
          </div>
        </fieldset>
        <fieldset className="mt-3">
          <legend className="menu-legend">Theme</legend>
          <Form method="post" action="/preferences/theme" className="mt-1 flex gap-1">
            <input type="hidden" name="redirectTo" value={back} />
            {THEMES.map((t) => (
              <button key={t} type="submit" name="theme" value={t} aria-pressed={themePreference === t} className="theme-btn">
                {t}
              </button>
            ))}
          </Form>
        </fieldset>
        {links.length > 0 ? (
          <nav aria-label="Account and settings" className="mt-3 flex flex-col border-t border-line pt-3">
            {links.map((l) => (
              <Link key={l.to} to={l.to} className="menu-link">
                {l.label}
              </Link>
            ))}
          </nav>
        ) : null}
        <Form method="post" action="/logout" className="mt-3 border-t border-line pt-3">
          <button type="submit" className="menu-link w-full text-left">
            Sign out
          </button>
        </Form>
      </div>
    </details>
  );
}

function initials(name: string): string {
  const parts = name.trim().split(/\s+/).filter(Boolean);
  return ((parts[0]?.[0] ?? "?") + (parts.length > 1 ? (parts[parts.length - 1]?.[0] ?? "") : "")).toUpperCase();
}
