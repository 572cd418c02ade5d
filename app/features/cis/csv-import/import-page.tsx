import type { ReactNode } from "react";
import { Form, Link } from "react-router";
import { buttonClass, SubmitButton } from "~/components/ui/button";
import { inputClass } from "~/components/ui/field";
import { TBody, TD, TH, THead, TR, Table } from "~/components/ui/table";
import type { ImportColumn, ImportPreview, ImportPreviewRow } from "./import-kit";

const STATUS_LABELS = { valid: "Valid", invalid: "Invalid", duplicate: "Duplicate" } as const;

/**
 * An import page: its heading and introduction, the action's error, the preview (if any), the
 * upload form and the expected columns with the template download.
 */
// eslint-disable-next-line max-lines-per-function -- one page read top to bottom, a little over the limit; a split would only pass the loader data through props
export function ImportPage({
  title,
  intro,
  back,
  error,
  preview,
  maxRows,
  columns,
  columnsIntro,
  templateHref,
  templateFile,
}: {
  title: string;
  intro: ReactNode;
  back: { to: string; label: string };
  error: string | null;
  /** The rendered preview panel, or null before a file is checked. */
  preview: ReactNode;
  maxRows: number;
  columns: readonly ImportColumn<string>[];
  /** The text before the template link, with its trailing space. */
  columnsIntro: string;
  templateHref: string;
  templateFile: string;
}) {
  return (
    <div className="space-y-8">
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div>
          <h2 className="text-xl font-semibold">{title}</h2>
          <p className="mt-1 max-w-2xl text-sm opacity-80">{intro}</p>
        </div>
        <Link to={back.to} className={buttonClass("secondary")}>
          {back.label}
        </Link>
      </div>

      {error ? (
        <div role="alert" className="rounded-brand border border-danger bg-danger/10 p-3 text-sm text-danger">
          {error}
        </div>
      ) : null}

      {preview}

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
              Maximum 1 MB and {maxRows.toLocaleString("en-GB")} rows.
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
          {columnsIntro}
          {/* A plain link: the file is a download, not a page. */}
          <a href={templateHref} download={templateFile} className="font-medium underline">
            Download the template CSV
          </a>
          .
        </p>
        <pre className="whitespace-pre-wrap break-all rounded-brand border border-line bg-surface p-3 text-xs">{columns.map((c) => c.header).join(",")}</pre>
        <Table caption="Expected columns">
          <THead>
            <TH>Column</TH>
            <TH>Required</TH>
            <TH>Format</TH>
          </THead>
          <TBody>
            {columns.map((c) => (
              <TR key={c.key}>
                <TH scope="row">
                  {c.header}
                  {c.aliases?.length ? <span className="block text-xs font-normal opacity-70">{`also: ${c.aliases.join(", ")}`}</span> : null}
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

/**
 * The checked file: counts, the action's notice, ignored columns and one row per data row (Row,
 * Line, the import's own `headers` and `cells`, Result, Messages), then Import and Cancel when
 * `canCommit`, otherwise `cannotCommit` (if any).
 */
// eslint-disable-next-line max-lines-per-function -- one page read top to bottom, a little over the limit; a split would only pass the loader data through props
export function ImportPreviewPanel<Row extends ImportPreviewRow & { warnings?: string[] }>({
  preview,
  note,
  headers,
  cells,
  canCommit,
  commitLabel,
  cannotCommit,
}: {
  preview: ImportPreview<Row>;
  /** How to read the table, under the counts. */
  note: string;
  headers: readonly string[];
  cells: (row: Row) => ReactNode;
  canCommit: boolean;
  commitLabel: string;
  cannotCommit?: string;
}) {
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
      <p className="text-xs opacity-70">{note}</p>
      <Table caption={`Checked rows of ${name}`} scrollClassName="max-h-[28rem] overflow-auto">
        <THead>
          <TH>Row</TH>
          <TH>Line</TH>
          {headers.map((h) => (
            <TH key={h}>{h}</TH>
          ))}
          <TH>Result</TH>
          <TH>Messages</TH>
        </THead>
        <TBody>
          {preview.rows.map((r) => (
            <TR key={r.row} data-row={r.row} data-status={r.status}>
              <TD>{r.row}</TD>
              <TD>{r.line}</TD>
              {cells(r)}
              <TD className={`font-medium ${r.status === "valid" ? "text-success" : "text-danger"}`}>{STATUS_LABELS[r.status]}</TD>
              <TD>
                <RowMessages messages={r.messages} warnings={r.warnings} />
              </TD>
            </TR>
          ))}
        </TBody>
      </Table>
      {preview.importId && canCommit ? (
        <div className="flex flex-wrap gap-3">
          <Form method="post">
            <input type="hidden" name="importId" value={preview.importId} />
            <input type="hidden" name="expected" value={counts.valid} />
            <SubmitButton name="intent" value="commit" pendingText="Importing...">
              {commitLabel}
            </SubmitButton>
          </Form>
          <Form method="post">
            <input type="hidden" name="importId" value={preview.importId} />
            <button type="submit" name="intent" value="cancel" className={buttonClass("secondary")}>
              Cancel
            </button>
          </Form>
        </div>
      ) : cannotCommit ? (
        <p className="text-sm">{cannotCommit}</p>
      ) : null}
    </section>
  );
}

/** A row's messages; an import whose rows also carry warnings marks each item as error or warning. */
function RowMessages({ messages, warnings }: { messages: string[]; warnings?: string[] }) {
  if (!warnings) {
    return messages.length ? (
      <ul className="list-disc pl-4">
        {messages.map((m) => (
          <li key={m}>{m}</li>
        ))}
      </ul>
    ) : null;
  }
  return messages.length || warnings.length ? (
    <ul className="list-disc pl-4">
      {messages.map((m) => (
        <li key={m} data-message="error">
          {m}
        </li>
      ))}
      {warnings.map((m) => (
        <li key={m} data-message="warning" className="text-amber-800 dark:text-amber-400">
          {m}
        </li>
      ))}
    </ul>
  ) : null;
}
