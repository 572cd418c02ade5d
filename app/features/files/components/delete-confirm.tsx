import { Form, Link } from "react-router";
import { buttonClass } from "~/components/ui/button";
import { SubmissionKeyInput } from "~/features/platform";
import { deleteDialogTexts } from "../file-rules";

/** The server-rendered delete confirmation: the dialog's texts, the files, Confirm or Cancel. */
export function DeleteConfirm({
  items,
  cancelTo,
  submissionKey,
}: {
  items: { id: string; name: string; mayChange: boolean }[];
  cancelTo: string;
  /** A list's bulk delete acts once per submission key; one file's own delete needs none. */
  submissionKey?: string;
}) {
  const deletable = items.filter((i) => i.mayChange);
  const texts = deleteDialogTexts(items.length, deletable.length);
  return (
    <section role="alertdialog" aria-labelledby="confirm-title" className="mb-4 rounded-brand border border-danger bg-danger/5 p-4" data-confirm="delete">
      <h2 id="confirm-title" className="font-semibold">
        {texts.title}
      </h2>
      {texts.lines.map((line) => (
        <p key={line} className="text-sm">
          {line}
        </p>
      ))}
      <ul className="mt-2 list-disc pl-6 text-sm">
        {items.map((i) => (
          <li key={i.id}>{i.name}</li>
        ))}
      </ul>
      <Form method="post" className="mt-3 flex gap-2">
        <input type="hidden" name="intent" value="delete" />
        <input type="hidden" name="confirmed" value="yes" />
        {submissionKey ? <SubmissionKeyInput value={submissionKey} /> : null}
        {deletable.map((i) => (
          <input key={i.id} type="hidden" name="ids" value={i.id} />
        ))}
        {deletable.length > 0 ? (
          <button type="submit" className={buttonClass("danger")}>
            Confirm delete
          </button>
        ) : null}
        <Link to={cancelTo} className={buttonClass("secondary")}>
          Cancel
        </Link>
      </Form>
    </section>
  );
}
