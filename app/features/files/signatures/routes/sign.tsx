import "@fontsource/dancing-script/latin-400.css";
import "@fontsource/pacifico/latin-400.css";
import "@fontsource/great-vibes/latin-400.css";
import "@fontsource/satisfy/latin-400.css";
import "@fontsource/allura/latin-400.css";
import "@fontsource/homemade-apple/latin-400.css";
import { useEffect } from "react";
import { data, Link, useNavigate } from "react-router";
import { buttonClass } from "~/components/ui/button";
import { clientIp } from "~/features/platform/index.server";
import { redirectWithToast } from "~/features/platform/index.server";
import { requireModule } from "~/features/auth/index.server";
import { signatureActorOf, signaturePerms } from "../access.server";
import { SignatureFacts } from "../components/signature-facts";
import { SigningSteps, type SignActionData } from "../components/signing-steps";
import { readSignPost } from "../sign-post.server";
import { SIGNATURE_MESSAGES, SIGNATURE_SCOPES, SUCCESS_CLOSE_MS } from "../signature-rules";
import { requestIdParams, signSearch } from "../schemas";
import { declineRequest, getSignatureRequest, signRequest, userSigner } from "../signatures.server";
import type { Route } from "./+types/sign";

export async function loader({ request, context, params: raw }: Route.LoaderArgs) {
  const { env, tenant, user } = await requireModule(request, context, {
    module: "files",
    scope: SIGNATURE_SCOPES.view,
    message: SIGNATURE_MESSAGES.noViewPermission,
  });
  const actor = signatureActorOf(user);
  const { id } = requestIdParams.parse(raw);
  const url = new URL(request.url);
  const { step, done } = signSearch.parse({ step: url.searchParams.get("step") ?? undefined, done: url.searchParams.get("done") ?? undefined });
  const req = await getSignatureRequest(env, tenant.id, actor, id);
  if (!req) throw data(SIGNATURE_MESSAGES.taskNotFound, { status: 404 });
  const mayAct = req.status === "pending" && req.signerKind === "user" && req.signerId === user.id && signaturePerms(user).sign;
  return {
    request: {
      id: req.id,
      fileId: req.fileId,
      fileName: req.fileName,
      status: req.status,
      stampStatus: req.stampStatus,
      requesterName: req.requesterName,
      signerName: req.signerName,
      createdAt: req.createdAt,
      signedAt: req.signedAt,
      declinedAt: req.declinedAt,
      declineReason: req.declineReason,
      originalSha256: req.originalSha256,
      signedSha256: req.signedSha256,
    },
    step,
    done: done === "1",
    mayAct,
    signerName: user.displayName,
  };
}

export async function action({ request, context, params: raw }: Route.ActionArgs) {
  const { env, tenant, user } = await requireModule(request, context, {
    module: "files",
    scope: SIGNATURE_SCOPES.sign,
    message: SIGNATURE_MESSAGES.noSignPermission,
  });
  const actor = signatureActorOf(user);
  const { id } = requestIdParams.parse(raw);
  const post = readSignPost(await request.formData());
  if (post.kind === "bad") throw data("Bad request", { status: 400 });
  const here = `/files/signatures/${id}`;
  const req = await getSignatureRequest(env, tenant.id, actor, id);
  if (!req || req.signerKind !== "user" || req.signerId !== actor.id) throw data(SIGNATURE_MESSAGES.documentNotFound, { status: 404 });
  if (post.kind === "respond") return data<SignActionData>(post.data, { status: post.status });

  if (post.kind === "decline") {
    const res = await declineRequest(env, tenant.id, userSigner(actor), id, post.reason, clientIp(request));
    if (!res.ok) return redirectWithToast(env, here, { type: "error", title: SIGNATURE_MESSAGES.signFailed });
    return redirectWithToast(env, "/files/signatures?tab=signed", { type: "info", title: SIGNATURE_MESSAGES.declined });
  }

  const res = await signRequest(env, tenant.id, userSigner(actor), id, post.signature, { ip: clientIp(request), origin: new URL(request.url).origin });
  if (!res.ok) {
    if (res.code === "not_found") throw data(SIGNATURE_MESSAGES.documentNotFound, { status: 404 });
    return redirectWithToast(env, here, { type: "error", title: SIGNATURE_MESSAGES.signFailed });
  }
  return redirectWithToast(env, `${here}?done=1`, { type: "success", title: SIGNATURE_MESSAGES.signed });
}

function Done({ fileId }: { fileId: string }) {
  const navigate = useNavigate();
  useEffect(() => {
    const t = setTimeout(() => navigate("/files/signatures?tab=signed"), SUCCESS_CLOSE_MS);
    return () => clearTimeout(t);
  }, [navigate]);
  return (
    <section className="space-y-2" role="status">
      <noscript>
        <meta httpEquiv="refresh" content={`${SUCCESS_CLOSE_MS / 1000};url=/files/signatures?tab=signed`} />
      </noscript>
      <h2 className="text-xl font-semibold">{SIGNATURE_MESSAGES.signedTitle}</h2>
      <p>
        The signed PDF will be the{" "}
        <Link to={`/files/file/${fileId}`} className="underline">
          file&apos;s
        </Link>{" "}
        latest version once it is stamped.
      </p>
    </section>
  );
}

export default function SignPage({ loaderData, actionData }: Route.ComponentProps) {
  const { request: r, step: urlStep, done, mayAct, signerName } = loaderData;
  const step = actionData && actionData.step !== "decline" ? actionData.step : urlStep;
  const here = `/files/signatures/${r.id}`;

  if (done) return <Done fileId={r.fileId} />;
  if (!mayAct)
    return (
      <article className="space-y-3">
        <h1 className="text-2xl font-semibold">{r.fileName}</h1>
        <SignatureFacts r={r} staff />
        <Link to={`/files/file/${r.fileId}`} className={buttonClass("secondary")}>
          Open file
        </Link>
      </article>
    );

  return <SigningSteps r={r} step={step} actionData={actionData} here={here} cancelHref="/files/signatures" signerName={signerName} />;
}

export function meta({ loaderData }: Route.MetaArgs) {
  return [{ title: loaderData ? `Sign ${loaderData.request.fileName}` : "Sign Document" }];
}
