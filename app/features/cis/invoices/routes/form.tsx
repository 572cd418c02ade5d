import { parseWithZod } from "@conform-to/zod/v4";
import { data, Link, useSearchParams } from "react-router";
import { buttonClass } from "~/components/ui/button";
import { requireScope } from "~/features/auth/index.server";
import { reportInternalError } from "~/features/platform";
import { redirectWithToast } from "~/features/platform/index.server";
import { formErrorReply } from "~/utils/forms";
import { invoiceAmounts, isCisRate, isVatRate } from "../../domain/calculation";
import { invoiceFormAmountsSchema, invoiceFormSchema } from "../../domain/schemas";
import { penceToPoundsString } from "../../domain/money";
import { requireModule } from "~/features/auth/index.server";
import type { InvoiceFigures } from "../components/calculation-panel";
import { InvoiceForm, type InvoiceFormDefaults } from "../components/invoice-form";
import { londonToday } from "../transitions.server";
import { getInvoice, type InvoiceRow } from "../queries.server";
import {
  createInvoice,
  invoiceFormData,
  invoiceTreatment,
  invoicePicker,
  previewInvoiceAmounts,
  updateInvoice,
  type InvoiceFormSubcontractor,
  type InvoicePicker,
  type SaveInvoiceResult,
} from "../form.server";
import { INVOICE_ERROR_MESSAGES } from "../invoice-codes";
import { defaultReverseCharge } from "../vat-default";
import { invoiceFormIntentSchema, invoiceFormParamsSchema, invoiceFormQuerySchema, subcontractorSearchSchema } from "../schemas";
import type { Route } from "./+types/form";

const detailUrl = (id: string) => `/cis/invoices/${id}`;

/** Editing needs the invoice to be readable as well as writable; creating needs write only. */
async function guard(request: Request, context: Route.LoaderArgs["context"], params: Route.LoaderArgs["params"]) {
  const cis = await requireModule(request, context, { module: "cis", scope: "cis.inv.write" });
  const { id } = invoiceFormParamsSchema.parse(params);
  if (id) await requireScope(request, context, cis.user, "cis.inv.read");
  return { ...cis, id };
}

/** An invoice that is no longer a draft is shown, not edited. */
function notEditable(env: Env, id: string) {
  return redirectWithToast(env, detailUrl(id), { type: "error", title: "Cannot edit invoice", message: INVOICE_ERROR_MESSAGES.not_editable });
}

function figuresOf(amounts: ReturnType<typeof invoiceAmounts>, cisRate: number, vatRate: number, reverseCharge: boolean): InvoiceFigures {
  return { ...amounts, cisRate, vatRate, reverseCharge };
}

/** The edited invoice's figures at its subcontractor's rate now: what saving it unchanged would store. */
function currentFigures(row: InvoiceRow, subs: InvoiceFormSubcontractor[]): InvoiceFigures | null {
  const sub = subs.find((s) => s.id === row.subcontractorId && s.active);
  if (!sub || !isCisRate(sub.rate) || !isVatRate(row.vatRate)) return null;
  const { cisRate } = invoiceTreatment({ verificationRate: sub.rate, publicBody: sub.publicBody }, row.invoiceDate);
  const amounts = invoiceAmounts({ grossP: row.grossP, materialsP: row.materialsP, cisRate, vatRate: row.vatRate, reverseCharge: row.reverseCharge });
  return figuresOf(amounts, cisRate, row.vatRate, row.reverseCharge);
}

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const { env, tenant, id } = await guard(request, context, params);
  const { subcontractorId, subcontractorQ } = invoiceFormQuerySchema.parse(Object.fromEntries(new URL(request.url).searchParams));
  const { picker, invoice, contractorEndUser } = await invoiceFormData(env, tenant.id, id, { q: subcontractorQ, chosenId: subcontractorId });
  const subcontractors = picker.subcontractors;
  if (!id) {
    const preselect = subcontractors.find((s) => s.id === subcontractorId);
    const defaults: InvoiceFormDefaults = {
      subcontractorId: preselect?.id ?? "",
      invoiceNumber: "",
      invoiceDate: londonToday(),
      receivedDate: "",
      description: "",
      gross: "",
      materials: "",
      vatRate: "20",
      // A subcontractor chosen in the address (Save & New, a subcontractor's New Invoice link) sets the VAT default now, without JavaScript.
      reverseCharge: preselect ? defaultReverseCharge({ subcontractorVatRegistered: preselect.vatRegistered, contractorEndUser }) : false,
      materialsJustification: "",
    };
    return { mode: "create" as const, id: null, invoiceNumber: null, picker, contractorEndUser, defaults, figures: null };
  }
  if (!invoice) throw data("Not found", { status: 404 });
  if (invoice.status !== "draft") throw await notEditable(env, invoice.id);
  const defaults: InvoiceFormDefaults = {
    subcontractorId: invoice.subcontractorId,
    invoiceNumber: invoice.invoiceNumber,
    invoiceDate: invoice.invoiceDate,
    receivedDate: invoice.receivedDate ?? "",
    description: invoice.description ?? "",
    gross: penceToPoundsString(invoice.grossP),
    materials: invoice.materialsP > 0 ? penceToPoundsString(invoice.materialsP) : "",
    vatRate: String(invoice.vatRate),
    reverseCharge: invoice.reverseCharge,
    materialsJustification: invoice.materialsJustification ?? "",
  };
  return {
    mode: "edit" as const,
    id: invoice.id,
    invoiceNumber: invoice.invoiceNumber,
    picker,
    contractorEndUser,
    defaults,
    figures: currentFigures(invoice, subcontractors),
  };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const { env, tenant, actor, id } = await guard(request, context, params);
  if (id) {
    const existing = await getInvoice(env, tenant.id, id);
    if (!existing) throw data("Not found", { status: 404 });
    if (existing.status !== "draft") throw await notEditable(env, existing.id);
  }
  const formData = await request.formData();
  const intent = invoiceFormIntentSchema(id !== undefined).safeParse(formData.get("intent") ?? "save");
  if (!intent.success) return data({ result: formErrorReply("Unknown action"), calculation: null, picker: null }, { status: 400 });

  const submission = parseWithZod(formData, { schema: invoiceFormSchema });
  /** The picker as the posted form had it: its search, and the subcontractor chosen kept among the choices. */
  const postedPicker = (): Promise<InvoicePicker> => {
    const chosen = formData.get("subcontractorId");
    return invoicePicker(env, tenant.id, {
      q: subcontractorSearchSchema.parse(formData.get("subcontractorQ") ?? ""),
      chosenId: typeof chosen === "string" && chosen ? chosen.slice(0, 64) : undefined,
      invoiceId: id,
    });
  };
  if (intent.data === "find-subcontractor") {
    // The picker's search step: the form again with what was typed, no errors yet, and the matches.
    return data({ result: { initialValue: submission.reply().initialValue }, calculation: null, picker: await postedPicker() });
  }
  /**
   * The figures for the typed amounts, worked out on the server at the subcontractor's rate now,
   * whenever the amounts read: a re-rendered form (Calculate, or a refused save) shows them
   * without JavaScript. A subcontractor that cannot be used comes back as its field's error.
   */
  const calculate = async (): Promise<{ figures: InvoiceFigures | null; fieldErrors: Record<string, string[]> }> => {
    const amounts = parseWithZod(formData, { schema: invoiceFormAmountsSchema });
    if (amounts.status !== "success") return { figures: null, fieldErrors: {} };
    const v = amounts.value;
    const preview = await previewInvoiceAmounts(env, tenant.id, { ...v, invoiceDate: String(formData.get("invoiceDate") ?? "").trim() || null });
    if (!preview.ok) return { figures: null, fieldErrors: { [preview.field]: [INVOICE_ERROR_MESSAGES[preview.code]] } };
    return { figures: figuresOf(preview.amounts, preview.cisRate, v.vatRate, v.reverseCharge), fieldErrors: {} };
  };
  /** The form again, with what was typed, its errors (plus `fieldErrors`) and the figures. */
  const answer = async (status: number, fieldErrors: Record<string, string[]> = {}) => {
    // The choices come back as the form had them: one found by a search stays chosen.
    const [calc, picker] = await Promise.all([calculate(), postedPicker()]);
    const errors = { ...calc.fieldErrors, ...fieldErrors };
    const failed = status >= 400 || Object.keys(errors).length > 0;
    return data(
      { result: Object.keys(errors).length ? submission.reply({ fieldErrors: errors }) : submission.reply(), calculation: calc.figures, picker },
      { status: failed && status < 400 ? 400 : status },
    );
  };

  if (submission.status !== "success") return answer(400);
  if (intent.data === "calculate") return answer(200);

  const value = submission.value;
  let saved: SaveInvoiceResult;
  try {
    saved = id ? await updateInvoice(env, tenant.id, id, value, actor) : await createInvoice(env, tenant.id, value, actor);
  } catch (err) {
    const message = reportInternalError(context, err, "cis invoice save", "Failed to save invoice. Nothing was changed; please try again.");
    return data({ result: submission.reply({ formErrors: [message] }), calculation: null, picker: null }, { status: 500 });
  }
  if (saved.ok) {
    const toast = {
      type: "success" as const,
      title: id ? "Invoice updated" : "Invoice created",
      message: `Invoice ${value.invoiceNumber} has been ${id ? "updated" : "created"}.`,
    };
    if (intent.data === "save-new") {
      // A fresh form for the same subcontractor; `created` also tells the page to start the form anew.
      const next = new URLSearchParams({ subcontractorId: value.subcontractorId, created: saved.id });
      return redirectWithToast(env, `/cis/invoices/new?${next}`, toast);
    }
    return redirectWithToast(env, detailUrl(saved.id), toast);
  }
  switch (saved.code) {
    case "not_found":
      throw data("Not found", { status: 404 });
    case "not_editable":
      throw await notEditable(env, id ?? "");
    case "subcontractor_not_found":
    case "subcontractor_archived":
      return answer(400, { [saved.field]: [INVOICE_ERROR_MESSAGES[saved.code]] });
    case "duplicate_number":
      return answer(409, { [saved.field]: [INVOICE_ERROR_MESSAGES[saved.code]] });
  }
}

export default function InvoiceFormPage({ loaderData, actionData }: Route.ComponentProps) {
  const { mode, id, invoiceNumber, picker, contractorEndUser, defaults, figures } = loaderData;
  const [searchParams] = useSearchParams();
  const back = id ? detailUrl(id) : "/cis/invoices";
  return (
    <div className="space-y-6">
      <div className="flex items-center gap-3">
        <Link to={back} className={buttonClass("ghost")}>
          Back
        </Link>
        <h2 className="text-xl font-semibold">{mode === "create" ? "New Invoice" : `Edit Invoice ${invoiceNumber || "Untitled"}`}</h2>
      </div>
      <InvoiceForm
        // After 'Save & New' the same route loads again: a new key gives an empty form.
        key={id ?? `new-${searchParams.get("created") ?? ""}`}
        mode={mode}
        picker={actionData?.picker ?? picker}
        contractorEndUser={contractorEndUser}
        defaultValue={defaults}
        lastResult={actionData?.result}
        serverFigures={actionData ? actionData.calculation : figures}
        cancelTo={back}
      />
    </div>
  );
}

export function meta({ loaderData }: Route.MetaArgs) {
  return [{ title: loaderData?.mode === "edit" ? `Edit Invoice ${loaderData.invoiceNumber} · CIS` : "New Invoice · CIS" }];
}
