import { Link } from "react-router";
import { buttonClass } from "~/components/ui/button";
import { portalInvoicesData } from "~/features/cis/index.server";
import { PortalErrorBoundary, PortalShell } from "../components/portal-shell";
import { PortalInvoiceTable } from "../components/portal-invoices";
import { requirePortalModule } from "../portal-auth.server";
import { portalInvoiceItem } from "../portal-invoices-view.server";
import { requirePortalSession } from "../portal-session.server";
import type { Route } from "./+types/invoices";

/** The signed-in subcontractor's own invoices, newest first; the subcontractor comes from the session only. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { env, ctx, tenant } = requirePortalModule(context);
  const { subcontractor } = await requirePortalSession(env, ctx, request, tenant.id);
  const { contractorName, invoices } = await portalInvoicesData(env, tenant, subcontractor.id);
  return { contractorName, invoices: invoices.map(portalInvoiceItem) };
}

export default function PortalInvoices({ loaderData }: Route.ComponentProps) {
  const { contractorName, invoices } = loaderData;
  return (
    <PortalShell contractorName={contractorName} signedIn>
      <p>
        <Link to="/portal" className="text-sm underline">
          Back to your portal
        </Link>
      </p>
      <div className="mt-2 flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-bold">Your invoices</h1>
        <Link to="/portal/invoices/new" className={buttonClass("primary")}>
          Submit an invoice
        </Link>
      </div>
      {invoices.length === 0 ? (
        <p className="mt-6 text-sm opacity-80">{`No invoices yet. Invoices you submit appear here while ${contractorName} reviews them.`}</p>
      ) : (
        <PortalInvoiceTable invoices={invoices} caption={`Your invoices to ${contractorName}, newest first`} />
      )}
    </PortalShell>
  );
}

export function meta() {
  return [{ title: "Your invoices · Subcontractor portal" }];
}

export function ErrorBoundary() {
  return <PortalErrorBoundary />;
}
