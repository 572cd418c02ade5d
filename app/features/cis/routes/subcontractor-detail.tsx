import type { ComponentProps, ReactNode } from "react";
import { data, Form, Link } from "react-router";
import { buttonClass, SubmitButton } from "~/components/ui/button";
import { requireScope } from "~/features/auth/index.server";
import { can } from "~/features/auth";
import { clientIp } from "~/features/platform/index.server";
import { redirectWithToast } from "~/features/platform/index.server";
import { reportInternalError } from "~/features/platform";
import { formatDate, formatDateTime } from "~/utils/dates";
import { InviteToPortalButton } from "../portal-invites/components/invite-to-portal-button";
import { confirmThenSubmit } from "~/components/ui/confirm-then-submit";
import { ConfirmPanel } from "../subcontractors/components/subcontractor-confirm";
import { METHOD_LABELS, STATUS_LABELS, StatusBadge, TYPE_LABELS } from "../subcontractors/components/subcontractor-labels";
import { requireModule } from "~/features/auth/index.server";
import { DECRYPT_FAILED, PiiError } from "../pii.server";
import { subcontractorDetailFormSchema, subcontractorParamsSchema } from "../subcontractors/schemas";
import { BULK_FAILURE_MESSAGES } from "../subcontractors/subcontractor-messages";
import { archiveSubcontractors, getSubcontractor, revealIdentifier, subcontractorView } from "../subcontractors/subcontractors.server";
import { RefreshWhile } from "~/components/refresh-while";
import { GATEWAY_MESSAGES, isInFlight, SUBMISSION_STATUS_LABELS, VERIFY_SENT_TITLE, verifyRefusalMessage, verifySentMessage } from "../hmrc/codes";
import { startVerification, subcontractorWithVerification } from "../hmrc/verification.server";
import { SubmissionKeyInput } from "~/features/platform";
import { mintSubmissionKey, submitOnce } from "~/features/platform/index.server";
import type { Route } from "./+types/subcontractor-detail";

/** How often the page looks again while HMRC has a verification request. */
const VERIFY_REFRESH_SECONDS = 3;

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const { env, tenant, user } = await requireModule(request, context, { module: "cis", scope: "cis.sub.read" });
  const { id } = subcontractorParamsSchema.parse(params);
  // The subcontractor and its latest online verification, in one round trip.
  const found = await subcontractorWithVerification(env, tenant.id, id);
  if (!found) throw data("Not found", { status: 404 });
  const { row, verification } = found;
  const keys = {
    verify: can(user, "cis.sub.verify") ? await mintSubmissionKey(env, verifyScope(tenant.id, user.id, row.id)) : null,
  };
  return {
    keys,
    sub: subcontractorView(row),
    hmrc: verification
      ? { status: verification.status, errors: verification.errors, failureCode: verification.failureCode, createdAt: verification.createdAt }
      : null,
    perms: {
      canWrite: can(user, "cis.sub.write"),
      canUnmask: can(user, "cis.pii.unmask"),
      canInvite: can(user, "cis.portal.invite"),
      canVerify: can(user, "cis.sub.verify"),
      canInvoice: can(user, "cis.inv.write"),
    },
  };
}

type Field = "utr" | "nino";

/** Asking HMRC to verify sends a message: once per submission key (bound to the subcontractor). */
function verifyScope(tenantId: string, userId: string, subcontractorId: string) {
  return { tenantId, userId, action: `cis.subcontractor.verify:${subcontractorId}` };
}

type ActionData =
  { kind: "reveal"; field: Field; value: string | null; error: string | null } | { kind: "confirm-archive" } | { kind: "error"; message: string };

export async function action({ request, context, params }: Route.ActionArgs) {
  const { env, tenant, user, actor } = await requireModule(request, context, { module: "cis", scope: "cis.sub.read" });
  const { id } = subcontractorParamsSchema.parse(params);
  // Another tenant's or a deleted subcontractor is simply not there, whoever asks.
  const row = await getSubcontractor(env, tenant.id, id);
  if (!row) throw data("Not found", { status: 404 });
  const form = await request.formData();
  const parsed = subcontractorDetailFormSchema.safeParse({
    intent: form.get("intent"),
    field: form.get("field") ?? undefined,
    confirmed: form.get("confirmed") ?? undefined,
  });
  if (!parsed.success) throw data("Unknown action", { status: 400 });
  const posted = parsed.data;

  if (posted.intent === "reveal") {
    await requireScope(request, context, user, "cis.pii.unmask");
    const { field } = posted;
    // The plaintext travels only in this POST response, which nothing may cache.
    const headers = { "Cache-Control": "no-store" };
    try {
      const value = await revealIdentifier(env, tenant.id, row.id, field, actor, clientIp(request));
      if (value === null)
        return data<ActionData>(
          { kind: "reveal", field, value: null, error: field === "utr" ? "No UTR on record" : "No NINO on record" },
          { status: 404, headers },
        );
      return data<ActionData>({ kind: "reveal", field, value, error: null }, { headers });
    } catch (err) {
      if (!(err instanceof PiiError)) throw err;
      // A missing or malformed key names its configuration in the message: that stays in the log.
      const error = reportInternalError(context, err, "cis reveal", `${DECRYPT_FAILED}.`);
      return data<ActionData>({ kind: "reveal", field, value: null, error }, { status: 500, headers });
    }
  }

  if (posted.intent === "verify") {
    await requireScope(request, context, user, "cis.sub.verify");
    const sent = await submitOnce(env, form, verifyScope(tenant.id, user.id, row.id), (claim) =>
      startVerification(env, tenant.id, [row.id], actor, new Date(), claim),
    );
    if (sent.kind === "refused" || sent.kind === "pending") return data<ActionData>({ kind: "error", message: sent.message }, { status: 409 });
    const res = sent.result;
    if (!res.ok) return data<ActionData>({ kind: "error", message: verifyRefusalMessage(res) }, { status: res.code === "not_found" ? 404 : 400 });
    return redirectWithToast(env, `/cis/subcontractors/${row.id}`, { type: "success", title: VERIFY_SENT_TITLE, message: verifySentMessage(1, res.created) });
  }

  await requireScope(request, context, user, "cis.sub.write");
  if (posted.confirmed !== "yes") return data<ActionData>({ kind: "confirm-archive" });
  const res = await archiveSubcontractors(env, tenant.id, [row.id], actor);
  if (res.failed.length) return data<ActionData>({ kind: "error", message: BULK_FAILURE_MESSAGES[res.failed[0].code] }, { status: 409 });
  return redirectWithToast(env, `/cis/subcontractors/${row.id}`, { type: "success", title: "Subcontractor archived", message: row.name });
}

function Item({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="py-2 sm:grid sm:grid-cols-3 sm:gap-4">
      <dt className="text-sm opacity-70">{label}</dt>
      <dd className="mt-1 text-sm sm:col-span-2 sm:mt-0">{children}</dd>
    </div>
  );
}

function Identifier({
  field,
  masked,
  canUnmask,
  reveal,
}: {
  field: Field;
  masked: string | null;
  canUnmask: boolean;
  reveal: Extract<ActionData, { kind: "reveal" }> | null;
}) {
  const mine = reveal?.field === field ? reveal : null;
  return (
    <div className="flex flex-wrap items-center gap-3">
      <span className="font-mono">{masked ?? "N/A"}</span>
      {canUnmask && masked ? (
        <Form method="post">
          <input type="hidden" name="intent" value="reveal" />
          <input type="hidden" name="field" value={field} />
          <SubmitButton variant="link" pendingText="Revealing..." match={{ intent: "reveal", field }}>
            Reveal
          </SubmitButton>
        </Form>
      ) : null}
      <span aria-live="polite">
        {mine?.value ? (
          <output className="font-mono font-semibold" data-revealed={field}>
            {mine.value}
          </output>
        ) : null}
        {mine?.error ? (
          <span role="alert" className="text-sm text-danger">
            {mine.error}
          </span>
        ) : null}
      </span>
    </div>
  );
}

export default function SubcontractorDetail({ loaderData, actionData }: Route.ComponentProps) {
  const { sub, perms, keys } = loaderData;
  const result = actionData;
  const reveal = result?.kind === "reveal" ? result : null;
  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-center gap-3">
        <Link to="/cis/subcontractors" className={buttonClass("ghost")}>
          Back
        </Link>
        <h2 className="text-xl font-semibold">{sub.name || "Untitled"}</h2>
        <StatusBadge active={sub.active} />
        <div className="ml-auto flex flex-wrap gap-2">
          {perms.canInvoice && sub.active ? (
            // The form opens for this subcontractor, its VAT default applied (with or without JavaScript).
            <Link to={`/cis/invoices/new?subcontractorId=${encodeURIComponent(sub.id)}`} className={buttonClass("secondary")}>
              New Invoice
            </Link>
          ) : null}
          {perms.canInvite && sub.email && sub.active ? <InviteToPortalButton subcontractorId={sub.id} className={buttonClass("secondary")} /> : null}
          {perms.canVerify && sub.active ? (
            <Form method="post">
              <input type="hidden" name="intent" value="verify" />
              {keys.verify ? <SubmissionKeyInput value={keys.verify} /> : null}
              <SubmitButton variant="secondary" pendingText="Sending..." match={{ intent: "verify" }}>
                Verify with HMRC
              </SubmitButton>
            </Form>
          ) : null}
          {perms.canWrite ? (
            <Link to={`/cis/subcontractors/${sub.id}/edit`} className={buttonClass("secondary")}>
              Edit
            </Link>
          ) : null}
          {perms.canWrite && sub.active ? (
            <Form method="post" onSubmit={confirmThenSubmit(() => `Archive ${sub.name}? It can be made active again from its form.`)}>
              <input type="hidden" name="intent" value="archive" />
              <input type="hidden" name="confirmed" value="" />
              <button type="submit" className={buttonClass("danger")}>
                Archive
              </button>
            </Form>
          ) : null}
        </div>
      </div>

      {result?.kind === "confirm-archive" ? (
        <ConfirmPanel
          title={`Archive ${sub.name}? It can be made active again from its form.`}
          intent="archive"
          items={[{ id: sub.id, name: sub.name }]}
          cancelTo={`/cis/subcontractors/${sub.id}`}
        />
      ) : null}
      {result?.kind === "error" ? (
        <p role="alert" className="rounded-brand border border-danger bg-danger/10 p-3 text-sm">
          {result.message}
        </p>
      ) : null}

      <div className="grid gap-6 lg:grid-cols-2">
        <DetailsSection sub={sub} canUnmask={perms.canUnmask} reveal={reveal} />

        <VerificationSection loaderData={loaderData} />
      </div>
    </div>
  );
}

type DetailData = Route.ComponentProps["loaderData"];

function DetailsSection({ sub, canUnmask, reveal }: { sub: DetailData["sub"]; canUnmask: boolean; reveal: ComponentProps<typeof Identifier>["reveal"] }) {
  return (
    <section aria-labelledby="details-heading" className="rounded-brand border border-line bg-elevated p-4">
      <h3 id="details-heading" className="font-semibold">
        Subcontractor Details
      </h3>
      <dl className="mt-2 divide-y divide-line">
        <Item label="Type">{TYPE_LABELS[sub.type]}</Item>
        <Item label="Name">{sub.name}</Item>
        <Item label="UTR">
          <Identifier field="utr" masked={sub.utrMasked} canUnmask={canUnmask} reveal={reveal} />
          {sub.utrInvalid ? (
            <span className="block font-medium text-danger" data-utr-invalid>
              UTR fails HMRC&rsquo;s check: correct it
            </span>
          ) : null}
        </Item>
        {sub.type === "individual" || sub.ninoMasked ? (
          <Item label="National Insurance Number">
            <Identifier field="nino" masked={sub.ninoMasked} canUnmask={canUnmask} reveal={reveal} />
          </Item>
        ) : null}
        {sub.type !== "individual" ? <Item label="Company Number">{sub.companyNumber ?? "N/A"}</Item> : null}
        <Item label="VAT Number">{sub.vatNumber ?? "N/A"}</Item>
        <Item label="Email">{sub.email ?? "N/A"}</Item>
        <Item label="Phone">{sub.phone ?? "N/A"}</Item>
        <Item label="Status">{sub.active ? "Active" : "Archived"}</Item>
        <Item label="Public body">{sub.publicBody ? "Yes: payments from 6 April 2026 are not CIS payments" : "No"}</Item>
        <Item label="Created">{formatDateTime(sub.createdAt)}</Item>
        <Item label="Updated">{formatDateTime(sub.updatedAt)}</Item>
      </dl>
    </section>
  );
}

function VerificationSection({ loaderData }: { loaderData: DetailData }) {
  const { sub, hmrc } = loaderData;
  const verifying = hmrc !== null && hmrc !== undefined && isInFlight(hmrc.status);
  return (
    <section aria-labelledby="verification-heading" className="rounded-brand border border-line bg-elevated p-4">
      <h3 id="verification-heading" className="font-semibold">
        Verification Details
      </h3>
      <dl className="mt-2 divide-y divide-line">
        <Item label="Verification Status">{STATUS_LABELS[sub.verificationStatus]}</Item>
        <Item label="CIS Rate">{`${sub.verificationRate}%`}</Item>
        <Item label="Verification Method">{sub.verificationMethod ? METHOD_LABELS[sub.verificationMethod] : "N/A"}</Item>
        <Item label="Verification Reference">{sub.verificationReference ?? "N/A"}</Item>
        <Item label="Verified Date">{formatDate(sub.verifiedDate)}</Item>
        <Item label="Notes">{sub.verificationNotes ? <span className="whitespace-pre-wrap">{sub.verificationNotes}</span> : "N/A"}</Item>
        {hmrc ? (
          <Item label="Online Verification">
            <RefreshWhile running={verifying} seconds={VERIFY_REFRESH_SECONDS} token={loaderData} />
            <span data-testid="hmrc-verification-status">{SUBMISSION_STATUS_LABELS[hmrc.status]}</span>
            {` · ${formatDateTime(hmrc.createdAt)}`}
            {hmrc.errors.length > 0 ? (
              <ul className="mt-1 list-disc pl-5" data-testid="hmrc-verification-errors">
                {hmrc.errors.map((e, i) => (
                  <li key={i}>{e.text}</li>
                ))}
              </ul>
            ) : null}
            {hmrc.failureCode ? <span className="block text-danger">{GATEWAY_MESSAGES[hmrc.failureCode]}</span> : null}
          </Item>
        ) : null}
      </dl>
    </section>
  );
}

export function meta({ loaderData }: Route.MetaArgs) {
  return [{ title: loaderData ? `${loaderData.sub.name} · Subcontractors · CIS` : "Subcontractor · CIS" }];
}
