import { useEffect, useRef } from "react";
import { TD, TH, THead } from "./table";

// The selection column of a list with bulk actions. The checkboxes belong to the bulk form (by
// its id), so without JavaScript the ticked ids and, for 'select all', every id on the page
// travel with it.

/** Header cell: ticks or clears the whole page; shows 'some selected' as indeterminate. */
export function SelectAllHeader({
  rowIds,
  selected,
  onToggleAll,
  formId,
  label,
}: {
  rowIds: readonly string[];
  selected: ReadonlySet<string>;
  onToggleAll: (on: boolean) => void;
  formId: string;
  label: string;
}) {
  const allSelected = rowIds.length > 0 && rowIds.every((id) => selected.has(id));
  const someSelected = !allSelected && rowIds.some((id) => selected.has(id));
  const ref = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (ref.current) ref.current.indeterminate = someSelected;
  }, [someSelected]);
  return (
    <TH className="w-10">
      <input
        ref={ref}
        type="checkbox"
        name="selectAll"
        value="page"
        form={formId}
        aria-label={label}
        checked={allSelected}
        onChange={(e) => onToggleAll(e.currentTarget.checked)}
      />
    </TH>
  );
}

/**
 * A row's cell: its checkbox, and its id for 'select all'. `bare`: a plain `td`, for a body whose
 * stylesheet rule pads its cells (`rows`).
 */
export function SelectRowCell({
  id,
  checked,
  onToggle,
  formId,
  label,
  bare = false,
}: {
  id: string;
  checked: boolean;
  onToggle: (id: string, on: boolean) => void;
  formId: string;
  label: string;
  bare?: boolean;
}) {
  const Cell = bare ? "td" : TD;
  return (
    <Cell>
      <input type="hidden" name="pageIds" value={id} form={formId} />
      <input type="checkbox" name="ids" value={id} form={formId} aria-label={label} checked={checked} onChange={(e) => onToggle(id, e.currentTarget.checked)} />
    </Cell>
  );
}

/**
 * The head row of a list with bulk actions: the select-all cell when the user may select, then one
 * plain column header per label.
 */
export function SelectableTHead({
  selectable,
  rowIds,
  selected,
  onToggleAll,
  formId,
  selectAllLabel,
  columns,
}: {
  selectable: boolean;
  rowIds: readonly string[];
  selected: ReadonlySet<string>;
  onToggleAll: (on: boolean) => void;
  formId: string;
  selectAllLabel: string;
  columns: readonly string[];
}) {
  return (
    <THead className="bg-surface">
      {selectable ? <SelectAllHeader rowIds={rowIds} selected={selected} onToggleAll={onToggleAll} formId={formId} label={selectAllLabel} /> : null}
      {columns.map((c) => (
        <TH key={c}>{c}</TH>
      ))}
    </THead>
  );
}
