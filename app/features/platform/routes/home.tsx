import { redirect } from "react-router";
import { tenantContext } from "~/context";
import { optionalUser } from "~/features/auth/middleware.server";
import type { Route } from "./+types/home";
import { Landing } from "../components/landing";

export function loader({ context }: Route.LoaderArgs) {
  const tenant = context.get(tenantContext);
  if (!tenant) return { site: "public" as const };
  const user = optionalUser(context);
  if (!user) throw redirect("/login");
  // A tenant's home is its first enabled module, or the Welcome page when none is on.
  throw redirect(tenant.modules[0]?.route ?? "/welcome");
}

export default function Home() {
  return <Landing />;
}

export function meta() {
  return [
    { title: "Workspace — modular business apps for construction contractors" },
    { name: "description", content: "CIS returns, subcontractors, files, e-signature, notes, calendar and chat in one workspace for your organisation." },
  ];
}
