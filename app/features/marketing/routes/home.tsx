import { type MouseEvent, useCallback, useState } from "react";
import { redirect } from "react-router";
import { tenantContext } from "~/context";
import { optionalUser } from "~/features/auth/index.server";
import { Landing } from "../components/landing";
import { ProjectDrawer } from "../components/project-drawer";
import { PublicLayout } from "../components/public-layout";
import { publicPageHeaders } from "../headers";
import { publicPageData } from "../public-site.server";
import type { Route } from "./+types/home";

export function loader({ request, context }: Route.LoaderArgs) {
  const tenant = context.get(tenantContext);
  if (!tenant) return publicPageData(request, context);
  const user = optionalUser(context);
  if (!user) throw redirect("/login");
  // A tenant's home is its first enabled module, or the Welcome page when none is on.
  throw redirect(tenant.modules[0]?.route ?? "/welcome");
}

export const headers = publicPageHeaders;

export default function Home({ loaderData }: Route.ComponentProps) {
  const [drawerOpen, setDrawerOpen] = useState(false);
  // Only runs once JavaScript has loaded; until then the link leads to the page form.
  const openDrawer = useCallback((event: MouseEvent<HTMLAnchorElement>) => {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    setDrawerOpen(true);
  }, []);
  return (
    <PublicLayout contactEmail={loaderData.contactEmail} onHome onStartProject={openDrawer}>
      <Landing contactEmail={loaderData.contactEmail} onStartProject={openDrawer} />
      <ProjectDrawer open={drawerOpen} onOpenChange={setDrawerOpen} />
    </PublicLayout>
  );
}

export function meta() {
  return [
    { title: "Workspace: modular business apps for UK construction contractors" },
    {
      name: "description",
      content: "CIS subcontractors, deductions, statements and returns, with files and e-signature. One workspace per organisation, billed per module.",
    },
  ];
}
