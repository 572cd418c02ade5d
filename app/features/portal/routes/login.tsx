import { redirect } from "react-router";
import { tenantContext } from "~/context";
import { contractorDetails } from "~/features/cis/index.server";
import { AskForNewLink, PortalErrorBoundary, PortalShell } from "../components/portal-shell";
import { requirePortalModule } from "../portal-auth.server";
import { loadPortalSession } from "../portal-session.server";
import type { Route } from "./+types/login";

/**
 * Subcontractors have no password: they sign in with a single-use link from the contractor.
 * This page says how to get one (on the bare domain: that links come from the contractor's workspace).
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  // The bare domain only explains where links come from; a tenant host needs the portal's module.
  if (!context.get(tenantContext)) return { onTenantHost: false as const, contractorName: null, replyTo: null };
  const { env, ctx, tenant } = requirePortalModule(context);
  if (await loadPortalSession(env, ctx, request, tenant.id)) throw redirect("/portal");
  const { contractorName, replyTo } = await contractorDetails(env, tenant);
  return { onTenantHost: true as const, contractorName, replyTo };
}

export default function PortalLogin({ loaderData }: Route.ComponentProps) {
  return (
    <PortalShell contractorName={loaderData.contractorName}>
      <div className="mx-auto max-w-lg py-10">
        <h1 className="text-2xl font-bold">Subcontractor portal</h1>
        {loaderData.onTenantHost ? (
          <>
            <p className="mt-4">
              {`Subcontractors of ${loaderData.contractorName} sign in with a link sent by e-mail, not with a password. Each link lasts 15 minutes and can be used once.`}
            </p>
            <p className="mt-4">If you have an invitation e-mail, open its link. If it has expired or was already used, you need a new one.</p>
            <AskForNewLink contractorName={loaderData.contractorName} replyTo={loaderData.replyTo} />
          </>
        ) : (
          <>
            <p className="mt-4">
              Subcontractors sign in with a link sent by e-mail from their contractor's workspace, not with a password. Each link lasts 15 minutes and can be
              used once.
            </p>
            <p className="mt-4">Open the link in your invitation e-mail. If it has expired, ask your contractor to send you a new link.</p>
          </>
        )}
        <p className="mt-8 text-sm opacity-70">
          Contractor staff?{" "}
          <a href="/login" className="underline">
            Sign in to the workspace
          </a>
          .
        </p>
      </div>
    </PortalShell>
  );
}

export function meta() {
  return [{ title: "Subcontractor portal" }];
}

export function ErrorBoundary() {
  return <PortalErrorBoundary />;
}
