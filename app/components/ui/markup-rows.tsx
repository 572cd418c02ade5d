import { useEffect, useLayoutEffect, useRef, type FocusEventHandler, type MouseEventHandler } from "react";
import { markup, type Html } from "~/utils/markup";

const ROW_CHECKBOX = "ids";

/**
 * A long list's body, its rows written as one string of markup (`~/utils/markup`): the server then
 * encodes a page of rows once instead of every attribute of every cell (ADR 0079). The rows are
 * plain markup: their links and buttons work through the handlers given here (delegation, see
 * row-links), and a row's checkbox reports its tick through `onToggle`. The ticks are the page's
 * state (`selected`), put on the checkboxes after each render, so the markup does not change when a
 * row is ticked and React leaves the rows alone.
 */
export function MarkupRows({
  rows,
  selected,
  onToggle,
  onClick,
  onMouseOver,
  onFocus,
}: {
  rows: Html;
  selected?: ReadonlySet<string>;
  onToggle?: (id: string, on: boolean) => void;
  onClick?: MouseEventHandler<HTMLElement>;
  onMouseOver?: MouseEventHandler<HTMLElement>;
  onFocus?: FocusEventHandler<HTMLElement>;
}) {
  const body = useRef<HTMLTableSectionElement>(null);
  useLayoutEffect(() => {
    if (!selected || !body.current) return;
    for (const box of body.current.querySelectorAll<HTMLInputElement>(`input[type="checkbox"][name="${ROW_CHECKBOX}"]`)) box.checked = selected.has(box.value);
  }, [rows, selected]);
  // A native listener: React's onChange only reports inputs React rendered itself.
  useEffect(() => {
    const tbody = body.current;
    if (!onToggle || !tbody) return;
    const onChange = (event: Event) => {
      const box = event.target;
      if (box instanceof HTMLInputElement && box.type === "checkbox" && box.name === ROW_CHECKBOX) onToggle(box.value, box.checked);
    };
    tbody.addEventListener("change", onChange);
    return () => tbody.removeEventListener("change", onChange);
  }, [onToggle]);
  return <tbody ref={body} className="rows" onClick={onClick} onMouseOver={onMouseOver} onFocus={onFocus} dangerouslySetInnerHTML={rows} />;
}

/**
 * A row's selection cell: its checkbox (named `ids`, belonging to the bulk form by its id) and its
 * id for 'select all'. Never ticked in the markup: `MarkupRows` ticks it from the page's selection.
 */
export function selectCell(id: string, formId: string, label: string): Html {
  return markup`<td><input type="hidden" name="pageIds" value="${id}" form="${formId}"><input type="checkbox" name="${ROW_CHECKBOX}" value="${id}" form="${formId}" aria-label="${label}"></td>`;
}
