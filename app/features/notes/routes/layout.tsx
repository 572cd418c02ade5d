import { Outlet } from "react-router";
import { AppShell, SectionNav } from "~/features/platform";
import { requireModule } from "~/features/auth/index.server";
import { noteViewerOf } from "../access";
import type { Route } from "./+types/layout";

/** The notes area: module switched on and notes.view (the catalogue's entry scope); each page and action checks its own scope too. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { user } = await requireModule(request, context, { module: "notes" });
  const viewer = noteViewerOf(user);
  return {
    nav: [
      { to: "/notes/all", label: "All Notes", show: true },
      { to: "/notes/shared", label: "Shared", show: true },
      { to: "/notes/bookmarks", label: "Bookmarks", show: true },
      { to: "/notes/folders", label: "Folders", show: true },
      { to: "/notes/trash", label: "Trash", show: viewer.delete },
      { to: "/notes/new", label: "New Note", show: viewer.create },
    ].filter((n) => n.show),
  };
}

export default function NotesLayout({ loaderData }: Route.ComponentProps) {
  return (
    <AppShell>
      <SectionNav title={<p className="text-lg font-semibold">Notes</p>} label="Notes sections" links={loaderData.nav} />
      <div className="mx-auto max-w-7xl px-4 py-6">
        <Outlet />
      </div>
    </AppShell>
  );
}
