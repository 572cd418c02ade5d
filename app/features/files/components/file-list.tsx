import { Form, Link } from "react-router";
import { buttonClass } from "~/components/ui/button";
import { inputClass } from "~/components/ui/field";
import { confirmThenSubmit } from "~/components/ui/confirm-then-submit";
import { SelectAllHeader, SelectRowCell } from "~/components/ui/row-selection";
import { EmptyRow, TBody, TD, TH, THead, TR, Table } from "~/components/ui/table";
import { formatDate } from "~/utils/dates";
import { deleteDialogTexts, fileKind, formatBytes, signedLabel, SUPPORTED_TYPES, visibilityLabel } from "../file-rules";
import { SubmissionKeyInput } from "~/features/platform";
import { DownloadLink } from "./download-link";

export type ListedFile = {
  id: string;
  name: string;
  size: number;
  mimeType: string;
  visibility: "private" | "shared" | "restricted";
  ownerName: string;
  signed: boolean;
  pendingSign: boolean;
  signedVersion: number | null;
  createdAt: number;
  people: number;
};

export type SortKey = "name" | "owner" | "size" | "shared" | "signed" | "created";

const COLUMNS: [SortKey, string][] = [
  ["name", "Name"],
  ["owner", "Owner"],
  ["size", "Size"],
  ["shared", "Shared"],
  ["signed", "Signed"],
  ["created", "Created"],
];

export const BULK_FORM_ID = "files-bulk";

/** The list view: select, Name, Owner, Size, Shared, Signed, Created, Actions. */
export function FileTable({
  rows,
  sort,
  sortHref,
  selected,
  onToggle,
  onToggleAll,
  emptyText,
}: {
  rows: ListedFile[];
  sort: { key: SortKey; dir: "asc" | "desc" };
  sortHref: (key: SortKey) => string;
  selected: ReadonlySet<string>;
  onToggle: (id: string, on: boolean) => void;
  onToggleAll: (on: boolean) => void;
  emptyText: string;
}) {
  return (
    <Table caption="Files">
      <THead>
        <SelectAllHeader
          rowIds={rows.map((r) => r.id)}
          selected={selected}
          onToggleAll={onToggleAll}
          formId={BULK_FORM_ID}
          label="Select all files on this page"
        />
        {COLUMNS.map(([key, label]) => (
          <TH key={key} sort={{ href: sortHref(key), direction: sort.key === key ? (sort.dir === "asc" ? "ascending" : "descending") : null }}>
            {label}
          </TH>
        ))}
        <TH>Actions</TH>
      </THead>
      <TBody>
        {rows.length === 0 ? (
          <EmptyRow colSpan={9}>{emptyText}</EmptyRow>
        ) : (
          rows.map((f) => (
            <TR key={f.id} data-file-id={f.id}>
              <SelectRowCell id={f.id} checked={selected.has(f.id)} onToggle={onToggle} formId={BULK_FORM_ID} label={`Select ${f.name}`} />
              <TD>
                <Link to={`/files/file/${f.id}`} className="font-medium underline-offset-2 hover:underline">
                  {f.name}
                </Link>
              </TD>
              <TD>{f.ownerName}</TD>
              <TD>{formatBytes(f.size)}</TD>
              <TD>{visibilityLabel(f.visibility, f.people)}</TD>
              <TD>{signedLabel(f)}</TD>
              <TD>{formatDate(f.createdAt)}</TD>
              <TD>
                <DownloadLink href={`/files/file/${f.id}/download`} className="underline">
                  Download
                </DownloadLink>
              </TD>
            </TR>
          ))
        )}
      </TBody>
    </Table>
  );
}

/** The grid view: tiles of the chosen size, each with its checkbox for the bulk form. */
export function FileGrid({
  rows,
  tile,
  selected,
  onToggle,
  emptyText,
}: {
  rows: ListedFile[];
  tile: number;
  selected: ReadonlySet<string>;
  onToggle: (id: string, on: boolean) => void;
  emptyText: string;
}) {
  if (rows.length === 0) return <p className="py-8 text-center opacity-70">{emptyText}</p>;
  return (
    <ul className="grid gap-3" style={{ gridTemplateColumns: `repeat(auto-fill, minmax(${tile}px, 1fr))` }} aria-label="Files">
      {rows.map((f) => (
        <li key={f.id} data-file-id={f.id} className="rounded-brand border border-line bg-elevated p-3 text-sm" style={{ minHeight: tile }}>
          <input type="hidden" name="pageIds" value={f.id} form={BULK_FORM_ID} />
          <label className="flex items-center gap-2">
            <input
              type="checkbox"
              name="ids"
              value={f.id}
              form={BULK_FORM_ID}
              checked={selected.has(f.id)}
              onChange={(e) => onToggle(f.id, e.currentTarget.checked)}
            />
            <span className="sr-only">Select {f.name}</span>
            <span className="text-xs uppercase opacity-60">{fileKind(f.mimeType, f.name)}</span>
          </label>
          <Link to={`/files/file/${f.id}`} className="mt-2 block break-words font-medium hover:underline">
            {f.name}
          </Link>
          <p className="opacity-70">
            {formatBytes(f.size)} · {visibilityLabel(f.visibility, f.people)}
          </p>
        </li>
      ))}
    </ul>
  );
}

export function noFilesText(filtered: boolean): string {
  return filtered ? "No files match your search." : `No files yet. Supported types: ${SUPPORTED_TYPES}.`;
}

/**
 * Move and Delete for the ticked files. With JavaScript Delete asks in a dialog first; without
 * it the server answers with its own confirmation step.
 */
export function BulkBar({
  selectedCount,
  hydrated,
  folders,
  perms,
  submissionKey,
}: {
  selectedCount: number;
  hydrated: boolean;
  folders: { id: string; path: string }[];
  perms: { delete: boolean };
  submissionKey: string;
}) {
  return (
    <Form
      method="post"
      id={BULK_FORM_ID}
      aria-label="Bulk actions"
      className="flex flex-wrap items-end gap-2"
      onSubmit={confirmThenSubmit((submitter) => {
        if (submitter?.value !== "delete") return null;
        const texts = deleteDialogTexts(selectedCount, selectedCount);
        return [texts.title, ...texts.lines].join("\n");
      })}
    >
      <input type="hidden" name="confirmed" value="" />
      <SubmissionKeyInput value={submissionKey} />
      {hydrated ? (
        <p aria-live="polite" className="text-sm">
          {selectedCount} item(s) selected
        </p>
      ) : null}
      <label className="text-sm">
        <span className="block text-xs opacity-70">Move to Folder</span>
        <select name="folderId" className={inputClass} defaultValue="">
          <option value="">Root (No folder)</option>
          {folders.map((f) => (
            <option key={f.id} value={f.id}>
              {f.path.replace(/\//g, " / ")}
            </option>
          ))}
        </select>
      </label>
      <button type="submit" name="intent" value="move" className={buttonClass("secondary")} disabled={hydrated && selectedCount === 0}>
        Move
      </button>
      {perms.delete ? (
        <button type="submit" name="intent" value="delete" className={buttonClass("danger")} disabled={hydrated && selectedCount === 0}>
          Delete
        </button>
      ) : null}
    </Form>
  );
}
