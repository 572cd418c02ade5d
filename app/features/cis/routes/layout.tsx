import { Outlet, useLocation } from "react-router";
import { can } from "~/features/auth";
import { AppShell, SectionNav } from "~/features/platform";
import { requireModule } from "~/features/auth/index.server";
import { RETURNS_READ_SCOPES } from "../returns/return-codes";
import type { Route } from "./+types/layout";

/** The CIS area: module switched on and a signed-in staff member; each page checks its own scope. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { user } = await requireModule(request, context, { module: "cis" });
  return {
    nav: [
      { to: "/cis", label: "Dashboard", show: can(user, "cis.read") },
      { to: "/cis/subcontractors", label: "Subcontractors", show: can(user, "cis.sub.read") },
      { to: "/cis/invoices", label: "Invoices", show: can(user, "cis.inv.read") },
      { to: "/cis/statements", label: "Statements", show: can(user, "cis.inv.read") },
      { to: "/cis/returns", label: "Returns", show: RETURNS_READ_SCOPES.some((s) => can(user, s)) },
      { to: "/cis/analytics", label: "Analytics", show: can(user, "cis.read") },
      { to: "/cis/settings", label: "Settings", show: can(user, "cis.settings.write") || can(user, "cis.manage") },
    ].filter((n) => n.show),
  };
}

const TITLES: [RegExp, string][] = [
  [/^\/cis\/subcontractors/, "Subcontractors"],
  [/^\/cis\/invoices/, "Invoices"],
  [/^\/cis\/statements/, "Statements"],
  [/^\/cis\/returns/, "Returns"],
  [/^\/cis\/analytics/, "Analytics"],
  [/^\/cis\/settings/, "Settings"],
];

/** The header title names the section the path is in. */
export function sectionTitle(pathname: string): string {
  return TITLES.find(([re]) => re.test(pathname))?.[1] ?? "Dashboard";
}

export default function CisLayout({ loaderData }: Route.ComponentProps) {
  const { pathname } = useLocation();
  return (
    <AppShell>
      <SectionNav
        title={
          <h1 className="text-lg font-semibold">
            <span className="opacity-60">CIS · </span>
            {sectionTitle(pathname)}
          </h1>
        }
        label="CIS sections"
        links={loaderData.nav.map((n) => ({ to: n.to, label: n.label, end: n.to === "/cis" }))}
      />
      <div className="mx-auto max-w-7xl px-4 py-6">
        <Outlet />
      </div>
    </AppShell>
  );
}
