import { getFormProps, getInputProps, getSelectProps, getTextareaProps, useForm, type SubmissionResult } from "@conform-to/react";
import { Form, Link } from "react-router";
import { buttonClass, SubmitButton } from "~/components/ui/button";
import { Field, inputClass } from "~/components/ui/field";
import { formatDate } from "~/utils/dates";
import { RATE_FOR_VERIFICATION_STATUS, VERIFICATION_STATUSES, type VerificationStatus } from "../../domain/calculation";
import { SUBCONTRACTOR_TYPES, VERIFICATION_METHODS, type SubcontractorType, type VerificationMethod } from "../../domain/types";
import type { subcontractorCreateSchema, subcontractorUpdateSchema } from "../../domain/schemas";
import type { z } from "zod";
import { useHydrated } from "~/utils/use-hydrated";
import { METHOD_LABELS, STATUS_LABELS } from "./subcontractor-labels";
import { FormErrors, FormSection as Section } from "~/components/ui/form-section";

export type SubcontractorFormDefaults = {
  type: SubcontractorType;
  name: string;
  companyNumber: string;
  vatNumber: string;
  email: string;
  phone: string;
  verificationStatus: VerificationStatus;
  verificationMethod: string;
  verificationReference: string;
  verificationNotes: string;
  verifiedDate: string;
  active: boolean;
  publicBody: boolean;
};

const isStatus = (v: unknown): v is VerificationStatus => (VERIFICATION_STATUSES as readonly unknown[]).includes(v);
const isType = (v: unknown): v is SubcontractorType => (SUBCONTRACTOR_TYPES as readonly unknown[]).includes(v);
const isMethod = (v: unknown): v is VerificationMethod => (VERIFICATION_METHODS as readonly unknown[]).includes(v);

/** A stored verification value shown as text, with the field's error slot (for a refused change). */
function ReadOnlyValue({ id, label, value, errors }: { id: string; label: string; value: string; errors?: string[] }) {
  // Text, not a control: a <label> would point at nothing.
  return (
    <div className="space-y-1">
      <p id={`${id}-label`} className="text-sm font-medium">
        {label}
      </p>
      <p id={id} aria-labelledby={`${id}-label`} aria-describedby={errors?.length ? `${id}-error` : undefined} className="py-2 text-sm">
        {value}
      </p>
      {errors?.length ? (
        <p id={`${id}-error`} className="text-sm text-danger" role="alert">
          {errors[0]}
        </p>
      ) : null}
    </div>
  );
}

/**
 * Create and edit share this form. On edit the UTR and NINO inputs start blank: the stored values
 * are never sent to the page, and a blank input keeps them.
 */
// eslint-disable-next-line max-lines-per-function -- one form: every field reads the same form state, so a split would only pass it through props
export function SubcontractorForm({
  mode,
  lastResult,
  defaultValue,
  utrMasked,
  ninoMasked,
  canVerify,
}: {
  mode: "create" | "edit";
  lastResult: SubmissionResult<string[]> | null | undefined;
  defaultValue: SubcontractorFormDefaults;
  utrMasked?: string | null;
  ninoMasked?: string | null;
  /** Without cis.sub.verify the verification fields are shown, not posted. */
  canVerify: boolean;
}) {
  const hydrated = useHydrated();
  const [form, fields] = useForm<z.input<typeof subcontractorCreateSchema | typeof subcontractorUpdateSchema>>({
    id: `subcontractor-${mode}`,
    lastResult,
    defaultValue: { ...defaultValue, utr: "", nino: "", removeNino: false },
  });

  const type = isType(fields.type.value) ? fields.type.value : defaultValue.type;
  const status = fields.verificationStatus.value;
  const rate = isStatus(status) ? RATE_FOR_VERIFICATION_STATUS[status] : RATE_FOR_VERIFICATION_STATUS[defaultValue.verificationStatus];
  // Without JavaScript both identifiers stay visible (the type can change without a re-render);
  // the server drops whichever does not fit the type.
  const showNino = !hydrated || type === "individual";
  const showCompany = !hydrated || type !== "individual";

  return (
    <Form method="post" {...getFormProps(form)} className="space-y-6">
      <FormErrors id={form.errorId} errors={form.errors} />

      <Section id="details-heading" title="Subcontractor Details">
        <Field id={fields.type.id} label="Type" error={fields.type.errors}>
          <select {...getSelectProps(fields.type)} key={fields.type.key} className={inputClass}>
            <option value="individual">Individual</option>
            <option value="company">Company</option>
            <option value="partnership">Partnership</option>
          </select>
        </Field>
        <Field id={fields.name.id} label="Name *" error={fields.name.errors}>
          <input {...getInputProps(fields.name, { type: "text" })} key={fields.name.key} className={inputClass} maxLength={100} autoComplete="off" />
        </Field>
        <Field
          id={fields.utr.id}
          label={mode === "create" ? "UTR *" : "UTR"}
          error={fields.utr.errors}
          hint={mode === "create" ? "10 digits" : `Leave blank to keep the current UTR${utrMasked ? ` (${utrMasked})` : ""}.`}
        >
          <input
            {...getInputProps(fields.utr, { type: "text", ariaDescribedBy: fields.utr.descriptionId })}
            key={fields.utr.key}
            className={`${inputClass} font-mono`}
            maxLength={10}
            inputMode="numeric"
            autoComplete="off"
          />
        </Field>
        {showNino ? (
          <Field
            id={fields.nino.id}
            label="National Insurance Number"
            error={fields.nino.errors}
            hint={`Individuals only.${mode === "edit" && ninoMasked ? ` Leave blank to keep the current NINO (${ninoMasked}).` : ""}`}
            after={
              mode === "edit" && ninoMasked ? (
                <div className="pt-1">
                  <div className="flex items-center gap-2">
                    <input
                      {...getInputProps(fields.removeNino, { type: "checkbox" })}
                      key={fields.removeNino.key}
                      aria-describedby={fields.removeNino.errors ? fields.removeNino.errorId : undefined}
                      className="h-4 w-4 accent-[var(--color-accent)]"
                    />
                    <label htmlFor={fields.removeNino.id} className="text-sm">
                      {`Remove the current NINO (${ninoMasked})`}
                    </label>
                  </div>
                  {fields.removeNino.errors ? (
                    <p id={fields.removeNino.errorId} className="mt-1 text-sm text-danger">
                      {fields.removeNino.errors.join(" ")}
                    </p>
                  ) : null}
                </div>
              ) : null
            }
          >
            <input
              {...getInputProps(fields.nino, { type: "text", ariaDescribedBy: fields.nino.descriptionId })}
              key={fields.nino.key}
              className={`${inputClass} font-mono uppercase`}
              maxLength={13}
              autoComplete="off"
            />
          </Field>
        ) : null}
        {showCompany ? (
          <Field
            id={fields.companyNumber.id}
            label="Company Number"
            error={fields.companyNumber.errors}
            hint="Companies and partnerships only: 8 letters or digits."
          >
            <input
              {...getInputProps(fields.companyNumber, { type: "text", ariaDescribedBy: fields.companyNumber.descriptionId })}
              key={fields.companyNumber.key}
              className={`${inputClass} uppercase`}
              maxLength={10}
              autoComplete="off"
            />
          </Field>
        ) : null}
        <Field id={fields.vatNumber.id} label="VAT Number" error={fields.vatNumber.errors}>
          <input {...getInputProps(fields.vatNumber, { type: "text" })} key={fields.vatNumber.key} className={inputClass} maxLength={16} autoComplete="off" />
        </Field>
        <Field id={fields.email.id} label="Email" error={fields.email.errors}>
          <input {...getInputProps(fields.email, { type: "email" })} key={fields.email.key} className={inputClass} autoComplete="off" />
        </Field>
        <Field id={fields.phone.id} label="Phone" error={fields.phone.errors}>
          <input {...getInputProps(fields.phone, { type: "tel" })} key={fields.phone.key} className={inputClass} autoComplete="off" />
        </Field>
        <div className="flex items-center gap-3 md:col-span-2">
          <input
            {...getInputProps(fields.active, { type: "checkbox" })}
            key={fields.active.key}
            role="switch"
            className="h-5 w-9 accent-[var(--color-accent)]"
          />
          <label htmlFor={fields.active.id} className="text-sm font-medium">
            Active
          </label>
          <span className="text-xs opacity-70">Switch off to archive; an archived subcontractor cannot be used for new invoices.</span>
        </div>
        <div className="flex items-start gap-3 md:col-span-2">
          <input
            {...getInputProps(fields.publicBody, { type: "checkbox" })}
            key={fields.publicBody.key}
            aria-describedby={`${fields.publicBody.id}-description`}
            className="mt-1 h-4 w-4 accent-[var(--color-accent)]"
          />
          <div>
            <label htmlFor={fields.publicBody.id} className="text-sm font-medium">
              Public body
            </label>
            <p id={`${fields.publicBody.id}-description`} className="text-xs opacity-70">
              A local authority or another public body the CIS regulations list. From 6 April 2026 payments to it are not CIS payments: no deduction, no return
              line, no statement.
            </p>
          </div>
        </div>
      </Section>

      <Section id="verification-heading" title="Verification Details">
        {canVerify ? (
          <>
            <Field id={fields.verificationStatus.id} label="Verification Status" error={fields.verificationStatus.errors}>
              <div className="flex items-center gap-3">
                <select {...getSelectProps(fields.verificationStatus)} key={fields.verificationStatus.key} className={inputClass}>
                  <option value="gross">Gross</option>
                  <option value="standard">Standard</option>
                  <option value="higher">Higher</option>
                </select>
                <span className="whitespace-nowrap text-sm">
                  Rate:{" "}
                  <output htmlFor={fields.verificationStatus.id} aria-live="polite" className="font-semibold" data-rate>
                    {`${rate}%`}
                  </output>
                </span>
              </div>
              <p className="mt-1 text-xs opacity-70">The rate follows the status: gross 0%, standard 20%, higher 30%.</p>
            </Field>
            <Field id={fields.verificationMethod.id} label="Verification Method" error={fields.verificationMethod.errors}>
              <select {...getSelectProps(fields.verificationMethod)} key={fields.verificationMethod.key} className={inputClass}>
                <option value="">Not set</option>
                <option value="online">Online</option>
                <option value="phone">Phone</option>
                <option value="letter">Letter</option>
              </select>
            </Field>
            <Field id={fields.verificationReference.id} label="Verification Reference" error={fields.verificationReference.errors}>
              <input
                {...getInputProps(fields.verificationReference, { type: "text" })}
                key={fields.verificationReference.key}
                className={inputClass}
                maxLength={50}
                autoComplete="off"
              />
            </Field>
            <Field id={fields.verifiedDate.id} label="Verified Date" error={fields.verifiedDate.errors}>
              <input {...getInputProps(fields.verifiedDate, { type: "date" })} key={fields.verifiedDate.key} className={inputClass} />
            </Field>
          </>
        ) : (
          <>
            <p className="text-sm opacity-80 md:col-span-2">
              Changing verification details needs the cis.sub.verify permission. They are shown here as recorded.
            </p>
            <ReadOnlyValue
              id={fields.verificationStatus.id}
              label="Verification Status"
              value={`${STATUS_LABELS[defaultValue.verificationStatus]} (rate ${RATE_FOR_VERIFICATION_STATUS[defaultValue.verificationStatus]}%)`}
              errors={fields.verificationStatus.errors}
            />
            <ReadOnlyValue
              id={fields.verificationMethod.id}
              label="Verification Method"
              value={isMethod(defaultValue.verificationMethod) ? METHOD_LABELS[defaultValue.verificationMethod] : "Not set"}
              errors={fields.verificationMethod.errors}
            />
            <ReadOnlyValue
              id={fields.verificationReference.id}
              label="Verification Reference"
              value={defaultValue.verificationReference || "Not set"}
              errors={fields.verificationReference.errors}
            />
            <ReadOnlyValue
              id={fields.verifiedDate.id}
              label="Verified Date"
              value={defaultValue.verifiedDate ? formatDate(defaultValue.verifiedDate) : "Not set"}
              errors={fields.verifiedDate.errors}
            />
          </>
        )}
        <div className="md:col-span-2">
          <Field id={fields.verificationNotes.id} label="Notes" error={fields.verificationNotes.errors}>
            <textarea {...getTextareaProps(fields.verificationNotes)} key={fields.verificationNotes.key} className={inputClass} rows={3} maxLength={1000} />
          </Field>
        </div>
      </Section>

      <div className="flex justify-end gap-3">
        <Link to="/cis/subcontractors" className={buttonClass("secondary")}>
          Cancel
        </Link>
        <SubmitButton pendingText="Saving...">{mode === "create" ? "Create Subcontractor" : "Update Subcontractor"}</SubmitButton>
      </div>
    </Form>
  );
}
