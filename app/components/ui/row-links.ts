import type { FormEvent, MouseEvent } from "react";
import { useNavigate, useSubmit } from "react-router";

/**
 * One click and one submit handler for a whole table body, so its rows can hold plain links and
 * forms instead of a router `Link` and `Form` per row (each of those runs several hooks and adds
 * attributes on every server render of a long list). Without JavaScript the links and forms work
 * as they are; with it, a plain left click on a same-site link navigates in the app, and a row form
 * posts through the router, after the browser's confirmation when the form (or the button that
 * posts it) has `data-confirm` (its hidden `confirmed` field then says yes, so the server acts at
 * once). A link with
 * `data-dialog` instead calls `openDialog` with that value (one dialog for the whole table, such
 * as the portal invite; its href is the page that does the same without JavaScript).
 */
export function useRowDelegation(openDialog?: (value: string) => void) {
  const navigate = useNavigate();
  const submit = useSubmit();
  function onClick(event: MouseEvent<HTMLElement>) {
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    const link = event.target instanceof Element ? event.target.closest("a[href]") : null;
    if (!(link instanceof HTMLAnchorElement) || link.target || link.hasAttribute("download")) return;
    const href = link.getAttribute("href") ?? "";
    // Only the app's own paths: anything else is the browser's.
    if (!href.startsWith("/") || href.startsWith("//")) return;
    event.preventDefault();
    const dialog = link.dataset.dialog;
    if (dialog !== undefined && openDialog) openDialog(dialog);
    else navigate(href);
  }
  function onSubmit(event: FormEvent<HTMLElement>) {
    const form = event.target;
    if (event.defaultPrevented || !(form instanceof HTMLFormElement) || form.method.toLowerCase() !== "post") return;
    event.preventDefault();
    // A row's button may post a form shared by the rows (its `form` attribute), carrying the row's
    // value and its own question.
    const { submitter } = event.nativeEvent as SubmitEvent;
    const button = submitter instanceof HTMLButtonElement ? submitter : null;
    const question = button?.dataset.confirm ?? form.dataset.confirm;
    if (question) {
      if (!window.confirm(question)) return;
      const confirmed = form.elements.namedItem("confirmed");
      if (confirmed instanceof HTMLInputElement) confirmed.value = "yes";
    }
    void submit(button ?? form, { method: "post" });
  }
  return { onClick, onSubmit };
}
