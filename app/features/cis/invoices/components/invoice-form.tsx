import { getFormProps, getSelectProps, useForm, type SubmissionResult } from "@conform-to/react";
import { useEffect, useRef } from "react";
import { Form, Link, useFetcher, useLocation } from "react-router";
import { buttonClass, SubmitButton } from "~/components/ui/button";
import { Field, inputClass } from "~/components/ui/field";
import { useHydrated } from "~/utils/use-hydrated";
import { MATERIALS_JUSTIFICATION_MIN_LENGTH, MATERIALS_JUSTIFICATION_PERCENT, materialsWarning } from "../../domain/materials";
import { CalculationPanel, figuresFor, type InvoiceFigures } from "./calculation-panel";
import { InvoiceAmountFields, InvoiceDetailsFields } from "./invoice-fields";
import { defaultReverseCharge, reverseChargeHint } from "../vat-default";
import { isContractPayment, PUBLIC_BODY_NOT_CIS_MESSAGE, PUBLIC_BODY_PAYMENT_DATE_HINT } from "../../domain/public-bodies";
import { FormErrors, FormSection as Section } from "~/components/ui/form-section";

/** The form's fields as text, the way a browser posts them (pounds, not pence). */
export type InvoiceFormDefaults = {
  subcontractorId: string;
  invoiceNumber: string;
  invoiceDate: string;
  receivedDate: string;
  description: string;
  gross: string;
  materials: string;
  vatRate: string;
  reverseCharge: boolean;
  materialsJustification: string;
};

export type InvoiceSubcontractorOption = { id: string; name: string; rate: number; active: boolean; vatRegistered: boolean; publicBody: boolean };

/** The subcontractor picker's choices: a page of them matching the search `q` (`more` when others match too). */
export type InvoicePickerOptions = { subcontractors: InvoiceSubcontractorOption[]; q: string; more: boolean };

/** How long typing pauses before the picker asks the server (with JavaScript). */
const SEARCH_DELAY_MS = 250;

/**
 * Create and edit share this form. Every figure it shows is worked out again on the server when
 * saving; the panel is a preview. With JavaScript the panel follows the typing; without it the
 * 'Calculate' button posts the form and the server answers with the same figures.
 */
// eslint-disable-next-line max-lines-per-function -- one form: every field reads the same form state, so a split would only pass it through props
export function InvoiceForm({
  mode,
  picker,
  contractorEndUser,
  defaultValue,
  lastResult,
  serverFigures,
  cancelTo,
}: {
  mode: "create" | "edit";
  /** The choices the server sent: the first page by name, or the answer to a search. */
  picker: InvoicePickerOptions;
  /** The contractor is the end user of the work (CIS settings): no reverse charge by default. */
  contractorEndUser: boolean;
  defaultValue: InvoiceFormDefaults;
  lastResult: SubmissionResult<string[]> | null | undefined;
  /** Figures from the server: the answer to 'Calculate', or the edited invoice's as it stands. */
  serverFigures: InvoiceFigures | null;
  cancelTo: string;
}) {
  const hydrated = useHydrated();
  const [form, fields] = useForm({
    id: `invoice-${mode}`,
    lastResult,
    defaultValue,
  });

  // With JavaScript the search asks the server as one types (the page's own loader); without it
  // the Find button posts the form, which comes back with the matches and everything typed.
  const search = useFetcher<{ picker: InvoicePickerOptions }>();
  const location = useLocation();
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(() => () => (timer.current ? clearTimeout(timer.current) : undefined), []);
  const shown = search.data?.picker ?? picker;
  const subcontractors = shown.subcontractors;
  const findNow = (input: HTMLInputElement | null | undefined) => {
    if (timer.current) clearTimeout(timer.current);
    if (!input) return;
    const select = input.form?.elements.namedItem(fields.subcontractorId.name);
    const params = new URLSearchParams({ subcontractorQ: input.value.trim() });
    // The chosen subcontractor stays among the choices whatever the search.
    if (select instanceof HTMLSelectElement && select.value) params.set("subcontractorId", select.value);
    void search.load(`${location.pathname}?${params}`);
  };
  const findSoon = (input: HTMLInputElement) => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = setTimeout(() => findNow(input), SEARCH_DELAY_MS);
  };

  const chosen = subcontractors.find((s) => s.id === fields.subcontractorId.value);
  // A public body paid from 6 April 2026 (the invoice date standing in for the payment date) is outside CIS: no deduction.
  const invoiceDate = typeof fields.invoiceDate.value === "string" ? fields.invoiceDate.value : "";
  const outsideCis = chosen ? chosen.publicBody && (invoiceDate === "" || !isContractPayment({ publicBody: true }, invoiceDate)) : false;
  // A new invoice's reverse charge follows the chosen subcontractor (with JavaScript); it stays editable.
  // Clicking the box (rather than setting it) fires the events the form and the live figures listen to.
  const followSubcontractor = (select: HTMLSelectElement) => {
    if (mode !== "create") return;
    const sub = subcontractors.find((s) => s.id === select.value);
    const on = sub ? defaultReverseCharge({ subcontractorVatRegistered: sub.vatRegistered, contractorEndUser }) : false;
    const box = select.form?.elements.namedItem(fields.reverseCharge.name);
    if (box instanceof HTMLInputElement && box.checked !== on) box.click();
  };
  const figures = hydrated
    ? figuresFor({
        gross: fields.gross.value,
        materials: fields.materials.value,
        vatRate: fields.vatRate.value,
        reverseCharge: fields.reverseCharge.value === "on",
        cisRate: chosen ? (outsideCis ? 0 : chosen.rate) : null,
      })
    : serverFigures;
  const warning = figures ? materialsWarning(figures.grossP, figures.materialsP) : null;

  return (
    <Form method="post" {...getFormProps(form)} className="grid gap-6 lg:grid-cols-3">
      <div className="space-y-6 lg:col-span-2">
        {/* The form's first submit button is what Enter presses in any field: saving, as before the
            picker's Find button came first on the page. Not shown, not reached by Tab. */}
        <button type="submit" name="intent" value="save" className="sr-only" tabIndex={-1} aria-hidden="true">
          {mode === "create" ? "Create Invoice" : "Save"}
        </button>
        <FormErrors id={form.errorId} errors={form.errors} />

        <Section id="invoice-details-heading" title="Invoice Details">
          <div className="md:col-span-2">
            <label htmlFor="invoice-subcontractor-q" className="mb-1 block text-sm font-medium">
              Find a subcontractor
            </label>
            <p id="invoice-subcontractor-q-hint" className="mb-1 text-sm opacity-70">
              Type part of a name, then choose from the list below.
            </p>
            <div className="mb-4 flex flex-wrap gap-2">
              <input
                id="invoice-subcontractor-q"
                name="subcontractorQ"
                type="search"
                defaultValue={picker.q}
                maxLength={100}
                autoComplete="off"
                aria-describedby="invoice-subcontractor-q-hint"
                aria-controls={fields.subcontractorId.id}
                className={`${inputClass} min-w-0 flex-1`}
                onChange={(e) => findSoon(e.currentTarget)}
                onKeyDown={(e) => {
                  // With JavaScript, Enter in the search field finds (without it, Find is pressed).
                  if (e.key !== "Enter") return;
                  e.preventDefault();
                  findNow(e.currentTarget);
                }}
              />
              <SubmitButton
                name="intent"
                value="find-subcontractor"
                variant="secondary"
                pendingText="Finding..."
                formNoValidate
                onClick={(e) => {
                  if (!hydrated) return;
                  e.preventDefault();
                  const input = e.currentTarget.form?.elements.namedItem("subcontractorQ");
                  findNow(input instanceof HTMLInputElement ? input : null);
                }}
              >
                Find
              </SubmitButton>
            </div>
            <Field
              id={fields.subcontractorId.id}
              label="Subcontractor *"
              error={fields.subcontractorId.errors}
              hint={
                subcontractors.some((s) => s.active) ? (
                  shown.more ? (
                    `Active subcontractors${shown.q ? ` whose name contains "${shown.q}"` : ""}, with their CIS rate: the first ${subcontractors.length} by name. Find narrows the list.`
                  ) : (
                    `Active subcontractors${shown.q ? ` whose name contains "${shown.q}"` : ""}, with their CIS rate.`
                  )
                ) : shown.q ? (
                  `No active subcontractor's name contains "${shown.q}". Try another part of the name.`
                ) : (
                  <>
                    No active subcontractors yet. <Link to="/cis/subcontractors/new">Add a subcontractor</Link> first.
                  </>
                )
              }
            >
              <select
                {...getSelectProps(fields.subcontractorId, { ariaDescribedBy: fields.subcontractorId.descriptionId })}
                key={fields.subcontractorId.key}
                className={inputClass}
                onChange={(e) => followSubcontractor(e.currentTarget)}
              >
                <option value="">Select a subcontractor</option>
                {subcontractors.map((s) => (
                  <option key={s.id} value={s.id}>
                    {`${s.name} (${s.publicBody ? "public body" : `CIS ${s.rate}%`})${s.active ? "" : " - archived"}`}
                  </option>
                ))}
              </select>
            </Field>
            {outsideCis ? (
              <p className="mt-2 rounded-brand border border-line bg-elevated p-2 text-sm font-medium" data-outside-cis>
                {PUBLIC_BODY_NOT_CIS_MESSAGE}
              </p>
            ) : null}
            {chosen?.publicBody ? (
              <p className="mt-2 text-xs opacity-80" data-public-body-hint>
                {PUBLIC_BODY_PAYMENT_DATE_HINT}
              </p>
            ) : null}
          </div>
          <InvoiceDetailsFields fields={fields} />
        </Section>

        <Section id="invoice-amounts-heading" title="Amounts">
          <InvoiceAmountFields
            fields={fields}
            grossHint="Pounds and pence, e.g. 1,250.00"
            justificationHint={`Required when materials are ${MATERIALS_JUSTIFICATION_PERCENT}% or more of gross (at least ${MATERIALS_JUSTIFICATION_MIN_LENGTH} characters).`}
            materialsWarning={warning}
            reverseChargeHint={reverseChargeHint({ subcontractorVatRegistered: chosen ? chosen.vatRegistered : null, contractorEndUser })}
          />
        </Section>

        <div className="flex flex-wrap justify-end gap-3">
          <Link to={cancelTo} className={buttonClass("secondary")}>
            Cancel
          </Link>
          {mode === "create" ? (
            <>
              <SubmitButton name="intent" value="save" pendingText="Saving...">
                Create Invoice
              </SubmitButton>
              <SubmitButton name="intent" value="save-new" variant="secondary" pendingText="Saving...">
                Save &amp; New
              </SubmitButton>
            </>
          ) : (
            <SubmitButton name="intent" value="save" pendingText="Saving...">
              Save
            </SubmitButton>
          )}
        </div>
      </div>

      <div className="lg:col-span-1">
        <CalculationPanel
          figures={figures}
          live={hydrated}
          emptyMessage={
            hydrated
              ? "Choose a subcontractor and enter the gross amount to see the figures."
              : "Choose a subcontractor, enter the amounts and press Calculate to see the figures."
          }
        >
          {hydrated ? null : (
            // Without JavaScript the server works the figures out; nothing is saved.
            <SubmitButton name="intent" value="calculate" variant="secondary" pendingText="Calculating..." formNoValidate>
              Calculate
            </SubmitButton>
          )}
        </CalculationPanel>
      </div>
    </Form>
  );
}
