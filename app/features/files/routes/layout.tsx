import { NavLink, Outlet } from "react-router";
import { AppShell } from "~/features/platform";
import { requireModule } from "~/features/auth/index.server";
import { filePerms } from "../module.server";
import { signaturePerms } from "../signatures/access.server";
import type { Route } from "./+types/layout";

/** The files area: module switched on, a signed-in member with files.view; each page checks its own scope too. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { user } = await requireModule(request, context, { module: "files" });
  const perms = filePerms(user);
  return {
    nav: [
      { to: "/files/overview", label: "Overview", show: true },
      { to: "/files/all", label: "All files", show: true },
      { to: "/files/folders", label: "Folders", show: true },
      { to: "/files/upload", label: "Upload", show: perms.upload },
      { to: "/files/signatures", label: "Signatures", show: signaturePerms(user).view },
    ].filter((n) => n.show),
  };
}

export default function FilesLayout({ loaderData }: Route.ComponentProps) {
  return (
    <AppShell>
      <div className="border-b border-line bg-elevated print:hidden">
        <div className="mx-auto flex h-14 max-w-7xl items-center gap-6 px-4">
          <p className="text-lg font-semibold">Files</p>
          <nav aria-label="Files sections" className="flex gap-1 text-sm">
            {loaderData.nav.map((n) => (
              <NavLink
                key={n.to}
                to={n.to}
                className={({ isActive }) => `rounded-brand px-3 py-1.5 ${isActive ? "bg-surface font-medium" : "hover:bg-surface"}`}
              >
                {n.label}
              </NavLink>
            ))}
          </nav>
        </div>
      </div>
      <div className="mx-auto max-w-7xl px-4 py-6">
        <Outlet />
      </div>
    </AppShell>
  );
}
