import type { ReactNode } from "react";
import { NavLink } from "react-router";

export type SectionLink = { to: string; label: string; end?: boolean };

/**
 * A module's bar under the shell's header: its title and the links to its sections. On a phone
 * the title takes its own line and the links wrap onto as many rows as they need, so the page
 * never gets wider than the screen; plain links and CSS, so it works without JavaScript.
 */
export function SectionNav({ title, label, links }: { title: ReactNode; label: string; links: SectionLink[] }) {
  return (
    <div className="border-b border-line bg-elevated print:hidden">
      <div className="section-bar">
        {title}
        <nav aria-label={label} className="section-links">
          {links.map((n) => (
            <NavLink
              key={n.to}
              to={n.to}
              end={n.end}
              className={({ isActive }) => (isActive ? "nav-link bg-surface font-medium" : "nav-link hover:bg-surface")}
            >
              {n.label}
            </NavLink>
          ))}
        </nav>
      </div>
    </div>
  );
}
