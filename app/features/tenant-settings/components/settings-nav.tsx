import { NavLink } from "react-router";

const LINKS = [
  { to: "/settings/branding", label: "Branding" },
  { to: "/settings/modules", label: "Modules" },
];

/** Links between the tenant settings pages. */
export function SettingsNav() {
  return (
    <nav aria-label="Settings" className="mt-4 flex gap-2 text-sm">
      {LINKS.map((l) => (
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
