import { getFormProps, getInputProps, getSelectProps, type SubmissionResult, useForm } from "@conform-to/react";
import { useId, useRef, useState } from "react";
import { Form, Link } from "react-router";
import { Button, buttonClass, SubmitButton } from "~/components/ui/button";
import { Field, inputClass } from "~/components/ui/field";
import { SubmissionKeyInput } from "~/features/platform";
import { SUBCONTRACTOR_TYPES } from "../../domain/types";
import type { inviteCreateSchema } from "../schemas";
import type { z } from "zod";
import { useHydrated } from "~/utils/use-hydrated";
import { inviteHref, LIST_PATH } from "./invite-links";

const EMAIL_NOT_SENT = "Email could not be sent. Please share the link manually.";

// ---------------------------------------------------------------------------
// What the route's loader and action return (the modal reads the same shapes)

export type InviteLoaderData =
  | { mode: "existing"; subcontractor: { id: string; name: string; email: string | null; active: boolean }; canEdit: boolean; submissionKey: string }
  | { mode: "create" };

/** Why an existing subcontractor cannot be invited, in words (the same on the page, in the modal and from the action). */
export function inviteRefusalMessage(code: "no_email" | "archived", name: string): string {
  return code === "archived"
    ? `${name} is archived. Make them active again before inviting them to the portal.`
    : `${name} has no e-mail address. Add one before inviting them to the portal.`;
}

export type InviteResultData = {
  kind: "result";
  created: boolean;
  subcontractorId: string;
  inviteId: string;
  name: string;
  email: string;
  emailSent: boolean;
  /** Only in the response that shows it: the e-mail was not sent, or Show link was pressed. */
  magicLink: string | null;
  /** Whether this person may press Show link (cis.portal.invite and cis.inv.write). */
  canReveal: boolean;
  /** Why Show link showed nothing (used, expired, withdrawn, shown to someone else). */
  revealError: string | null;
};

export type InviteActionData = { kind: "form"; result: SubmissionResult<string[]> } | InviteResultData;

type PanelProps = {
  view: InviteLoaderData;
  actionData: InviteActionData | undefined;
  /** In the modal: the fetcher's state. On the page the button follows the navigation. */
  busy?: boolean;
  titleId: string;
  /** In the modal: the form posts through a fetcher with this key instead of navigating. */
  fetcherKey?: string;
  /** In the modal: buttons that close the dialog instead of links back to the list. */
  onCancel?: () => void;
  onClose?: () => void;
};

/** The invite's form, confirmation or result: one body for the page (no JavaScript) and the modal. */
export function InvitePanel(props: PanelProps) {
  const { view, actionData } = props;
  if (actionData?.kind === "result")
    return <InviteResult result={actionData} titleId={props.titleId} onClose={props.onClose} busy={props.busy} fetcherKey={props.fetcherKey} />;
  const formResult = actionData?.kind === "form" ? actionData.result : undefined;
  if (view.mode === "create") return <CreateInviteForm {...props} lastResult={formResult} />;
  return <ConfirmInvite {...props} view={view} lastResult={formResult} />;
}

function formFetcherProps(fetcherKey: string | undefined) {
  return fetcherKey ? ({ navigate: false, fetcherKey } as const) : {};
}

function CancelControl({ onCancel }: { onCancel?: () => void }) {
  return onCancel ? (
    <button type="button" onClick={onCancel} className={buttonClass("secondary")}>
      Cancel
    </button>
  ) : (
    <Link to={LIST_PATH} className={buttonClass("secondary")}>
      Cancel
    </Link>
  );
}

function FormError({ id, errors }: { id?: string; errors?: string[] }) {
  if (!errors?.length) return null;
  return (
    <div id={id} role="alert" className="rounded-brand border border-danger bg-danger/10 p-3 text-sm text-danger">
      {errors[0]}
    </div>
  );
}

function ConfirmInvite({
  view,
  lastResult,
  busy,
  titleId,
  fetcherKey,
  onCancel,
}: PanelProps & { view: Extract<InviteLoaderData, { mode: "existing" }>; lastResult?: SubmissionResult<string[]> }) {
  const { subcontractor } = view;
  const errors = lastResult?.error?.[""] ?? undefined;
  return (
    <div className="space-y-4">
      <h2 id={titleId} className="text-lg font-semibold">
        Invite Subcontractor to Portal
      </h2>
      {!subcontractor.active ? (
        <CannotInvite
          message={inviteRefusalMessage("archived", subcontractor.name)}
          subcontractorId={subcontractor.id}
          canEdit={view.canEdit}
          onCancel={onCancel}
        />
      ) : subcontractor.email ? (
        <Form method="post" action={inviteHref(subcontractor.id)} {...formFetcherProps(fetcherKey)} className="space-y-4">
          <FormError errors={errors} />
          <p className="text-sm">
            {`${subcontractor.name} will receive a sign-in link for the subcontractor portal at `}
            <strong>{subcontractor.email}</strong>. The link expires in 15 minutes and can be used once.
          </p>
          <input type="hidden" name="intent" value="invite" />
          <SubmissionKeyInput value={view.submissionKey} />
          <div className="flex justify-end gap-2">
            <CancelControl onCancel={onCancel} />
            <SubmitButton pendingText="Creating..." pending={busy} action={inviteHref(subcontractor.id)}>
              Create & Send Invite
            </SubmitButton>
          </div>
        </Form>
      ) : (
        <CannotInvite
          message={`${subcontractor.name} has no e-mail address. The portal link is sent by e-mail, so add one before inviting them.`}
          subcontractorId={subcontractor.id}
          canEdit={view.canEdit}
          onCancel={onCancel}
        />
      )}
    </div>
  );
}

/** An invite that cannot be sent yet: why, and the way to put it right (the subcontractor's form). */
function CannotInvite({ message, subcontractorId, canEdit, onCancel }: { message: string; subcontractorId: string; canEdit: boolean; onCancel?: () => void }) {
  return (
    <div className="space-y-4">
      <div role="alert" className="rounded-brand border border-amber-500 bg-amber-500/10 p-3 text-sm">
        {message}
      </div>
      <div className="flex justify-end gap-2">
        <CancelControl onCancel={onCancel} />
        {canEdit ? (
          <Link to={`${LIST_PATH}/${encodeURIComponent(subcontractorId)}/edit`} className={buttonClass("primary")}>
            Edit
          </Link>
        ) : (
          <p className="self-center text-sm opacity-80">Ask someone who can edit subcontractors to change it.</p>
        )}
      </div>
    </div>
  );
}

function useCreateInviteForm(lastResult: SubmissionResult<string[]> | undefined) {
  return useForm<z.input<typeof inviteCreateSchema>>({
    lastResult,
    defaultValue: { type: "individual" },
    // Checked when sent, on the server: validating on blur without a client schema would post the
    // half-filled form to the action.
    shouldValidate: "onSubmit",
  });
}

type CreateInviteFields = ReturnType<typeof useCreateInviteForm>[1];

function CreateInviteForm({ lastResult, busy, titleId, fetcherKey, onCancel }: PanelProps & { lastResult?: SubmissionResult<string[]> }) {
  const [form, fields] = useCreateInviteForm(lastResult);
  return (
    <div className="space-y-4">
      <h2 id={titleId} className="text-lg font-semibold">
        Invite Subcontractor to Portal
      </h2>
      <Form method="post" action={inviteHref()} {...formFetcherProps(fetcherKey)} {...getFormProps(form)} className="space-y-4">
        <FormError id={form.errorId} errors={form.errors} />
        <input type="hidden" name="intent" value="create" />
        <Field id={fields.name.id} label="Name *" error={fields.name.errors}>
          <input {...getInputProps(fields.name, { type: "text" })} key={fields.name.key} className={inputClass} autoComplete="off" required maxLength={100} />
        </Field>
        <Field id={fields.email.id} label="Email *" error={fields.email.errors}>
          <input {...getInputProps(fields.email, { type: "email" })} key={fields.email.key} className={inputClass} autoComplete="off" required />
        </Field>
        <IdentityFields fields={fields} />
        <div className="flex justify-end gap-2">
          <CancelControl onCancel={onCancel} />
          <SubmitButton pendingText="Creating..." pending={busy} action={inviteHref()}>
            Create & Send Invite
          </SubmitButton>
        </div>
      </Form>
    </div>
  );
}

/** Type, UTR and the identifier that fits the type. */
function IdentityFields({ fields }: { fields: CreateInviteFields }) {
  const hydrated = useHydrated();
  const type = fields.type.value ?? "individual";
  // Without JavaScript both identifier fields show (the server keeps the one that fits the type).
  const showNino = !hydrated || type === "individual";
  const showCompany = !hydrated || type !== "individual";
  return (
    <>
      <Field id={fields.type.id} label="Type" error={fields.type.errors}>
        <select {...getSelectProps(fields.type)} key={fields.type.key} className={inputClass}>
          {SUBCONTRACTOR_TYPES.map((t) => (
            <option key={t} value={t}>
              {t === "individual" ? "Individual" : t === "company" ? "Company" : "Partnership"}
            </option>
          ))}
        </select>
      </Field>
      <Field id={fields.utr.id} label="UTR" error={fields.utr.errors} hint="10 digits">
        <input
          {...getInputProps(fields.utr, { type: "text", ariaDescribedBy: fields.utr.descriptionId })}
          key={fields.utr.key}
          className={inputClass}
          inputMode="numeric"
          maxLength={10}
          autoComplete="off"
          required
        />
      </Field>
      {showNino ? (
        <Field id={fields.nino.id} label="National Insurance Number" error={fields.nino.errors} hint={hydrated ? undefined : "Individuals only"}>
          <input
            {...getInputProps(fields.nino, { type: "text", ariaDescribedBy: hydrated ? undefined : fields.nino.descriptionId })}
            key={fields.nino.key}
            className={inputClass}
            autoComplete="off"
            maxLength={13}
          />
        </Field>
      ) : null}
      {showCompany ? (
        <Field
          id={fields.companyNumber.id}
          label="Company Number"
          error={fields.companyNumber.errors}
          hint={hydrated ? undefined : "Companies and partnerships only"}
        >
          <input
            {...getInputProps(fields.companyNumber, { type: "text", ariaDescribedBy: hydrated ? undefined : fields.companyNumber.descriptionId })}
            key={fields.companyNumber.key}
            className={inputClass}
            autoComplete="off"
            maxLength={8}
          />
        </Field>
      ) : null}
    </>
  );
}

const SHOWN_TO_YOU = "This link is recorded as shown to you. Invoices submitted through it must be approved and paid by someone else.";

function InviteResult({
  result,
  titleId,
  onClose,
  busy,
  fetcherKey,
}: {
  result: InviteResultData;
  titleId: string;
  onClose?: () => void;
  busy?: boolean;
  fetcherKey?: string;
}) {
  return (
    <div className="space-y-4">
      <div role="status" aria-live="polite" className="space-y-2">
        <h2 id={titleId} className="text-lg font-semibold">
          Invitation Created
        </h2>
        {result.created ? <p className="text-sm text-success">Subcontractor created successfully!</p> : null}
        {result.emailSent ? (
          <p className="text-sm">{`Invitation email sent to ${result.email}`}</p>
        ) : (
          <p className="rounded-brand border border-amber-500 bg-amber-500/10 p-3 text-sm">
            <strong>Note:</strong> {EMAIL_NOT_SENT}
          </p>
        )}
      </div>
      {result.magicLink ? (
        <ShownLink magicLink={result.magicLink} />
      ) : result.revealError ? (
        <p role="alert" className="rounded-brand border border-danger bg-danger/10 p-3 text-sm" data-reveal-error>
          {result.revealError}
        </p>
      ) : (
        <RevealStep result={result} busy={busy} fetcherKey={fetcherKey} />
      )}
      <p className="text-sm opacity-80">This link can only be used once.</p>
      <div className="flex justify-end">
        {onClose ? (
          <button type="button" onClick={onClose} className={buttonClass("primary")}>
            Close &amp; Refresh
          </button>
        ) : (
          <Link to={LIST_PATH} className={buttonClass("primary")}>
            Close &amp; Refresh
          </Link>
        )}
      </div>
    </div>
  );
}

/**
 * The link went by e-mail only. Seeing it lets one sign in as the subcontractor, so it is shown
 * on request, to someone who may (the server checks again), and recorded.
 */
function RevealStep({ result, busy, fetcherKey }: { result: InviteResultData; busy?: boolean; fetcherKey?: string }) {
  const hint = useId();
  if (!result.canReveal) {
    return <p className="text-sm">{`The portal access link (expires in 15 minutes) went to ${result.email} only.`}</p>;
  }
  const action = inviteHref(result.subcontractorId);
  return (
    <Form method="post" action={action} {...formFetcherProps(fetcherKey)} className="space-y-2" data-reveal>
      <input type="hidden" name="intent" value="reveal" />
      <input type="hidden" name="invite" value={result.inviteId} />
      <p id={hint} className="text-sm">
        {`The portal access link (expires in 15 minutes) went to ${result.email} only. If they cannot find the e-mail, you can show the link to share it. `}
        That is recorded, and you will not be able to approve or pay invoices submitted through it.
      </p>
      <SubmitButton variant="secondary" pendingText="Showing..." pending={busy} action={action} aria-describedby={hint}>
        Show link
      </SubmitButton>
    </Form>
  );
}

function ShownLink({ magicLink }: { magicLink: string }) {
  const hydrated = useHydrated();
  const inputRef = useRef<HTMLInputElement>(null);
  const [copied, setCopied] = useState(false);
  const linkId = useId();
  async function copy() {
    try {
      await navigator.clipboard.writeText(magicLink);
      setCopied(true);
    } catch {
      // No clipboard permission: leave the link selected so Ctrl+C works.
      inputRef.current?.select();
    }
  }
  return (
    <div className="space-y-2" data-shown-link>
      <div className="space-y-1">
        <label htmlFor={linkId} className="block text-sm font-medium">
          Portal access link (expires in 15 minutes)
        </label>
        <input
          ref={inputRef}
          id={linkId}
          type="text"
          readOnly
          value={magicLink}
          onFocus={(e) => e.currentTarget.select()}
          className={`${inputClass} font-mono text-xs`}
        />
      </div>
      {hydrated ? (
        <Button type="button" variant="secondary" onClick={copy}>
          Copy Link to Clipboard
        </Button>
      ) : null}
      <p role="status" aria-live="polite" className="text-sm text-success">
        {copied ? "Link copied to clipboard!" : ""}
      </p>
      <p className="text-sm opacity-80">{SHOWN_TO_YOU}</p>
    </div>
  );
}
