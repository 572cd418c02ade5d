import "@fontsource/dancing-script/latin-400.css";
import "@fontsource/pacifico/latin-400.css";
import "@fontsource/great-vibes/latin-400.css";
import "@fontsource/satisfy/latin-400.css";
import "@fontsource/allura/latin-400.css";
import "@fontsource/homemade-apple/latin-400.css";
import { data, Link, redirect } from "react-router";
import { moduleOn } from "~/features/auth/index.server";
import { SignatureFacts, SigningSteps, SIGNATURE_MESSAGES, type SignActionData } from "~/features/files";
import { requestIdParams, signSearch } from "~/features/files/index.server";
import { declineRequest, getRequestForSubcontractor, readSignPost, signRequest } from "~/features/files/index.server";
import { clientIp } from "~/features/platform/index.server";
import { PortalErrorBoundary, PortalShell } from "../components/portal-shell";
import { requirePortalModule } from "../portal-auth.server";
import { requirePortalSession, type PortalSession } from "../portal-session.server";
import type { Route } from "./+types/signature";

async function portalSigner(request: Request, context: Route.LoaderArgs["context"], raw: Route.LoaderArgs["params"]) {
  const { env, ctx, tenant } = requirePortalModule(context);
  // Signature requests live in Files: without that module there is nothing to sign.
  if (!moduleOn(tenant, "files")) throw data("Page not found", { status: 404 });
  const session = await requirePortalSession(env, ctx, request, tenant.id);
  const { id } = requestIdParams.parse(raw);
  return { env, tenant, session, id };
}

/** A session opened with a link a staff member was shown may look but not sign or decline: that person could be anyone holding the link. */
const mayAct = (session: PortalSession) => session.linkRevealedBy === null;

/**
 * /portal/signatures/{id}: a document the contractor asked this subcontractor to sign, with the
 * same steps as staff signers (typed without JavaScript, drawn with it). Another subcontractor's
 * or another tenant's request is 404.
 */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const { env, tenant, session, id } = await portalSigner(request, context, params);
  const req = await getRequestForSubcontractor(env, tenant.id, session.subcontractor.id, id);
  if (!req) throw data(SIGNATURE_MESSAGES.documentNotFound, { status: 404 });
  const url = new URL(request.url);
  const { step, done } = signSearch.parse({ step: url.searchParams.get("step") ?? undefined, done: url.searchParams.get("done") ?? undefined });
  return {
    request: {
      id: req.id,
      fileName: req.fileName,
      status: req.status,
      stampStatus: req.stampStatus,
      requesterName: req.requesterName,
      createdAt: req.createdAt,
      signedAt: req.signedAt,
      declinedAt: req.declinedAt,
      declineReason: req.declineReason,
    },
    step,
    done: done === "1",
    pending: req.status === "pending",
    revealed: !mayAct(session),
    signerName: session.subcontractor.name,
  };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const { env, tenant, session, id } = await portalSigner(request, context, params);
  const post = readSignPost(await request.formData());
  if (post.kind === "bad") throw data("Bad request", { status: 400 });
  const req = await getRequestForSubcontractor(env, tenant.id, session.subcontractor.id, id);
  if (!req) throw data(SIGNATURE_MESSAGES.documentNotFound, { status: 404 });
  if (!mayAct(session)) throw data(SIGNATURE_MESSAGES.revealedLinkCannotSign, { status: 403 });
  if (post.kind === "respond") return data<SignActionData>(post.data, { status: post.status });
  const s = session.subcontractor;
  const signer = { kind: "subcontractor" as const, id: s.id, name: s.name, email: s.email ?? "" };
  const here = `/portal/signatures/${id}`;
  if (post.kind === "decline") {
    const res = await declineRequest(env, tenant.id, signer, id, post.reason, clientIp(request));
    if (!res.ok) throw data(SIGNATURE_MESSAGES.signFailed, { status: 409 });
    return redirect(here);
  }
  const res = await signRequest(env, tenant.id, signer, id, post.signature, { ip: clientIp(request), origin: new URL(request.url).origin });
  if (!res.ok) {
    if (res.code === "not_found") throw data(SIGNATURE_MESSAGES.documentNotFound, { status: 404 });
    throw data(SIGNATURE_MESSAGES.signFailed, { status: 409 });
  }
  return redirect(`${here}?done=1`);
}

export default function PortalSignature({ loaderData, actionData }: Route.ComponentProps) {
  const { request: r, step: urlStep, done, pending, revealed, signerName } = loaderData;
  const step = actionData && actionData.step !== "decline" ? actionData.step : urlStep;
  const here = `/portal/signatures/${r.id}`;
  return (
    <PortalShell signedIn>
      {done ? (
        <section className="space-y-2" role="status">
          <h1 className="text-2xl font-semibold">{SIGNATURE_MESSAGES.signedTitle}</h1>
          <p>{`You signed ${r.fileName}. ${r.requesterName ?? "Your contractor"} receives the signed PDF with its signature certificate.`}</p>
          <Link to="/portal" className="underline">
            Back to your portal
          </Link>
        </section>
      ) : pending && !revealed ? (
        <SigningSteps r={r} step={step} actionData={actionData} here={here} cancelHref="/portal" signerName={signerName} />
      ) : (
        <article className="space-y-3">
          <h1 className="text-2xl font-semibold">{r.fileName}</h1>
          {pending && revealed ? (
            <p role="alert" className="rounded-brand border border-line bg-elevated p-2 text-sm">
              {SIGNATURE_MESSAGES.revealedLinkCannotSign}
            </p>
          ) : null}
          <SignatureFacts r={r} staff={false} />
          <Link to="/portal" className="underline">
            Back to your portal
          </Link>
        </article>
      )}
    </PortalShell>
  );
}

export function meta({ loaderData }: Route.MetaArgs) {
  return [{ title: loaderData ? `Sign ${loaderData.request.fileName}` : "Sign Document" }];
}

export function ErrorBoundary() {
  return <PortalErrorBoundary />;
}
