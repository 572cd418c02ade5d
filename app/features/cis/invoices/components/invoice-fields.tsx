import { getInputProps, getSelectProps, getTextareaProps, type FieldMetadata } from "@conform-to/react";
import { Field, inputClass } from "~/components/ui/field";
import { VAT_RATES } from "../../domain/calculation";

/**
 * The invoice fields the staff form and the subcontractor portal's form share. Each form keeps its
 * own useForm, sections and buttons; these render the same label, control, hint and error for a
 * field in both, so names and ids (what the server reads) stay the same in both places.
 */

/** Invoice number, invoice date, the received date where the form has one, and the description. */
export function InvoiceDetailsFields({
  fields,
}: {
  fields: {
    invoiceNumber: FieldMetadata<string>;
    invoiceDate: FieldMetadata<string>;
    receivedDate?: FieldMetadata<string>;
    description: FieldMetadata<string>;
  };
}) {
  const { receivedDate } = fields;
  return (
    <>
      <Field id={fields.invoiceNumber.id} label="Invoice Number *" error={fields.invoiceNumber.errors}>
        <input
          {...getInputProps(fields.invoiceNumber, { type: "text" })}
          key={fields.invoiceNumber.key}
          className={inputClass}
          maxLength={50}
          autoComplete="off"
        />
      </Field>
      <Field id={fields.invoiceDate.id} label="Invoice Date *" error={fields.invoiceDate.errors}>
        <input {...getInputProps(fields.invoiceDate, { type: "date" })} key={fields.invoiceDate.key} className={inputClass} />
      </Field>
      {receivedDate ? (
        <Field id={receivedDate.id} label="Received Date" error={receivedDate.errors}>
          <input {...getInputProps(receivedDate, { type: "date" })} key={receivedDate.key} className={inputClass} />
        </Field>
      ) : null}
      <div className="md:col-span-2">
        <Field id={fields.description.id} label="Description" error={fields.description.errors}>
          <textarea {...getTextareaProps(fields.description)} key={fields.description.key} className={inputClass} rows={2} maxLength={1000} />
        </Field>
      </div>
    </>
  );
}

/**
 * Gross, materials, VAT rate, reverse charge and the materials justification. A materials warning,
 * when given, is shown under the materials field and read with it by screen readers.
 */
// eslint-disable-next-line max-lines-per-function -- one form: every field reads the same form state, so a split would only pass it through props
export function InvoiceAmountFields({
  fields,
  grossHint,
  justificationHint,
  materialsWarning = null,
  reverseChargeHint = "The contractor accounts for the VAT.",
}: {
  fields: {
    gross: FieldMetadata<string>;
    materials: FieldMetadata<string>;
    vatRate: FieldMetadata<string>;
    reverseCharge: FieldMetadata<boolean>;
    materialsJustification: FieldMetadata<string>;
  };
  grossHint: string;
  justificationHint: string;
  materialsWarning?: string | null;
  /** Under Reverse charge: why it starts on or off. */
  reverseChargeHint?: string;
}) {
  const warningId = `${fields.materials.id}-warning`;
  const materialsDescribedBy = [fields.materials.errors ? fields.materials.errorId : null, materialsWarning ? warningId : null, fields.materials.descriptionId]
    .filter(Boolean)
    .join(" ");
  return (
    <>
      <Field id={fields.gross.id} label="Gross Amount (£) *" error={fields.gross.errors} hint={grossHint}>
        <input
          {...getInputProps(fields.gross, { type: "text", ariaDescribedBy: fields.gross.descriptionId })}
          key={fields.gross.key}
          className={`${inputClass} font-mono`}
          inputMode="decimal"
          autoComplete="off"
        />
      </Field>
      <Field
        id={fields.materials.id}
        label="Materials (£)"
        error={fields.materials.errors}
        hint="Not subject to the CIS deduction. Leave blank for none."
        after={
          materialsWarning ? (
            <p id={warningId} role="status" className="rounded-brand border border-danger/40 bg-danger/5 px-3 py-2 text-sm" data-materials-warning>
              {materialsWarning}
            </p>
          ) : null
        }
      >
        <input
          {...getInputProps(fields.materials, { type: "text" })}
          key={fields.materials.key}
          aria-describedby={materialsDescribedBy || undefined}
          className={`${inputClass} font-mono`}
          inputMode="decimal"
          autoComplete="off"
        />
      </Field>
      <Field id={fields.vatRate.id} label="VAT Rate" error={fields.vatRate.errors}>
        <select {...getSelectProps(fields.vatRate)} key={fields.vatRate.key} className={inputClass}>
          {VAT_RATES.map((r) => (
            <option key={r} value={String(r)}>{`${r}%`}</option>
          ))}
        </select>
      </Field>
      <div className="flex items-start gap-3 self-end pb-2">
        <input
          {...getInputProps(fields.reverseCharge, { type: "checkbox" })}
          key={fields.reverseCharge.key}
          aria-describedby={`${fields.reverseCharge.id}-hint`}
          className="mt-0.5 h-4 w-4 shrink-0 accent-[var(--color-accent)]"
        />
        <div>
          <label htmlFor={fields.reverseCharge.id} className="text-sm font-medium">
            Reverse charge
          </label>
          <p id={`${fields.reverseCharge.id}-hint`} className="text-xs opacity-70" data-reverse-charge-hint>
            {reverseChargeHint}
          </p>
        </div>
      </div>
      <div className="md:col-span-2">
        <Field id={fields.materialsJustification.id} label="Materials Justification" error={fields.materialsJustification.errors} hint={justificationHint}>
          <textarea
            {...getTextareaProps(fields.materialsJustification, { ariaDescribedBy: fields.materialsJustification.descriptionId })}
            key={fields.materialsJustification.key}
            className={inputClass}
            rows={2}
            maxLength={1000}
          />
        </Field>
      </div>
    </>
  );
}
