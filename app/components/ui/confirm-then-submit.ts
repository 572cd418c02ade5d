import type { FormEvent } from "react";

/**
 * With JavaScript, ask in a dialog and mark the submission confirmed so the server acts at once.
 * Without it the handler never runs, the post arrives unconfirmed and the server renders its
 * confirmation step instead. `message` may depend on the button that submitted.
 */
export function confirmThenSubmit(message: (submitter: HTMLButtonElement | null) => string | null) {
  return (event: FormEvent<HTMLFormElement>) => {
    const native = event.nativeEvent;
    const submitter = "submitter" in native && native.submitter instanceof HTMLButtonElement ? native.submitter : null;
    const text = message(submitter);
    if (!text) return;
    if (!window.confirm(text)) {
      event.preventDefault();
      return;
    }
    const confirmed = event.currentTarget.elements.namedItem("confirmed");
    if (confirmed instanceof HTMLInputElement) confirmed.value = "yes";
  };
}
