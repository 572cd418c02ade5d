import { type RouterContextProvider } from "react-router";
import { TD } from "~/components/ui/table";
import { requireScope } from "~/features/auth/index.server";
import { clientIp } from "~/features/platform/index.server";
import { redirectWithToast } from "~/features/platform/index.server";
import { IMPORT_MAX_ROWS, type ImportPreview } from "../../csv-import/import-kit";
import { deleteUpload, importPreview, importStep, TEMPLATE_HREF, templateDownload } from "../../csv-import/import-kit.server";
import { ImportPage, ImportPreviewPanel } from "../../csv-import/import-page";
import { formatPence } from "../../domain/money";
import { requireModule } from "~/features/auth/index.server";
import { INVOICE_IMPORT_COLUMNS, INVOICE_IMPORT_TEMPLATE_FILE } from "../import-columns";
import { analyseInvoiceImport, importInvoices, type InvoiceImportRowResult } from "../import.server";
import type { Route } from "./+types/import";

const CHANGED_MESSAGE = "The data changed since your preview: some rows are no longer valid. Nothing was imported; correct the file and upload it again.";
const NOT_ALL_VALID = "Nothing can be imported until every row is valid: an invoice import is all or nothing. Correct the file and upload it again.";

/** An import creates invoices: it needs cis.io.import and cis.inv.write, on every request. */
async function requireInvoiceImport(request: Request, context: Readonly<RouterContextProvider>) {
  const cis = await requireModule(request, context, { module: "cis", scope: "cis.io.import" });
  await requireScope(request, context, cis.user, "cis.inv.write");
  return cis;
}

export const middleware: Route.MiddlewareFunction[] = [templateDownload(requireInvoiceImport, INVOICE_IMPORT_COLUMNS, INVOICE_IMPORT_TEMPLATE_FILE)];

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireInvoiceImport(request, context);
  return {
    columns: INVOICE_IMPORT_COLUMNS.map(({ header, key, required, format, aliases }) => ({ header, key, required, format, aliases: aliases ?? [] })),
    maxRows: IMPORT_MAX_ROWS,
    templateHref: TEMPLATE_HREF,
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const { env, tenant, user, actor } = await requireInvoiceImport(request, context);
  const step = await importStep(request, {
    env,
    tenantId: tenant.id,
    userId: user.id,
    page: "/cis/invoices/import",
    analyse: (text) => analyseInvoiceImport(env, tenant.id, text),
    // Only a file whose every row is valid is kept for the Import click.
    importable: (analysis) => analysis.items.length > 0,
    notImportable: NOT_ALL_VALID,
  });
  if (step.done) return step.done;
  const { importId, expected, fileName, analysis } = step;
  const changed = async () => {
    // The file can no longer be imported as it stands: it is not kept.
    await deleteUpload(env, tenant.id, importId);
    return importPreview(analysis, { importId: null, fileName, notice: CHANGED_MESSAGE }, 409);
  };
  if (analysis.items.length === 0 || analysis.items.length !== expected) return changed();
  const imported = await importInvoices(env, tenant.id, analysis.items, actor, { ip: clientIp(request) });
  if (!imported.ok) return changed();
  const count = imported.ids.length;
  await deleteUpload(env, tenant.id, importId);
  return redirectWithToast(env, "/cis/invoices", {
    type: "success",
    title: "Import complete",
    message: `${count} draft invoice${count === 1 ? "" : "s"} imported`,
  });
}

export default function InvoicesImport({ loaderData, actionData }: Route.ComponentProps) {
  const preview = actionData?.kind === "preview" ? actionData : null;
  const error = actionData?.kind === "error" ? actionData.error : null;
  const maxRows = loaderData.maxRows.toLocaleString("en-GB");

  return (
    <ImportPage
      title="Import invoices"
      intro={
        <>
          Upload a CSV file (UTF-8 or Excel&apos;s CSV) of at most 1 MB and {maxRows} data rows. Every row is checked before anything is created, and the import
          is all or nothing: invoices are created only when every row is valid. Imported invoices are drafts; their CIS deduction, VAT and net payment are
          calculated here at each subcontractor&apos;s current rate.
        </>
      }
      back={{ to: "/cis/invoices", label: "Back to invoices" }}
      error={error}
      preview={preview ? <PreviewPanel preview={preview} /> : null}
      maxRows={loaderData.maxRows}
      columns={loaderData.columns}
      columnsIntro="The first line is the header. Columns are matched by name (upper or lower case, in any order); other columns (such as the export's CIS and Net) are ignored. Blank lines are skipped. "
      templateHref={loaderData.templateHref}
      templateFile={INVOICE_IMPORT_TEMPLATE_FILE}
    />
  );
}

const pence = (p: number | null) => (p === null ? "" : formatPence(p));

function PreviewPanel({ preview }: { preview: ImportPreview<InvoiceImportRowResult> }) {
  const { valid, invalid, duplicate } = preview.counts;
  return (
    <ImportPreviewPanel
      preview={preview}
      note="Row is the data row (1 = the first row under the header); Line is the line number in the spreadsheet, counting the header as line 1. CIS and Net are calculated at the subcontractor's current rate."
      headers={["Invoice", "Subcontractor", "Date", "Gross", "Materials", "CIS", "Net"]}
      cells={(r) => (
        <>
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
        </>
      )}
      canCommit={valid > 0 && invalid === 0 && duplicate === 0}
      commitLabel={`Import ${valid} invoice${valid === 1 ? "" : "s"} as drafts`}
    />
  );
}

export function meta() {
  return [{ title: "Import invoices" }];
}
