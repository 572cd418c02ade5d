import { Outlet } from "react-router";
import { AppShell, SectionNav } from "~/features/platform";
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
      <SectionNav title={<p className="text-lg font-semibold">Files</p>} label="Files sections" links={loaderData.nav} />
      <div className="mx-auto max-w-7xl px-4 py-6">
        <Outlet />
      </div>
    </AppShell>
  );
}
