import "@fontsource/dancing-script/latin-400.css";
import "@fontsource/pacifico/latin-400.css";
import "@fontsource/great-vibes/latin-400.css";
import "@fontsource/satisfy/latin-400.css";
import "@fontsource/allura/latin-400.css";
import "@fontsource/homemade-apple/latin-400.css";
import { useEffect } from "react";
import { data, Form, Link, useNavigate } from "react-router";
import { buttonClass, SubmitButton } from "~/components/ui/button";
import { inputClass } from "~/components/ui/field";
import { clientIp } from "~/features/platform/index.server";
import { redirectWithToast } from "~/features/platform/index.server";
import { formatDateTime } from "~/utils/dates";
import { requireModule } from "~/features/auth/index.server";
import { signatureActorOf, signaturePerms } from "../access.server";
import { SignaturePad } from "../components/signature-pad";
import {
  MAX_DECLINE_REASON,
  parseSignaturePng,
  SIGNATURE_FONTS,
  SIGNATURE_MESSAGES,
  SIGNATURE_SCOPES,
  SIGNATURE_STEPS,
  statusLabel,
  STEP_TITLES,
  SUCCESS_CLOSE_MS,
  TYPED_SIZE_PX,
} from "../signature-rules";
import { requestIdParams, signActionForm, signSearch, type SignatureForm } from "../schemas";
import { declineRequest, getSignatureRequest, signRequest, type SignatureInput } from "../signatures.server";
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
  const mayAct = req.status === "pending" && req.signerId === user.id && signaturePerms(user).sign;
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

type Carried = { mode: "typed"; name: string; font: string } | { mode: "drawn"; drawn: string };
type ActionData =
  { step: "signature"; error: string; field: "signature" } | { step: "confirm"; signature: Carried; error?: string } | { step: "decline"; error: string };

function toInput(s: SignatureForm): SignatureInput | null {
  if (s.mode === "typed") return s.name ? { kind: "typed", name: s.name, font: s.font } : null;
  const png = parseSignaturePng(s.drawn);
  return png ? { kind: "drawn", png } : null;
}

export async function action({ request, context, params: raw }: Route.ActionArgs) {
  const { env, tenant, user } = await requireModule(request, context, {
    module: "files",
    scope: SIGNATURE_SCOPES.sign,
    message: SIGNATURE_MESSAGES.noSignPermission,
  });
  const actor = signatureActorOf(user);
  const { id } = requestIdParams.parse(raw);
  const form = await request.formData();
  const parsed = signActionForm.safeParse({
    intent: form.get("intent"),
    signature: { mode: form.get("mode") ?? "typed", name: form.get("name") ?? "", font: form.get("font") ?? undefined, drawn: form.get("drawn") ?? "" },
    consent: form.get("consent") ?? undefined,
    reason: form.get("reason") ?? "",
  });
  if (!parsed.success) throw data("Bad request", { status: 400 });
  const input = parsed.data;
  const here = `/files/signatures/${id}`;
  const req = await getSignatureRequest(env, tenant.id, actor, id);
  if (!req || req.signerId !== actor.id) throw data(SIGNATURE_MESSAGES.documentNotFound, { status: 404 });

  if (input.intent === "decline") {
    if (!input.reason) return data<ActionData>({ step: "decline", error: "Give a reason for declining" }, { status: 400 });
    const res = await declineRequest(env, tenant.id, actor, id, input.reason, clientIp(request));
    if (!res.ok) return redirectWithToast(env, here, { type: "error", title: SIGNATURE_MESSAGES.signFailed });
    return redirectWithToast(env, "/files/signatures?tab=signed", { type: "info", title: SIGNATURE_MESSAGES.declined });
  }

  const sig = toInput(input.signature);
  if (!sig) return data<ActionData>({ step: "signature", error: SIGNATURE_MESSAGES.noSignature, field: "signature" }, { status: 400 });
  const carried: Carried =
    input.signature.mode === "typed"
      ? { mode: "typed", name: input.signature.name, font: input.signature.font }
      : { mode: "drawn", drawn: input.signature.drawn };
  if (input.intent === "preview") return data<ActionData>({ step: "confirm", signature: carried });
  if (!input.consent) return data<ActionData>({ step: "confirm", signature: carried, error: "Tick the box to agree before signing" }, { status: 400 });

  const res = await signRequest(env, tenant.id, actor, id, sig, { ip: clientIp(request), origin: new URL(request.url).origin });
  if (!res.ok) {
    if (res.code === "not_found") throw data(SIGNATURE_MESSAGES.documentNotFound, { status: 404 });
    return redirectWithToast(env, here, { type: "error", title: SIGNATURE_MESSAGES.signFailed });
  }
  return redirectWithToast(env, `${here}?done=1`, { type: "success", title: SIGNATURE_MESSAGES.signed });
}

function Steps({ current }: { current: number }) {
  return (
    <ol className="flex gap-4 text-sm" aria-label="Signing steps">
      {SIGNATURE_STEPS.map((s, i) => (
        <li key={s} aria-current={i === current ? "step" : undefined} className={i === current ? "font-semibold" : "opacity-60"}>
          {i + 1}. {STEP_TITLES[s]}
        </li>
      ))}
    </ol>
  );
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
        <dl className="grid grid-cols-[12rem_1fr] gap-1 text-sm">
          <dt>Status</dt>
          <dd data-testid="signature-status">{statusLabel(r)}</dd>
          <dt>Requested by</dt>
          <dd>{r.requesterName ?? "N/A"}</dd>
          <dt>Signer</dt>
          <dd>{r.signerName ?? "N/A"}</dd>
          <dt>Requested</dt>
          <dd>{formatDateTime(r.createdAt)}</dd>
          <dt>Signed</dt>
          <dd>{formatDateTime(r.signedAt)}</dd>
          {r.declineReason ? (
            <>
              <dt>Declined</dt>
              <dd>
                {formatDateTime(r.declinedAt)}: {r.declineReason}
              </dd>
            </>
          ) : null}
          <dt>Original SHA-256</dt>
          <dd className="break-all font-mono text-xs">{r.originalSha256 ?? "N/A"}</dd>
          <dt>Signed SHA-256</dt>
          <dd className="break-all font-mono text-xs">{r.signedSha256 ?? "N/A"}</dd>
        </dl>
        <Link to={`/files/file/${r.fileId}`} className={buttonClass("secondary")}>
          Open file
        </Link>
      </article>
    );

  const current = SIGNATURE_STEPS.indexOf(step);
  const sigError = actionData?.step === "signature" ? actionData.error : null;
  const declineError = actionData?.step === "decline" ? actionData.error : null;
  return (
    <article className="space-y-4">
      <h1 className="text-2xl font-semibold">Sign Document</h1>
      <Steps current={current} />
      <h2 className="text-xl font-semibold">{STEP_TITLES[step]}</h2>

      {step === "review" ? (
        <section className="space-y-3">
          <p role="note" className="rounded-brand border border-line bg-elevated p-2 text-sm">
            {SIGNATURE_MESSAGES.reviewWarning}
          </p>
          <p className="font-medium">{r.fileName}</p>
          <iframe src={`${here}/document`} title={r.fileName} className="h-[36rem] w-full rounded-brand border border-line" />
          <div className="flex gap-2">
            <Link to="/files/signatures" className={buttonClass("secondary")}>
              Cancel
            </Link>
            <Link to={`${here}?step=signature`} className={buttonClass("primary")}>
              Next
            </Link>
          </div>
          <Form method="post" className="space-y-2 border-t border-line pt-3" aria-labelledby="decline-title">
            <h3 id="decline-title" className="font-semibold">
              Decline to sign
            </h3>
            <input type="hidden" name="intent" value="decline" />
            <label className="block text-sm">
              <span className="block">Reason</span>
              <textarea
                name="reason"
                maxLength={MAX_DECLINE_REASON}
                required
                aria-describedby={declineError ? "decline-error" : undefined}
                className={inputClass}
              />
            </label>
            {declineError ? (
              <p id="decline-error" role="alert" className="text-sm text-danger">
                {declineError}
              </p>
            ) : null}
            <SubmitButton variant="danger" name="intent" value="decline" pendingText="Declining...">
              Decline
            </SubmitButton>
          </Form>
        </section>
      ) : step === "signature" ? (
        <Form
          method="post"
          className="space-y-3"
          onSubmit={(e) => {
            const f = new FormData(e.currentTarget);
            const empty = f.get("mode") === "drawn" ? !f.get("drawn") : !String(f.get("name") ?? "").trim();
            if (empty) {
              e.preventDefault();
              const el = e.currentTarget.querySelector<HTMLElement>("[data-client-error]");
              if (el) el.textContent = SIGNATURE_MESSAGES.noSignature;
            }
          }}
        >
          <input type="hidden" name="intent" value="preview" />
          <SignaturePad initial={{ mode: "typed", name: "", font: SIGNATURE_FONTS[0], drawn: "" }} errorId="signature-error" />
          <p id="signature-error" role="alert" data-client-error className="text-sm text-danger">
            {sigError}
          </p>
          <div className="flex gap-2">
            <Link to={`${here}?step=review`} className={buttonClass("secondary")}>
              Back
            </Link>
            <Link to="/files/signatures" className={buttonClass("secondary")}>
              Cancel
            </Link>
            <SubmitButton variant="primary" name="intent" value="preview" pendingText="Next">
              Next
            </SubmitButton>
          </div>
        </Form>
      ) : actionData?.step === "confirm" ? (
        <Form method="post" className="space-y-3">
          <input type="hidden" name="intent" value="sign" />
          <input type="hidden" name="mode" value={actionData.signature.mode} />
          {actionData.signature.mode === "typed" ? (
            <>
              <input type="hidden" name="name" value={actionData.signature.name} />
              <input type="hidden" name="font" value={actionData.signature.font} />
            </>
          ) : (
            <input type="hidden" name="drawn" value={actionData.signature.drawn} />
          )}
          <dl className="grid grid-cols-[10rem_1fr] gap-1 text-sm">
            <dt>Document</dt>
            <dd>{r.fileName}</dd>
            <dt>Signer</dt>
            <dd>{signerName}</dd>
          </dl>
          <figure className="rounded-brand border border-line bg-white p-4 text-[#1a1a1a]" data-testid="signature-preview">
            {actionData.signature.mode === "typed" ? (
              <span style={{ fontFamily: `'${actionData.signature.font}', cursive`, fontSize: TYPED_SIZE_PX }}>{actionData.signature.name}</span>
            ) : (
              <img src={actionData.signature.drawn} alt="Your signature" width={400} height={110} />
            )}
          </figure>
          <label className="flex items-start gap-2 text-sm">
            <input type="checkbox" name="consent" required aria-describedby={actionData.error ? "consent-error" : undefined} />
            <span>{SIGNATURE_MESSAGES.consent}</span>
          </label>
          {actionData.error ? (
            <p id="consent-error" role="alert" className="text-sm text-danger">
              {actionData.error}
            </p>
          ) : null}
          <div className="flex gap-2">
            <Link to={`${here}?step=signature`} className={buttonClass("secondary")}>
              Back
            </Link>
            <Link to="/files/signatures" className={buttonClass("secondary")}>
              Cancel
            </Link>
            <SubmitButton variant="primary" name="intent" value="sign" pendingText="Processing...">
              Sign Document
            </SubmitButton>
          </div>
        </Form>
      ) : (
        <p role="alert">
          {SIGNATURE_MESSAGES.noSignature}.{" "}
          <Link to={`${here}?step=signature`} className="underline">
            Add Signature
          </Link>
        </p>
      )}
    </article>
  );
}

export function meta({ loaderData }: Route.MetaArgs) {
  return [{ title: loaderData ? `Sign ${loaderData.request.fileName}` : "Sign Document" }];
}
