import { Form, Link } from "react-router";
import { buttonClass, SubmitButton } from "~/components/ui/button";
import { inputClass } from "~/components/ui/field";
import { SignaturePad } from "./signature-pad";
import { MAX_DECLINE_REASON, SIGNATURE_FONTS, SIGNATURE_MESSAGES, SIGNATURE_STEPS, STEP_TITLES, TYPED_SIZE_PX, type SignatureStep } from "../signature-rules";

/** A signature carried from the Add Signature step to Review & Confirm in hidden fields. */
export type CarriedSignature = { mode: "typed"; name: string; font: string } | { mode: "drawn"; drawn: string };
/** What a signing page's action answers with when it does not redirect. */
export type SignActionData =
  | { step: "signature"; error: string; field: "signature" }
  | { step: "confirm"; signature: CarriedSignature; error?: string }
  | { step: "decline"; error: string };

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

/**
 * The signing steps (Review Document with Decline, Add Signature, Review & Confirm with consent),
 * each a real form post, so a typed signature works without JavaScript. Staff and the portal
 * share it: `here` is the page's path, `cancelHref` where Cancel goes.
 */
// eslint-disable-next-line max-lines-per-function -- one interactive widget: its handlers share the same refs and state
export function SigningSteps({
  r,
  step,
  actionData,
  here,
  cancelHref,
  signerName,
}: {
  r: { fileName: string };
  step: SignatureStep;
  actionData: SignActionData | undefined;
  here: string;
  cancelHref: string;
  signerName: string;
}) {
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
            <Link to={cancelHref} className={buttonClass("secondary")}>
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
            <Link to={cancelHref} className={buttonClass("secondary")}>
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
            <Link to={cancelHref} className={buttonClass("secondary")}>
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
