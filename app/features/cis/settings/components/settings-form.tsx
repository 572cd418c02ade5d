import { type FieldMetadata, getFormProps, getInputProps, getSelectProps, getTextareaProps, type SubmissionResult, useForm } from "@conform-to/react";
import type { InputHTMLAttributes } from "react";
import { Form } from "react-router";
import { SubmitButton } from "~/components/ui/button";
import { Field, inputClass } from "~/components/ui/field";
import type { makeSettingsSchema } from "../../domain/schemas";
import { VAT_SCHEME_LABELS } from "../../domain/vat-scheme-labels";
import type { z } from "zod";
import { VAT_SCHEMES } from "../../domain/types";
import type { CisSettingsView } from "../settings.server";

/** What the form shows: the stored settings as the loader reads them. */
type SettingsFormValues = Omit<CisSettingsView, "updatedAt" | "fellBack">;

const sectionClass = "rounded-brand border border-line bg-elevated p-6";
const checkboxClass = "h-4 w-4 rounded border-line accent-[var(--color-accent)]";

/** A labelled input described by its hint (and its error, when it has one): the form's reference and number rows. */
function HintedInput({
  field,
  type,
  label,
  hint,
  ...attributes
}: { field: FieldMetadata<string | number>; type: "text" | "number"; label: string; hint: string } & Omit<InputHTMLAttributes<HTMLInputElement>, "type">) {
  return (
    <Field id={field.id} label={label} error={field.errors} hint={hint}>
      <input {...getInputProps(field, { type, ariaDescribedBy: field.descriptionId })} key={field.key} className={inputClass} {...attributes} />
    </Field>
  );
}

/**
 * The settings document as one form (intent=settings). The contractor UTR is never sent to the
 * page: the field starts blank, shows the stored mask as a hint, and blank keeps the stored value.
 */
// eslint-disable-next-line max-lines-per-function -- one form: every field reads the same form state, so a split would only pass it through props
export function SettingsForm({ settings, lastResult }: { settings: SettingsFormValues; lastResult?: SubmissionResult<string[]> | null }) {
  const [form, fields] = useForm<z.input<ReturnType<typeof makeSettingsSchema>>>({
    id: "cis-settings",
    lastResult,
    defaultValue: {
      active: settings.active,
      companyName: settings.companyName,
      employerRef: settings.employerRef,
      accountsOfficeRef: settings.accountsOfficeRef,
      vatScheme: settings.vatScheme,
      emailStatements: settings.emailStatements,
      endUser: settings.endUser,
      warningDays: settings.warningDays,
      statementDeadlineDays: settings.statementDeadlineDays,
      emailFrom: settings.emailFrom ?? "",
      emailReplyTo: settings.emailReplyTo ?? "",
      statementFooter: settings.statementFooter ?? "",
    },
  });

  return (
    <Form method="post" {...getFormProps(form)} className="space-y-6">
      <input type="hidden" name="intent" value="settings" />
      {form.errors?.length ? (
        <div role="alert" className="rounded-brand border border-danger bg-danger/10 p-4">
          <p className="font-semibold">Save Failed</p>
          <p className="text-sm">{form.errors[0]}</p>
        </div>
      ) : null}

      <section className={sectionClass} aria-labelledby="cis-hmrc-heading">
        <h3 id="cis-hmrc-heading" className="text-lg font-semibold">
          HMRC Details
        </h3>
        <p className="text-sm opacity-70">Your details as registered with the tax authority.</p>
        <div className="mt-4 grid gap-4 sm:grid-cols-2">
          <div className="sm:col-span-2 flex items-start gap-3">
            <input {...getInputProps(fields.active, { type: "checkbox" })} key={fields.active.key} className={`${checkboxClass} mt-1`} />
            <div>
              <label htmlFor={fields.active.id} className="text-sm font-medium">
                CIS module active
              </label>
              <p className="text-xs opacity-70">The CIS dashboard, deadline alerts and processing start once the settings are saved as active.</p>
            </div>
          </div>
          <Field id={fields.companyName.id} label="Company Name *" error={fields.companyName.errors}>
            <input {...getInputProps(fields.companyName, { type: "text" })} key={fields.companyName.key} className={inputClass} autoComplete="organization" />
          </Field>
          <HintedInput
            field={fields.utr}
            type="text"
            label="Contractor UTR"
            hint={settings.hasUtr ? `Stored: ${settings.utrMasked ?? "****"}. Leave blank to keep it.` : "10 digits. Required to activate the module."}
            inputMode="numeric"
            autoComplete="off"
            maxLength={13}
            placeholder={settings.hasUtr ? (settings.utrMasked ?? "****") : "2234567890"}
          />
          <HintedInput field={fields.employerRef} type="text" label="Employer Reference (PAYE) *" hint="e.g. 123/AB12345" autoComplete="off" />
          <HintedInput field={fields.accountsOfficeRef} type="text" label="Accounts Office Reference *" hint="e.g. 754PT00002240" autoComplete="off" />
          <Field id={fields.vatScheme.id} label="VAT Scheme" error={fields.vatScheme.errors}>
            <select {...getSelectProps(fields.vatScheme)} key={fields.vatScheme.key} className={inputClass}>
              {VAT_SCHEMES.map((s) => (
                <option key={s} value={s}>
                  {VAT_SCHEME_LABELS[s]}
                </option>
              ))}
            </select>
          </Field>
          <div className="sm:col-span-2 flex items-start gap-3">
            <input
              {...getInputProps(fields.endUser, { type: "checkbox" })}
              key={fields.endUser.key}
              aria-describedby={`${fields.endUser.id}-hint`}
              className={`${checkboxClass} mt-1`}
            />
            <div>
              <label htmlFor={fields.endUser.id} className="text-sm font-medium">
                We are an end user
              </label>
              <p id={`${fields.endUser.id}-hint`} className="text-xs opacity-70">
                Tick if you use the construction work yourselves rather than supply it on (for example, you develop your own property). The domestic reverse
                charge does not apply to end users, so new invoices from VAT-registered subcontractors then start without it.
              </p>
            </div>
          </div>
        </div>
      </section>

      <section className={sectionClass} aria-labelledby="cis-processing-heading">
        <h3 id="cis-processing-heading" className="text-lg font-semibold">
          Processing Settings
        </h3>
        <div className="mt-4 grid gap-4 sm:grid-cols-2">
          <div className="sm:col-span-2 flex items-start gap-3">
            <input {...getInputProps(fields.emailStatements, { type: "checkbox" })} key={fields.emailStatements.key} className={`${checkboxClass} mt-1`} />
            <label htmlFor={fields.emailStatements.id} className="text-sm font-medium">
              Email statements to subcontractors
            </label>
          </div>
          <HintedInput
            field={fields.warningDays}
            type="number"
            label="Deadline warning (days)"
            hint="Alerts appear this many days before a deadline (0 to 30)."
            min={0}
            max={30}
            step={1}
          />
          <HintedInput field={fields.statementDeadlineDays} type="number" label="Statement deadline (days)" hint="1 to 30 days." min={1} max={30} step={1} />
          <Field id={fields.emailFrom.id} label="Email From" error={fields.emailFrom.errors}>
            <input {...getInputProps(fields.emailFrom, { type: "email" })} key={fields.emailFrom.key} className={inputClass} autoComplete="off" />
          </Field>
          <Field id={fields.emailReplyTo.id} label="Email Reply-To" error={fields.emailReplyTo.errors}>
            <input {...getInputProps(fields.emailReplyTo, { type: "email" })} key={fields.emailReplyTo.key} className={inputClass} autoComplete="off" />
          </Field>
          <div className="sm:col-span-2">
            <Field id={fields.statementFooter.id} label="Statement Footer" error={fields.statementFooter.errors}>
              <textarea {...getTextareaProps(fields.statementFooter)} key={fields.statementFooter.key} className={inputClass} rows={3} />
            </Field>
          </div>
        </div>
      </section>

      <div className="flex justify-end">
        <SubmitButton pendingText="Saving..." match={{ intent: "settings" }}>
          Save Settings
        </SubmitButton>
      </div>
    </Form>
  );
}
