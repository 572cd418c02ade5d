import { useId } from "react";
import { Form, Link, useLocation } from "react-router";
import type { ThemePreference, UserStatus } from "~/db/enums";

const STATUS = {
  active: { label: "Active", color: "#22C55E" },
  busy: { label: "Busy", color: "#F97316" },
  unavailable: { label: "Unavailable", color: "#EF4444" },
} as const satisfies Record<UserStatus, { label: string; color: string }>;

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
// eslint-disable-next-line max-lines-per-function -- the shell, owned by issue 25
export function UserMenu({ user, themePreference, links = [] }: Props) {
  const location = useLocation();
  const back = location.pathname + location.search;
  const status = STATUS[user.userStatus] ?? STATUS.active;
  const id = useId();
  // The menu is named by the text that shows the person's name ('Account menu for' is for
  // screen readers only), so what the eye reads ('Alice Admin') is part of the accessible name.
  return (
    <details className="relative">
      <summary className="flex cursor-pointer list-none items-center gap-2 rounded-brand px-2 py-1 hover:bg-surface" aria-labelledby={id}>
        {/* The initials are drawn by CSS (an avatar, not a label), so the only text shown is the name. */}
        <span
          aria-hidden="true"
          data-initials={initials(user.displayName)}
          className="relative inline-flex h-8 w-8 items-center justify-center rounded-full bg-surface text-xs font-semibold before:content-[attr(data-initials)]"
        >
          <span
            aria-hidden="true"
            data-status={user.userStatus}
            className="absolute -bottom-0.5 -right-0.5 h-3 w-3 rounded-full border-2 border-elevated"
            style={{ backgroundColor: status.color }}
          />
        </span>
        <span id={id} className="text-sm">
          <span className="sr-only">{"Account menu for "}</span>
          {/* Narrow screens show the avatar only; the name stays in the accessible name. */}
          <span className="sr-only sm:not-sr-only">{user.displayName}</span>
        </span>
      </summary>
      <div className="absolute right-0 z-40 mt-2 w-64 rounded-brand border border-line bg-elevated p-3 shadow-lg">
        <p className="truncate text-sm font-medium">{user.displayName}</p>
        <p className="truncate text-xs opacity-70">{user.email}</p>
        <fieldset className="mt-3">
          <legend className="text-xs font-semibold uppercase opacity-70">Status</legend>
          <div className="mt-1 flex flex-col">
            {(Object.keys(STATUS) as (keyof typeof STATUS)[]).map((key) => (
              <Form method="post" action="/me/status" key={key}>
                <input type="hidden" name="redirectTo" value={back} />
                <button
                  type="submit"
                  name="status"
                  value={key}
                  aria-pressed={user.userStatus === key}
                  className="flex w-full items-center gap-2 rounded px-2 py-1 text-left text-sm hover:bg-surface aria-pressed:font-semibold"
                >
                  <span aria-hidden="true" className="h-2.5 w-2.5 rounded-full" style={{ backgroundColor: STATUS[key].color }} />
                  {STATUS[key].label}
                </button>
              </Form>
            ))}
          </div>
        </fieldset>
        <fieldset className="mt-3">
          <legend className="text-xs font-semibold uppercase opacity-70">Theme</legend>
          <Form method="post" action="/preferences/theme" className="mt-1 flex gap-1">
            <input type="hidden" name="redirectTo" value={back} />
            {THEMES.map((t) => (
              <button
                key={t}
                type="submit"
                name="theme"
                value={t}
                aria-pressed={themePreference === t}
                className="flex-1 rounded border border-line px-2 py-1 text-xs capitalize aria-pressed:bg-accent aria-pressed:text-accent-foreground"
              >
                {t}
              </button>
            ))}
          </Form>
        </fieldset>
        {links.length > 0 ? (
          <nav aria-label="Account and settings" className="mt-3 flex flex-col border-t border-line pt-3">
            {links.map((l) => (
              <Link key={l.to} to={l.to} className="rounded px-2 py-1 text-sm hover:bg-surface">
                {l.label}
              </Link>
            ))}
          </nav>
        ) : null}
        <Form method="post" action="/logout" className="mt-3 border-t border-line pt-3">
          <button type="submit" className="w-full rounded px-2 py-1 text-left text-sm hover:bg-surface">
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
