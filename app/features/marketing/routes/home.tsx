import { lazy, type MouseEvent, Suspense, useCallback, useState } from "react";
import { redirect } from "react-router";
import { tenantContext } from "~/context";
import { optionalUser } from "~/features/auth/index.server";
import { Landing } from "../components/landing";
import { PublicLayout } from "../components/public-layout";
import { publicPageHeaders } from "../headers";
import { publicPageData } from "../public-site.server";
import { useHydrated } from "~/utils/use-hydrated";
import type { Route } from "./+types/home";

/**
 * The drawer and its form (with @conform-to/react) are fetched once the page has hydrated: they
 * only ever open on a click, and without JavaScript the link leads to the page form.
 */
const ProjectDrawer = lazy(() => import("../components/project-drawer").then((m) => ({ default: m.ProjectDrawer })));

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
  const hydrated = useHydrated();
  // Only runs once JavaScript has loaded; until then the link leads to the page form.
  const openDrawer = useCallback((event: MouseEvent<HTMLAnchorElement>) => {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    setDrawerOpen(true);
  }, []);
  return (
    <PublicLayout contactEmail={loaderData.contactEmail} onHome onStartProject={openDrawer}>
      <Landing contactEmail={loaderData.contactEmail} onStartProject={openDrawer} />
      {hydrated ? (
        <Suspense fallback={null}>
          <ProjectDrawer open={drawerOpen} onOpenChange={setDrawerOpen} />
        </Suspense>
      ) : null}
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
