import { data, Form, Link, type RouterContextProvider } from "react-router";
import { z } from "zod";
import { buttonClass, SubmitButton } from "~/components/ui/button";
import { inputClass } from "~/components/ui/field";
import { TBody, TD, TH, THead, TR, Table } from "~/components/ui/table";
import { requireScope } from "~/features/auth/middleware.server";
import { clientIp } from "~/features/platform/audit.server";
import { redirectWithToast } from "~/features/platform/flash.server";
import { CSV_CONTENT_TYPE } from "~/utils/csv";
import { formatPence } from "../../domain";
import { actorOf, requireCis } from "../../module.server";
import { INVOICE_IMPORT_TEMPLATE_FILE } from "../import-columns";
import {
  analyseInvoiceImport,
  decodeCsvBytes,
  deleteUpload,
  importInvoices,
  invoiceImportTemplateCsv,
  INVOICE_IMPORT_COLUMNS,
  INVOICE_IMPORT_MAX_BYTES,
  INVOICE_IMPORT_MAX_ROWS,
  loadUpload,
  storeUpload,
  type InvoiceImportProblem,
  type InvoiceImportRowResult,
} from "../import.server";
import type { Route } from "./+types/import";

const TEMPLATE_QUERY = "template";
const MAX_ROWS_TEXT = INVOICE_IMPORT_MAX_ROWS.toLocaleString("en-GB");
const SIZE_MESSAGE = `The file is larger than 1 MB. Split it into files of at most 1 MB and ${MAX_ROWS_TEXT} rows.`;
const EXPIRED_MESSAGE = "This upload has expired or was not found. Please upload the file again.";
const CHANGED_MESSAGE = "The data changed since your preview: some rows are no longer valid. Nothing was imported; correct the file and upload it again.";
const NOT_ALL_VALID = "Nothing can be imported until every row is valid: an invoice import is all or nothing. Correct the file and upload it again.";

function problemMessage(problem: InvoiceImportProblem): string {
  switch (problem.code) {
    case "not_csv":
      return `The file is not valid CSV: ${problem.detail}.`;
    case "empty":
      return "The file is empty. The first line must be the header row.";
    case "duplicate_column":
      return `The column '${problem.column}' appears more than once in the header.`;
    case "missing_columns":
      return `Missing required column${problem.columns.length > 1 ? "s" : ""}: ${problem.columns.join(", ")}. The header row must name the columns (see the expected header below).`;
    case "no_rows":
      return "The file has a header but no data rows.";
    case "too_many_rows":
      return `The file has ${problem.rows.toLocaleString("en-GB")} data rows; the limit is ${MAX_ROWS_TEXT} rows per import. Split it into smaller files.`;
  }
}

/** An import creates invoices: it needs cis.io.import and cis.inv.write, on every request. */
async function requireInvoiceImport(request: Request, context: Readonly<RouterContextProvider>) {
  const cis = await requireCis(request, context, "cis.io.import");
  await requireScope(request, context, cis.user, "cis.inv.write");
  return cis;
}

/** The preview's file upload, and the two buttons under a preview. */
const importForm = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("preview"), file: z.instanceof(File).optional().catch(undefined) }),
  z.object({ intent: z.literal("cancel"), importId: z.string().max(100).catch("") }),
  z.object({ intent: z.literal("commit"), importId: z.string().max(100).catch(""), expected: z.coerce.number().int().nonnegative().catch(-1) }),
]);

/**
 * GET ?template=csv downloads the header-only template. It is answered here, before the page
 * renders, because a page loader cannot answer with a file; it reads and writes nothing.
 */
const templateDownload: Route.MiddlewareFunction = async ({ request, context }) => {
  const url = new URL(request.url);
  if (request.method !== "GET" || url.searchParams.get(TEMPLATE_QUERY) !== "csv") return undefined;
  await requireInvoiceImport(request, context);
  return new Response(invoiceImportTemplateCsv(), {
    headers: { "Content-Type": CSV_CONTENT_TYPE, "Content-Disposition": `attachment; filename="${INVOICE_IMPORT_TEMPLATE_FILE}"`, "Cache-Control": "no-store" },
  });
};
export const middleware: Route.MiddlewareFunction[] = [templateDownload];

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireInvoiceImport(request, context);
  return {
    columns: INVOICE_IMPORT_COLUMNS.map(({ header, key, required, format, aliases }) => ({ header, key, required, format, aliases: aliases ?? [] })),
    maxRows: INVOICE_IMPORT_MAX_ROWS,
    templateHref: `?${TEMPLATE_QUERY}=csv`,
  };
}

type Preview = {
  kind: "preview";
  importId: string | null;
  fileName: string;
  rows: InvoiceImportRowResult[];
  counts: { valid: number; invalid: number; duplicate: number };
  ignoredColumns: string[];
  notice: string | null;
};
type ActionResult = { kind: "error"; error: string } | Preview;

function fail(error: string, status = 400) {
  return data<ActionResult>({ kind: "error", error }, { status });
}

export async function action({ request, context }: Route.ActionArgs) {
  const { env, tenant, user } = await requireInvoiceImport(request, context);
  // Refuse an oversized upload before reading its body (multipart overhead allowed for).
  const declared = Number(request.headers.get("Content-Length") ?? "0");
  if (declared > INVOICE_IMPORT_MAX_BYTES + 64 * 1024) return fail(SIZE_MESSAGE, 413);

  const form = await request.formData();
  const parsed = importForm.safeParse({
    intent: form.get("intent"),
    file: form.get("file") ?? undefined,
    importId: form.get("importId") ?? "",
    expected: form.get("expected") ?? "",
  });
  if (!parsed.success) return fail("Unknown action.");
  const posted = parsed.data;

  if (posted.intent === "preview") {
    const { file } = posted;
    if (!file || file.size === 0) return fail("Choose a CSV file to upload.");
    if (file.size > INVOICE_IMPORT_MAX_BYTES) return fail(SIZE_MESSAGE, 413);
    if (!/\.(csv|txt)$/i.test(file.name) && !/csv|text\/plain/i.test(file.type)) return fail("The file must be a CSV file (.csv).");
    const text = decodeCsvBytes(await file.arrayBuffer());
    const analysis = await analyseInvoiceImport(env, tenant.id, text);
    if (!analysis.ok) return fail(problemMessage(analysis));
    // Only a file whose every row is valid is kept for the Import click.
    const importId = analysis.items.length > 0 ? await storeUpload(env, tenant.id, user.id, text, file.name) : null;
    return data<ActionResult>({
      kind: "preview",
      importId,
      fileName: file.name,
      rows: analysis.rows,
      counts: analysis.counts,
      ignoredColumns: analysis.ignoredColumns,
      notice: importId ? null : NOT_ALL_VALID,
    });
  }

  if (posted.intent === "cancel") {
    await deleteUpload(env, tenant.id, posted.importId);
    return redirectWithToast(env, "/cis/invoices/import", { type: "info", title: "Import cancelled", message: "Nothing was imported." });
  }

  const { importId, expected } = posted;
  // The id only ever names an object under this tenant's own prefix, uploaded by this user.
  const upload = await loadUpload(env, tenant.id, user.id, importId);
  if (!upload) return fail(EXPIRED_MESSAGE, 404);
  // Everything is checked again: subcontractors may have been archived, or numbers taken, since the preview.
  const analysis = await analyseInvoiceImport(env, tenant.id, upload.text);
  if (!analysis.ok) return fail(problemMessage(analysis));
  const changed = async () => {
    // The file can no longer be imported as it stands: it is not kept.
    await deleteUpload(env, tenant.id, importId);
    return data<ActionResult>(
      {
        kind: "preview",
        importId: null,
        fileName: upload.fileName,
        rows: analysis.rows,
        counts: analysis.counts,
        ignoredColumns: analysis.ignoredColumns,
        notice: CHANGED_MESSAGE,
      },
      { status: 409 },
    );
  };
  if (analysis.items.length === 0 || analysis.items.length !== expected) return changed();
  const imported = await importInvoices(env, tenant.id, analysis.items, actorOf(user), { ip: clientIp(request) });
  if (!imported.ok) return changed();
  const count = imported.ids.length;
  await deleteUpload(env, tenant.id, importId);
  return redirectWithToast(env, "/cis/invoices", {
    type: "success",
    title: "Import complete",
    message: `${count} draft invoice${count === 1 ? "" : "s"} imported`,
  });
}

const STATUS_LABELS = { valid: "Valid", invalid: "Invalid", duplicate: "Duplicate" } as const;

export default function InvoicesImport({ loaderData, actionData }: Route.ComponentProps) {
  const preview = actionData?.kind === "preview" ? actionData : null;
  const error = actionData?.kind === "error" ? actionData.error : null;
  const maxRows = loaderData.maxRows.toLocaleString("en-GB");

  return (
    <div className="space-y-8">
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div>
          <h2 className="text-xl font-semibold">Import invoices</h2>
          <p className="mt-1 max-w-2xl text-sm opacity-80">
            Upload a CSV file (UTF-8 or Excel&apos;s CSV) of at most 1 MB and {maxRows} data rows. Every row is checked before anything is created, and the
            import is all or nothing: invoices are created only when every row is valid. Imported invoices are drafts; their CIS deduction, VAT and net payment
            are calculated here at each subcontractor&apos;s current rate.
          </p>
        </div>
        <Link to="/cis/invoices" className={buttonClass("secondary")}>
          Back to invoices
        </Link>
      </div>

      {error ? (
        <div role="alert" className="rounded-brand border border-danger bg-danger/10 p-3 text-sm text-danger">
          {error}
        </div>
      ) : null}

      {preview ? <PreviewPanel preview={preview} /> : null}

      <section aria-labelledby="upload-heading" className="rounded-brand border border-line bg-elevated p-4">
        <h3 id="upload-heading" className="font-semibold">
          {preview ? "Upload a corrected file" : "Upload a file"}
        </h3>
        <Form method="post" encType="multipart/form-data" className="mt-3 flex flex-wrap items-end gap-3">
          <input type="hidden" name="intent" value="preview" />
          <div className="space-y-1">
            <label htmlFor="import-file" className="block text-sm font-medium">
              CSV file
            </label>
            <input id="import-file" name="file" type="file" accept=".csv,text/csv" required className={inputClass} aria-describedby="import-file-hint" />
            <p id="import-file-hint" className="text-xs opacity-70">
              Maximum 1 MB and {maxRows} rows.
            </p>
          </div>
          <SubmitButton pendingText="Checking..." match={{ intent: "preview" }}>
            Check file
          </SubmitButton>
        </Form>
      </section>

      <section aria-labelledby="format-heading" className="space-y-3">
        <h3 id="format-heading" className="font-semibold">
          Expected columns
        </h3>
        <p className="text-sm opacity-80">
          The first line is the header. Columns are matched by name (upper or lower case, in any order); other columns (such as the export&apos;s CIS and Net)
          are ignored. Blank lines are skipped. {/* A plain link: the file is a download, not a page. */}
          <a href={loaderData.templateHref} download={INVOICE_IMPORT_TEMPLATE_FILE} className="font-medium underline">
            Download the template CSV
          </a>
          .
        </p>
        <pre className="overflow-x-auto rounded-brand border border-line bg-surface p-3 text-xs">{loaderData.columns.map((c) => c.header).join(",")}</pre>
        <Table caption="Expected columns">
          <THead>
            <TH>Column</TH>
            <TH>Required</TH>
            <TH>Format</TH>
          </THead>
          <TBody>
            {loaderData.columns.map((c) => (
              <TR key={c.key}>
                <TH scope="row">
                  {c.header}
                  {c.aliases.length ? <span className="block text-xs font-normal opacity-70">{`also: ${c.aliases.join(", ")}`}</span> : null}
                </TH>
                <TD>{c.required ? "Yes" : "No"}</TD>
                <TD>{c.format}</TD>
              </TR>
            ))}
          </TBody>
        </Table>
      </section>
    </div>
  );
}

const pence = (p: number | null) => (p === null ? "" : formatPence(p));

function PreviewPanel({ preview }: { preview: Preview }) {
  const { counts } = preview;
  const total = counts.valid + counts.invalid + counts.duplicate;
  const name = preview.fileName || "the file";
  return (
    <section aria-labelledby="preview-heading" className="space-y-4 rounded-brand border border-line bg-elevated p-4">
      <h3 id="preview-heading" className="font-semibold">
        Preview of {name}
      </h3>
      <p aria-live="polite" className="text-sm">
        {total} row{total === 1 ? "" : "s"}: <strong>{counts.valid} valid</strong>, {counts.invalid} invalid, {counts.duplicate} duplicate
        {counts.duplicate === 1 ? "" : "s"}.
      </p>
      {preview.notice ? (
        <p role="alert" className="rounded-brand border border-amber-500 bg-amber-500/10 p-3 text-sm">
          {preview.notice}
        </p>
      ) : null}
      {preview.ignoredColumns.length ? <p className="text-sm opacity-80">{`Ignored columns: ${preview.ignoredColumns.join(", ")}.`}</p> : null}
      <p className="text-xs opacity-70">
        Row is the data row (1 = the first row under the header); Line is the line number in the spreadsheet, counting the header as line 1. CIS and Net are
        calculated at the subcontractor&apos;s current rate.
      </p>
      <Table caption={`Checked rows of ${name}`} scrollClassName="max-h-[28rem] overflow-auto">
        <THead>
          <TH>Row</TH>
          <TH>Line</TH>
          <TH>Invoice</TH>
          <TH>Subcontractor</TH>
          <TH>Date</TH>
          <TH>Gross</TH>
          <TH>Materials</TH>
          <TH>CIS</TH>
          <TH>Net</TH>
          <TH>Result</TH>
          <TH>Messages</TH>
        </THead>
        <TBody>
          {preview.rows.map((r) => (
            <TR key={r.row} data-row={r.row} data-status={r.status}>
              <TD>{r.row}</TD>
              <TD>{r.line}</TD>
              <TD>{r.invoiceNumber}</TD>
              <TD>{r.subcontractor}</TD>
              <TD>{r.invoiceDate}</TD>
              <TD data-cell="gross">{pence(r.grossP)}</TD>
              <TD data-cell="materials">{pence(r.materialsP)}</TD>
              <TD data-cell="cis">
                {pence(r.cisDeductionP)}
                {r.cisRate === null || r.cisDeductionP === null ? null : <span className="block text-xs opacity-70">{`at ${r.cisRate}%`}</span>}
              </TD>
              <TD data-cell="net">{pence(r.netPaymentP)}</TD>
              <TD className={`font-medium ${r.status === "valid" ? "text-success" : "text-danger"}`}>{STATUS_LABELS[r.status]}</TD>
              <TD>
                {r.messages.length || r.warnings.length ? (
                  <ul className="list-disc pl-4">
                    {r.messages.map((m) => (
                      <li key={m} data-message="error">
                        {m}
                      </li>
                    ))}
                    {r.warnings.map((m) => (
                      <li key={m} data-message="warning" className="text-amber-700">
                        {m}
                      </li>
                    ))}
                  </ul>
                ) : null}
              </TD>
            </TR>
          ))}
        </TBody>
      </Table>
      {preview.importId && counts.valid > 0 && counts.valid === total ? (
        <div className="flex flex-wrap gap-3">
          <Form method="post">
            <input type="hidden" name="importId" value={preview.importId} />
            <input type="hidden" name="expected" value={counts.valid} />
            <SubmitButton name="intent" value="commit" pendingText="Importing...">
              {`Import ${counts.valid} invoice${counts.valid === 1 ? "" : "s"} as drafts`}
            </SubmitButton>
          </Form>
          <Form method="post">
            <input type="hidden" name="importId" value={preview.importId} />
            <button type="submit" name="intent" value="cancel" className={buttonClass("secondary")}>
              Cancel
            </button>
          </Form>
        </div>
      ) : null}
    </section>
  );
}

export function meta() {
  return [{ title: "Import invoices" }];
}
