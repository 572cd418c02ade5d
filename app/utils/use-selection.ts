import { useState } from "react";

/**
 * The rows ticked in a list with bulk actions: toggle one, or all of the page's ids at once.
 * Whenever an entry of `resetKey` changes (a finished action, another page or filter) the
 * selection starts empty again; the reset happens while rendering, so an old selection is
 * never shown against new rows.
 */
export function useSelection(pageIds: readonly string[], resetKey: readonly unknown[]) {
  const [selected, setSelected] = useState<Set<string>>(() => new Set());
  const [selectionFor, setSelectionFor] = useState(resetKey);
  if (resetKey.length !== selectionFor.length || resetKey.some((k, i) => !Object.is(k, selectionFor[i]))) {
    setSelectionFor(resetKey);
    setSelected(new Set());
  }
  const toggle = (id: string, on: boolean) =>
    setSelected((prev) => {
      const next = new Set(prev);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });
  const toggleAll = (on: boolean) => setSelected(on ? new Set(pageIds) : new Set());
  return { selected, toggle, toggleAll };
}
