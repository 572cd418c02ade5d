import { type RouterContextProvider } from "react-router";
import { TD } from "~/components/ui/table";
import { requireScope } from "~/features/auth/index.server";
import { can } from "~/features/auth";
import { clientIp } from "~/features/platform/index.server";
import { redirectWithToast } from "~/features/platform/index.server";
import { IMPORT_MAX_ROWS, type ImportPreview } from "../csv-import/import-kit";
import { deleteUpload, importPreview, importStep, TEMPLATE_HREF, templateDownload } from "../csv-import/import-kit.server";
import { ImportPage, ImportPreviewPanel } from "../csv-import/import-page";
import { analyseImport, importSubcontractors, type ImportRowResult } from "../subcontractors/import.server";
import { IMPORT_COLUMNS, IMPORT_TEMPLATE_FILE } from "../subcontractors/import-columns";
import { requireModule } from "~/features/auth/index.server";
import type { Route } from "./+types/subcontractors-import";

const CHANGED_MESSAGE = "The data changed since your preview. Check the rows again before importing.";
const NO_VALID_ROWS = "No valid rows to import. Correct the file and upload it again.";

/** An import creates subcontractors: it needs cis.io.import and cis.sub.write, on every request. */
async function requireImport(request: Request, context: Readonly<RouterContextProvider>) {
  const cis = await requireModule(request, context, { module: "cis", scope: "cis.io.import" });
  await requireScope(request, context, cis.user, "cis.sub.write");
  return cis;
}

export const middleware: Route.MiddlewareFunction[] = [templateDownload(requireImport, IMPORT_COLUMNS, IMPORT_TEMPLATE_FILE)];

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireImport(request, context);
  return { columns: IMPORT_COLUMNS, maxRows: IMPORT_MAX_ROWS, templateHref: TEMPLATE_HREF };
}

export async function action({ request, context }: Route.ActionArgs) {
  const { env, tenant, user, actor } = await requireImport(request, context);
  // Rows that record verification need cis.sub.verify too.
  const canVerify = can(user, "cis.sub.verify");
  const step = await importStep(request, {
    env,
    tenantId: tenant.id,
    userId: user.id,
    page: "/cis/subcontractors/import",
    analyse: (text) => analyseImport(env, tenant.id, text, { canVerify }),
    importable: (analysis) => analysis.counts.valid > 0,
    notImportable: null,
  });
  if (step.done) return step.done;
  const { importId, expected, fileName, analysis } = step;
  const preview = (notice: string, status: number) =>
    importPreview(analysis, { importId: analysis.counts.valid > 0 ? importId : null, fileName, notice }, status);
  if (analysis.counts.valid === 0) return preview(NO_VALID_ROWS, 400);
  if (analysis.counts.valid !== expected) return preview(CHANGED_MESSAGE, 409);
  const imported = await importSubcontractors(env, tenant.id, analysis.valid, actor, { ip: clientIp(request) });
  if (!imported.ok) return preview(CHANGED_MESSAGE, 409);
  const count = imported.ids.length;
  await deleteUpload(env, tenant.id, importId);
  return redirectWithToast(env, "/cis/subcontractors", {
    type: "success",
    title: "Import complete",
    message: `${count} subcontractor${count === 1 ? "" : "s"} imported`,
  });
}

export default function SubcontractorsImport({ loaderData, actionData }: Route.ComponentProps) {
  const preview = actionData?.kind === "preview" ? actionData : null;
  const error = actionData?.kind === "error" ? actionData.error : null;

  return (
    <ImportPage
      title="Import subcontractors"
      intro={
        <>
          Upload a CSV file (UTF-8 or Excel's CSV) of at most 1 MB and {loaderData.maxRows.toLocaleString("en-GB")} data rows. You will see every row checked
          before anything is created; rows with errors or a UTR that is already on file are never imported.
        </>
      }
      back={{ to: "/cis/subcontractors", label: "Back to subcontractors" }}
      error={error}
      preview={preview ? <PreviewPanel preview={preview} /> : null}
      maxRows={loaderData.maxRows}
      columns={loaderData.columns}
      columnsIntro="The first line is the header. Columns are matched by name (upper or lower case, in any order); other columns are ignored. Blank lines are skipped. "
      templateHref={loaderData.templateHref}
      templateFile={IMPORT_TEMPLATE_FILE}
    />
  );
}

function PreviewPanel({ preview }: { preview: ImportPreview<ImportRowResult> }) {
  const { valid } = preview.counts;
  return (
    <ImportPreviewPanel
      preview={preview}
      note="Row is the data row (1 = the first row under the header); Line is the line number in the spreadsheet, counting the header as line 1."
      headers={["Name", "Type", "UTR"]}
      cells={(r) => (
        <>
          <TD>{r.name}</TD>
          <TD>{r.type}</TD>
          <TD className="font-mono text-xs">{r.utrMasked}</TD>
        </>
      )}
      canCommit={valid > 0}
      commitLabel={`Import ${valid} valid row${valid === 1 ? "" : "s"}`}
      cannotCommit={NO_VALID_ROWS}
    />
  );
}

export function meta() {
  return [{ title: "Import subcontractors" }];
}
