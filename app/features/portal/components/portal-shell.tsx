import type { ReactNode } from "react";
import { Form, isRouteErrorResponse, useRouteError, useRouteLoaderData } from "react-router";
import type { ShellData } from "~/features/platform";

/**
 * The subcontractor portal's own frame: the contractor's name and, when signed in, 'Sign out'.
 * Nothing of the staff workspace (no module navigation, no staff user menu).
 */
export function PortalShell({ contractorName, signedIn = false, children }: { contractorName?: string | null; signedIn?: boolean; children: ReactNode }) {
  const root = useRouteLoaderData("root") as ShellData | undefined;
  const name = contractorName || root?.tenant?.name || "Workspace";
  return (
    <div className="min-h-screen">
      <a href="#main" className="sr-only-focusable fixed left-2 top-2 z-50 rounded bg-accent px-3 py-2 text-accent-foreground">
        Skip to content
      </a>
      <header className="border-b border-line bg-elevated">
        <div className="mx-auto flex max-w-5xl items-center justify-between gap-4 px-4 py-3">
          <p className="flex items-center gap-2 font-bold">
            <span aria-hidden="true" className="inline-block h-6 w-6 rounded-brand bg-accent" />
            <span data-testid="portal-contractor">{name}</span>
            <span className="text-sm font-normal opacity-70">Subcontractor portal</span>
          </p>
          {signedIn ? (
            <Form method="post" action="/portal/logout">
              <button type="submit" className="whitespace-nowrap rounded-brand px-3 py-1.5 text-sm underline hover:bg-surface">
                Sign out
              </button>
            </Form>
          ) : null}
        </div>
      </header>
      <main id="main" tabIndex={-1} className="mx-auto max-w-5xl px-4 py-8 outline-none">
        {children}
      </main>
    </div>
  );
}

/** 'Ask {contractor} to send you a new link', as a mailto when the contractor has a reply-to address. */
export function AskForNewLink({ contractorName, replyTo }: { contractorName: string; replyTo: string | null }) {
  const text = `Ask ${contractorName} to send you a new link`;
  if (!replyTo) return <p className="mt-4">{text}.</p>;
  const subject = encodeURIComponent("New subcontractor portal link");
  return (
    <p className="mt-4">
      <a href={`mailto:${replyTo}?subject=${subject}`} className="text-accent-ink underline">
        {text}
      </a>
      .
    </p>
  );
}

/** Errors inside the portal keep the portal's frame rather than the staff shell. */
export function PortalErrorBoundary() {
  const error = useRouteError();
  let status = 500;
  let title = "Something went wrong";
  let detail = "An unexpected error occurred. Please try again.";
  if (isRouteErrorResponse(error)) {
    status = error.status;
    if (status === 404) {
      title = "Page not found";
      detail = "The page you asked for does not exist or has moved.";
    } else if (status === 403) {
      title = "Forbidden";
      detail = "You do not have permission to view this page.";
    } else {
      title = `${status} ${error.statusText || "Error"}`;
    }
  }
  return (
    <PortalShell>
      <div className="mx-auto max-w-xl py-16 text-center" data-status={status}>
        <p className="text-sm font-semibold text-accent-ink">{status}</p>
        <h1 className="mt-2 text-3xl font-bold">{title}</h1>
        <p className="mt-4 opacity-80">{detail}</p>
        <a href="/portal/login" className="mt-8 inline-block text-accent-ink underline">
          Go to the portal sign-in page
        </a>
      </div>
    </PortalShell>
  );
}
