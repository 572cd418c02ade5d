import { data, Form, redirect } from "react-router";
import { SubmitButton } from "~/components/ui/button";
import { Honeypot } from "~/components/ui/field";
import { contractorDetails } from "~/features/cis/index.server";
import { clientIp } from "~/features/platform/index.server";
import { AskForNewLink, PortalErrorBoundary, PortalShell } from "../components/portal-shell";
import { consumePortalLink, inspectPortalLink, requirePortalModule, statusFor, type LinkProblem } from "../portal-auth.server";
import { portalSignInSchema } from "../schemas";
import type { Route } from "./+types/auth";

type PageData = { contractorName: string; replyTo: string | null } & (
  { token: string; next: string | null; problem: null } | { token: null; problem: LinkProblem }
);

/** Where a link may lead after sign-in besides the portal's home: a document to sign. Anything else goes home. */
const NEXT = /^\/portal\/signatures\/[A-Za-z0-9_-]{1,100}$/;
const safeNext = (next: string | null | undefined) => (next && NEXT.test(next) ? next : null);

// The token is a credential: keep the page out of every cache.
const NO_STORE = { "Cache-Control": "no-store" };

async function portalTenant(context: Route.LoaderArgs["context"]) {
  const portal = requirePortalModule(context);
  return { ...portal, ...(await contractorDetails(portal.env, portal.tenant)) };
}

/** GET only looks: it consumes nothing, because mail scanners and link previews follow links. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { env, tenant, contractorName, replyTo } = await portalTenant(context);
  const url = new URL(request.url);
  const token = url.searchParams.get("token") ?? "";
  const inspected = await inspectPortalLink(env, request, tenant.id, token);
  if (inspected.ok)
    return data<PageData>({ contractorName, replyTo, token, next: safeNext(url.searchParams.get("next")), problem: null }, { headers: NO_STORE });
  return data<PageData>({ contractorName, replyTo, token: null, problem: inspected.code }, { status: statusFor(inspected.code), headers: NO_STORE });
}

/** The button: burns the link and opens a portal session for the link's subcontractor. */
export async function action({ request, context }: Route.ActionArgs) {
  const { env, ctx, tenant, contractorName, replyTo } = await portalTenant(context);
  const form = await request.formData();
  const { token, website, next } = portalSignInSchema.parse({
    token: form.get("token") ?? "",
    website: form.get("website") ?? "",
    next: form.get("next") ?? "",
  });
  const result = website ? ({ ok: false, code: "invalid" } as const) : await consumePortalLink(env, ctx, request, tenant.id, token, clientIp(request));
  if (result.ok) return redirect(safeNext(next) ?? "/portal", { headers: { "Set-Cookie": result.setCookie, ...NO_STORE } });
  return data<PageData>({ contractorName, replyTo, token: null, problem: result.code }, { status: statusFor(result.code), headers: NO_STORE });
}

export function headers() {
  return NO_STORE;
}

const PROBLEMS: Record<LinkProblem, { title: string; detail: string }> = {
  expired: { title: "This link has expired", detail: "Portal links last 15 minutes. This one is too old to sign you in." },
  used: { title: "This link has already been used", detail: "Each portal link signs you in once. This one has been used already." },
  withdrawn: {
    title: "This link has been withdrawn",
    detail: "Your contractor has changed your contact details or ended your portal access since this link was sent, so it no longer signs you in.",
  },
  invalid: {
    title: "This link is not valid",
    detail: "The link is incomplete, was changed, or belongs to another workspace. Check that you copied the whole link from the e-mail.",
  },
};

export default function PortalAuth({ loaderData, actionData }: Route.ComponentProps) {
  const state = actionData ?? loaderData;
  if (state.token) {
    return (
      <PortalShell contractorName={state.contractorName}>
        <div className="mx-auto max-w-md py-10 text-center">
          <h1 className="text-2xl font-bold">{`Continue to the ${state.contractorName} portal`}</h1>
          <p className="mt-2 text-sm opacity-80">This link signs you in once. Continue to open your subcontractor portal.</p>
          <Form method="post" className="mt-8">
            <input type="hidden" name="token" value={state.token} />
            {"next" in state && state.next ? <input type="hidden" name="next" value={state.next} /> : null}
            <Honeypot />
            <SubmitButton pendingText="Signing in...">Continue</SubmitButton>
          </Form>
        </div>
      </PortalShell>
    );
  }
  const problem = PROBLEMS[state.problem ?? "invalid"];
  return (
    <PortalShell contractorName={state.contractorName}>
      <div className="mx-auto max-w-md py-10 text-center" data-problem={state.problem}>
        <h1 className="text-2xl font-bold">{problem.title}</h1>
        <div role="alert">
          <p className="mt-2 text-sm opacity-80">{problem.detail}</p>
          <AskForNewLink contractorName={state.contractorName} replyTo={state.replyTo} />
        </div>
      </div>
    </PortalShell>
  );
}

export function meta() {
  // The link's token is in this page's address. The site-wide Referrer-Policy (same-origin)
  // already keeps it from other sites; 'no-referrer' here would make the browser send
  // 'Origin: null' with the sign-in form, which the origin check rightly refuses.
  return [{ title: "Subcontractor portal sign-in" }];
}

export function ErrorBoundary() {
  return <PortalErrorBoundary />;
}
