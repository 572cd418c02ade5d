import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, Form, Link } from "react-router";
import { buttonClass, SubmitButton } from "~/components/ui/button";
import { Field } from "~/components/ui/field";
import { invoiceFormSchema, MATERIALS_JUSTIFICATION_MIN_LENGTH, MATERIALS_JUSTIFICATION_PERCENT } from "~/features/cis";
import { INVOICE_ERROR_MESSAGES } from "~/features/cis";
import { londonToday } from "~/features/cis/index.server";
import { submitPortalInvoice } from "~/features/cis/index.server";
import { contractorDetails } from "~/features/cis/index.server";
import { boundaryOf, MultipartError, readMultipart, type FilePart } from "~/features/files";
import { reportInternalError } from "~/features/platform";
import { redirectWithToast } from "~/features/platform/index.server";
import { InvoiceAmountFields, InvoiceDetailsFields } from "~/features/cis";
import { formErrorReply } from "~/utils/forms";
import type { Result } from "~/utils/result";
import { PortalErrorBoundary, PortalShell } from "../components/portal-shell";
import { ATTACH_AGAIN, PORTAL_ATTACHMENT_MESSAGES, PORTAL_PDF_MAX_BYTES } from "~/features/cis";
import { requirePortalModule } from "../portal-auth.server";
import { requirePortalSession } from "../portal-session.server";
import type { Route } from "./+types/invoice-new";

/** The multipart framing and text fields around a PDF at the limit. */
const BODY_ALLOWANCE = 256 * 1024;

async function portal(request: Request, context: Route.LoaderArgs["context"]) {
  const { env, ctx, tenant } = requirePortalModule(context);
  const { subcontractor, linkRevealedBy } = await requirePortalSession(env, ctx, request, tenant.id);
  return { env, tenant, subcontractor, linkRevealedBy };
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const { env, tenant, subcontractor } = await portal(request, context);
  const { contractorName } = await contractorDetails(env, tenant);
  return { contractorName, cisRate: subcontractor.verificationRate, today: londonToday() };
}

/**
 * The posted text fields and, when one was chosen, the file part, read as a stream: the file is
 * the form's last field, so the fields are known before any of its bytes are read.
 */
async function readPost(request: Request): Promise<Result<{ form: FormData; file: FilePart | null }, "too_large" | "unreadable">> {
  const boundary = boundaryOf(request.headers.get("Content-Type"));
  if (!boundary) return { ok: true, form: await request.formData(), file: null };
  const length = Number(request.headers.get("Content-Length") ?? "0");
  if (length > PORTAL_PDF_MAX_BYTES + BODY_ALLOWANCE) return { ok: false, code: "too_large" };
  if (!request.body) return { ok: false, code: "unreadable" };
  try {
    const { fields, file } = await readMultipart(request.body, boundary);
    const form = new FormData();
    for (const [k, v] of fields) form.append(k, v);
    // An empty file input still sends a part, without a file name.
    return { ok: true, form, file: file && file.filename ? file : null };
  } catch (e) {
    if (e instanceof MultipartError) return { ok: false, code: "unreadable" };
    throw e;
  }
}

export async function action({ request, context }: Route.ActionArgs) {
  const { env, tenant, subcontractor, linkRevealedBy } = await portal(request, context);
  const post = await readPost(request);
  if (!post.ok) {
    const tooLarge = post.code === "too_large";
    const reply = tooLarge
      ? { status: "error" as const, error: { attachment: [PORTAL_ATTACHMENT_MESSAGES.too_large] } }
      : formErrorReply(PORTAL_ATTACHMENT_MESSAGES.unreadable);
    return data({ result: reply }, { status: tooLarge ? 413 : 400 });
  }
  // Whose invoice it is comes from the session only; a posted subcontractorId is overwritten.
  post.form.set("subcontractorId", subcontractor.id);
  const submission = parseWithZod(post.form, { schema: invoiceFormSchema });
  if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });

  const { subcontractorId: _ignored, ...input } = submission.value;
  let saved: Awaited<ReturnType<typeof submitPortalInvoice>>;
  try {
    saved = await submitPortalInvoice(env, tenant.id, subcontractor, input, post.file, { linkRevealedBy });
  } catch (err) {
    const message = reportInternalError(context, err, "portal invoice submit", "Failed to submit the invoice. Nothing was saved; please try again.");
    return data({ result: submission.reply({ formErrors: [message] }) }, { status: 500 });
  }
  if (saved.ok) {
    return redirectWithToast(env, "/portal/invoices", {
      type: "success",
      title: "Invoice submitted",
      message: `Invoice ${input.invoiceNumber} has been sent for approval.`,
    });
  }
  switch (saved.code) {
    case "duplicate_number":
      return data({ result: submission.reply({ fieldErrors: { invoiceNumber: ["You already have an invoice with this number"] } }) }, { status: 409 });
    case "not_pdf":
    case "too_large":
    case "unreadable":
      return data({ result: submission.reply({ fieldErrors: { attachment: [PORTAL_ATTACHMENT_MESSAGES[saved.code]] } }) }, { status: 400 });
    default:
      // The session's subcontractor was archived or removed between the guard and the save.
      return data({ result: submission.reply({ formErrors: [INVOICE_ERROR_MESSAGES[saved.code]] }) }, { status: 409 });
  }
}

// eslint-disable-next-line max-lines-per-function -- one form: every field reads the same form state, so a split would only pass it through props
export default function PortalInvoiceNew({ loaderData, actionData }: Route.ComponentProps) {
  const { contractorName, cisRate, today } = loaderData;
  const [form, fields] = useForm({
    id: "portal-invoice",
    lastResult: actionData?.result,
    defaultValue: {
      invoiceNumber: "",
      invoiceDate: today,
      description: "",
      gross: "",
      materials: "",
      vatRate: "20",
      reverseCharge: false,
      materialsJustification: "",
      attachment: "",
    },
    // Checked when sent, on the server: validating on blur without a client schema would post
    // the half-filled form to the action.
    shouldValidate: "onSubmit",
  });
  const refused = Boolean(actionData?.result && actionData.result.status === "error");
  const attachmentHint = `Optional: your own invoice as a PDF, up to ${PORTAL_PDF_MAX_BYTES / 1024 / 1024} MB.${refused ? ` ${ATTACH_AGAIN}` : ""}`;
  return (
    <PortalShell contractorName={contractorName} signedIn>
      <p>
        <Link to="/portal/invoices" className="text-sm underline">
          Back to your invoices
        </Link>
      </p>
      <h1 className="mt-2 text-2xl font-bold">Submit an invoice</h1>
      <p className="mt-1 text-sm opacity-80">
        {`${contractorName} reviews it before approving. CIS is deducted from the labour part at your current rate of ${cisRate}%.`}
      </p>
      <Form method="post" encType="multipart/form-data" {...getFormProps(form)} className="mt-6 space-y-6">
        {form.errors?.length ? (
          <div id={form.errorId} role="alert" className="rounded-brand border border-danger bg-danger/10 p-4 text-danger" data-form-error>
            {form.errors.map((e) => (
              <p key={e}>{e}</p>
            ))}
          </div>
        ) : null}
        <section aria-labelledby="portal-invoice-details" className="grid gap-4 rounded-brand border border-line bg-elevated p-4 md:grid-cols-2">
          <h2 id="portal-invoice-details" className="font-semibold md:col-span-2">
            Invoice details
          </h2>
          <InvoiceDetailsFields fields={fields} />
        </section>
        <section aria-labelledby="portal-invoice-amounts" className="grid gap-4 rounded-brand border border-line bg-elevated p-4 md:grid-cols-2">
          <h2 id="portal-invoice-amounts" className="font-semibold md:col-span-2">
            Amounts
          </h2>
          <InvoiceAmountFields
            fields={fields}
            grossHint="Pounds and pence, e.g. 1,250.00, before VAT"
            justificationHint={`Needed when materials are ${MATERIALS_JUSTIFICATION_PERCENT}% or more of the gross: at least ${MATERIALS_JUSTIFICATION_MIN_LENGTH} characters.`}
          />
        </section>
        <section aria-labelledby="portal-invoice-attachment" className="rounded-brand border border-line bg-elevated p-4">
          <h2 id="portal-invoice-attachment" className="mb-4 font-semibold">
            Your invoice PDF
          </h2>
          <Field id={fields.attachment.id} label="PDF file" error={fields.attachment.errors} hint={attachmentHint}>
            {/* Last in the form: the server reads every other field before the file's bytes. */}
            <input
              id={fields.attachment.id}
              name={fields.attachment.name}
              type="file"
              accept="application/pdf,.pdf"
              aria-invalid={fields.attachment.errors ? true : undefined}
              aria-describedby={[fields.attachment.errors ? fields.attachment.errorId : null, fields.attachment.descriptionId].filter(Boolean).join(" ")}
              className="block text-sm"
            />
          </Field>
        </section>
        <div className="flex gap-3">
          <SubmitButton pendingText="Submitting...">Submit invoice</SubmitButton>
          <Link to="/portal/invoices" className={buttonClass("ghost")}>
            Cancel
          </Link>
        </div>
      </Form>
    </PortalShell>
  );
}

export function meta() {
  return [{ title: "Submit an invoice · Subcontractor portal" }];
}

export function ErrorBoundary() {
  return <PortalErrorBoundary />;
}
