import { data, Form, Link } from "react-router";
import { RefreshWhile } from "~/components/refresh-while";
import { buttonClass, SubmitButton } from "~/components/ui/button";
import { formatDateTime } from "~/utils/dates";
import { requireScope } from "~/features/auth/index.server";
import { requireModule } from "~/features/auth/index.server";
import { redirectWithToast } from "~/features/platform/index.server";
import { SubmissionKeyInput } from "~/features/platform";
import { mintSubmissionKey, submitOnce } from "~/features/platform/index.server";
import { formatPence } from "../../domain/money";
import { taxMonthFromLabel } from "../../domain/tax-month";
import { GATEWAY_MESSAGES, isInFlight, SUBMISSION_STATUS_LABELS } from "../codes";
import { returnSubmitScope, submitPageData, submitRefusalMessage, submitReturn, type ReturnForSubmission } from "../return-submission.server";
import { returnDeclarationsSchema, returnSubmitParamsSchema } from "../schemas";
import type { Route } from "./+types/return-submit";

const NO_SUBMIT_PERMISSION = "You don't have permission to submit returns (cis.ret.submit)";
const RETURN_NOT_FOUND = "Return not found";
/** How often the page looks again while HMRC has the return. */
const REFRESH_SECONDS = 3;
const ALREADY_FILED_TITLE = "Already submitted";
const ALREADY_FILED = "HMRC has already accepted this return.";

function taxMonthOf(params: unknown): string {
  const parsed = returnSubmitParamsSchema.safeParse(params);
  if (!parsed.success) throw data(RETURN_NOT_FOUND, { status: 404 });
  return parsed.data.taxMonth;
}

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const { env, tenant, user } = await requireModule(request, context, { module: "cis" });
  await requireScope(request, context, user, "cis.ret.submit", NO_SUBMIT_PERMISSION);
  const taxMonth = taxMonthOf(params);
  const page = await submitPageData(env, tenant.id, taxMonth);
  if (!page) throw data(RETURN_NOT_FOUND, { status: 404 });
  const submissionKey = await mintSubmissionKey(env, returnSubmitScope(tenant.id, user.id, taxMonth));
  return { ...page, displayLabel: taxMonthFromLabel(taxMonth).displayLabel, submissionKey };
}

type FieldErrors = Partial<Record<"employmentStatus" | "verification" | "informationCorrect", string>>;
type ActionData = { fieldErrors: FieldErrors; formError: string | null; values: Record<string, boolean>; fixInSettings?: boolean };
/** Refusals fixed by entering something in CIS settings: the message links there. */
const FIXED_IN_SETTINGS: ReadonlySet<string> = new Set(["credentials_missing", "settings_incomplete"]);

export async function action({ request, context, params }: Route.ActionArgs) {
  const { env, tenant, user, actor } = await requireModule(request, context, { module: "cis" });
  await requireScope(request, context, user, "cis.ret.submit", NO_SUBMIT_PERMISSION);
  const taxMonth = taxMonthOf(params);
  const page = await submitPageData(env, tenant.id, taxMonth);
  if (!page) throw data(RETURN_NOT_FOUND, { status: 404 });
  // Sent again from a stale page or a second tab: HMRC already has it, which is what was wanted.
  if (page.ret.filed) return redirectWithToast(env, `/cis/returns/${taxMonth}/submit`, { type: "info", title: ALREADY_FILED_TITLE, message: ALREADY_FILED });
  const form = await request.formData();
  const d = returnDeclarationsSchema.parse({
    employmentStatus: form.get("employmentStatus") ?? undefined,
    verification: form.get("verification") ?? undefined,
    informationCorrect: form.get("informationCorrect") ?? undefined,
    inactivity: form.get("inactivity") ?? undefined,
  });
  const fieldErrors: FieldErrors = {};
  if (!page.ret.nil && !d.employmentStatus) fieldErrors.employmentStatus = "Confirm the employment status declaration";
  if (!page.ret.nil && !d.verification) fieldErrors.verification = "Confirm the verification declaration";
  if (!d.informationCorrect) fieldErrors.informationCorrect = "Confirm that the information is correct";
  if (Object.keys(fieldErrors).length > 0) return data<ActionData>({ fieldErrors, formError: null, values: d }, { status: 400 });

  const sent = await submitOnce(env, form, returnSubmitScope(tenant.id, user.id, taxMonth), (claim) =>
    submitReturn(env, tenant.id, taxMonth, d, actor, new Date(), claim),
  );
  if (sent.kind === "refused" || sent.kind === "pending") return data<ActionData>({ fieldErrors: {}, formError: sent.message, values: d }, { status: 409 });
  const res = sent.result;
  if (!res.ok) {
    if (res.code === "not_found") throw data(RETURN_NOT_FOUND, { status: 404 });
    const fixInSettings = FIXED_IN_SETTINGS.has(res.code);
    return data<ActionData>(
      { fieldErrors: {}, formError: submitRefusalMessage(res), values: d, fixInSettings },
      { status: res.code === "refused" ? 409 : 400 },
    );
  }
  return redirectWithToast(env, `/cis/returns/${taxMonth}/submit`, {
    type: "success",
    title: "Return sent to HMRC",
    message: res.created ? "HMRC's answer will appear on this page." : "This return is already with HMRC.",
  });
}

function Declaration({ name, label, error, defaultChecked }: { name: string; label: string; error?: string; defaultChecked?: boolean }) {
  return (
    <div>
      <label className="flex items-start gap-2 text-sm">
        <input
          type="checkbox"
          name={name}
          value="yes"
          defaultChecked={defaultChecked}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${name}-error` : undefined}
        />
        <span>{label}</span>
      </label>
      {error ? (
        <p id={`${name}-error`} role="alert" className="mt-1 text-sm text-danger">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** An accepted (and so locked) return: a success, said as one. */
function FiledPanel({ filed }: { filed: NonNullable<ReturnForSubmission["filed"]> }) {
  return (
    <section role="status" className="rounded-brand border border-success bg-success/10 p-4 text-sm" data-testid="return-filed">
      <p className="font-semibold text-success">
        Submitted to HMRC on {formatDateTime(filed.submittedAt)} — accepted
        {filed.irmark ? `; IRmark ${filed.irmark}` : ""}
      </p>
      <p className="mt-1">
        Nothing more to do for this return.{" "}
        <Link to="/cis/returns" className="underline">
          Back to returns
        </Link>
      </p>
    </section>
  );
}

export default function ReturnSubmit({ loaderData, actionData }: Route.ComponentProps) {
  const { ret, submission, displayLabel } = loaderData;
  const errs = actionData?.fieldErrors ?? {};
  const values = actionData?.values ?? {};
  const inFlight = submission && isInFlight(submission.status);
  return (
    <div className="space-y-6">
      <RefreshWhile running={Boolean(inFlight)} seconds={REFRESH_SECONDS} token={loaderData} />
      <div className="flex flex-wrap items-center gap-3">
        <Link to="/cis/returns" className={buttonClass("ghost")}>
          Back
        </Link>
        <h2 className="text-xl font-semibold">Submit CIS300 return: {displayLabel}</h2>
      </div>

      <TotalsSection ret={ret} />

      {submission ? <SubmissionSection submission={submission} inFlight={Boolean(inFlight)} /> : null}

      {actionData?.formError ? (
        <p role="alert" className="rounded-brand border border-danger bg-danger/10 p-3 text-sm" data-form-error>
          {actionData.formError}
          {actionData.fixInSettings ? (
            <>
              {" "}
              <Link to="/cis/settings" className="underline">
                Go to CIS settings
              </Link>
            </>
          ) : null}
        </p>
      ) : null}

      {ret.filed ? (
        <FiledPanel filed={ret.filed} />
      ) : ret.refusal ? (
        <p role="alert" className="rounded-brand border border-danger bg-danger/10 p-3 text-sm">
          {ret.refusal}
        </p>
      ) : inFlight || submission?.status === "accepted" ? null : (
        <Form method="post" className="space-y-3 rounded-brand border border-line bg-elevated p-4">
          <SubmissionKeyInput value={loaderData.submissionKey} />
          <h3 className="font-semibold">Declarations</h3>
          {!ret.nil ? (
            <>
              <Declaration
                name="employmentStatus"
                label="The employment status of each individual included on this return has been considered, and none of them is an employee."
                error={errs.employmentStatus}
                defaultChecked={values.employmentStatus}
              />
              <Declaration
                name="verification"
                label="Every subcontractor on this return has been verified with HMRC where required."
                error={errs.verification}
                defaultChecked={values.verification}
              />
            </>
          ) : (
            <Declaration name="inactivity" label="No payments to subcontractors are expected in the next six months." defaultChecked={values.inactivity} />
          )}
          <Declaration
            name="informationCorrect"
            label="The information given on this return is correct and complete to the best of my knowledge and belief."
            error={errs.informationCorrect}
            defaultChecked={values.informationCorrect}
          />
          <SubmitButton pendingText="Sending to HMRC...">Submit Return</SubmitButton>
        </Form>
      )}
    </div>
  );
}

type SubmitData = Route.ComponentProps["loaderData"];

function TotalsSection({ ret }: { ret: SubmitData["ret"] }) {
  return (
    <section aria-labelledby="totals-heading" className="rounded-brand border border-line bg-elevated p-4">
      <h3 id="totals-heading" className="font-semibold">
        {ret.nil ? "Nil return" : "Return totals"}
      </h3>
      <dl className="mt-2 grid gap-2 text-sm sm:grid-cols-4">
        <div>
          <dt className="opacity-70">Subcontractors</dt>
          <dd>{ret.totals.subcontractors}</dd>
        </div>
        <div>
          <dt className="opacity-70">Gross</dt>
          <dd>{formatPence(ret.totals.grossP)}</dd>
        </div>
        <div>
          <dt className="opacity-70">Materials</dt>
          <dd>{formatPence(ret.totals.materialsP)}</dd>
        </div>
        <div>
          <dt className="opacity-70">CIS deducted</dt>
          <dd>{formatPence(ret.totals.cisDeductedP)}</dd>
        </div>
      </dl>
    </section>
  );
}

function SubmissionSection({ submission, inFlight }: { submission: NonNullable<SubmitData["submission"]>; inFlight: boolean }) {
  return (
    <section aria-labelledby="hmrc-heading" className="rounded-brand border border-line bg-elevated p-4" data-testid="hmrc-submission">
      <h3 id="hmrc-heading" className="font-semibold">
        HMRC: <span data-testid="hmrc-status">{SUBMISSION_STATUS_LABELS[submission.status]}</span>
      </h3>
      <p className="mt-1 text-xs opacity-70">Sent {formatDateTime(submission.createdAt)}</p>
      {inFlight ? (
        <p role="status" className="mt-2 text-sm">
          Waiting for HMRC&apos;s answer. This page updates by itself.{" "}
          <Link to="." className="underline">
            Refresh now
          </Link>
        </p>
      ) : null}
      {submission.receipt ? <p className="mt-2 text-sm">{submission.receipt}</p> : null}
      {submission.errors.length > 0 ? (
        <ul className="mt-2 list-disc pl-6 text-sm" data-testid="hmrc-errors">
          {submission.errors.map((e, i) => (
            <li key={i}>
              {e.number !== null ? `${e.number}: ` : ""}
              {e.text}
            </li>
          ))}
        </ul>
      ) : null}
      {submission.failureCode ? <p className="mt-2 text-sm text-danger">{GATEWAY_MESSAGES[submission.failureCode]}</p> : null}
    </section>
  );
}

export function meta() {
  return [{ title: "Submit Return · CIS" }];
}
