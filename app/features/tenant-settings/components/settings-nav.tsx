import { NavLink, useRouteLoaderData } from "react-router";
import type { ShellData } from "~/features/platform";

const LINKS = [
  { to: "/settings/branding", label: "Branding" },
  { to: "/settings/modules", label: "Modules" },
];
/** Teams and sites belong to the calendar: linked while it is switched on. */
const TEAMS = { to: "/settings/teams", label: "Teams and sites", module: "schedule" };

/** Links between the tenant settings pages. */
export function SettingsNav() {
  const root = useRouteLoaderData("root") as ShellData | undefined;
  const modules = root?.tenant?.modules ?? [];
  const links = [...LINKS, ...(modules.some((m) => m.id === TEAMS.module) ? [TEAMS] : [])];
  return (
    <nav aria-label="Settings" className="mt-4 flex flex-wrap gap-2 text-sm">
      {links.map((l) => (
        <NavLink
          key={l.to}
          to={l.to}
          className={({ isActive }) => `rounded-brand px-3 py-1.5 ${isActive ? "bg-accent text-accent-foreground" : "hover:bg-surface"}`}
        >
          {l.label}
        </NavLink>
      ))}
    </nav>
  );
}
