import { Form, Link } from "react-router";
import { buttonClass, SubmitButton } from "~/components/ui/button";
import { APPLY_LABELS, APPLY_TO } from "../domain/series-edit";

/** For an occurrence of a repeating event: which occurrences a save changes (default this one only). */
export function ApplyToFieldset({ at }: { at: number }) {
  return (
    <fieldset className="rounded-brand border border-line p-3">
      <legend className="px-1 text-sm font-medium">This event repeats. Save changes to</legend>
      <input type="hidden" name="at" value={String(at)} />
      <div className="mt-1 flex flex-wrap gap-4">
        {APPLY_TO.map((a) => (
          <label key={a} className="flex items-center gap-2 text-sm">
            <input type="radio" name="apply" value={a} defaultChecked={a === "this"} />
            {APPLY_LABELS[a]}
          </label>
        ))}
      </div>
    </fieldset>
  );
}

/** The delete confirmation: for an occurrence of a series, one button per choice. */
export function DeleteConfirm({ title, id, at, repeats }: { title: string; id: string | null; at: number | null; repeats: boolean }) {
  const cancel = `/schedule/${id}${at !== null ? `?at=${at}` : ""}`;
  return (
    <Form method="post" className="mt-4 rounded-brand border border-line p-4" role="alertdialog" aria-labelledby="delete-title">
      <h2 id="delete-title" className="font-semibold">
        Delete this event?
      </h2>
      {at !== null ? <input type="hidden" name="at" value={String(at)} /> : null}
      <p className="mt-1 text-sm">
        &lsquo;{title}&rsquo; will be removed from everyone&rsquo;s calendar{repeats && at === null ? ", every occurrence of it" : ""}.
      </p>
      <div className="mt-3 flex flex-wrap gap-2">
        {repeats && at !== null ? (
          <>
            <SubmitButton variant="danger" name="intent" value="delete-this" pendingText="Deleting...">
              Delete {APPLY_LABELS.this.toLowerCase()}
            </SubmitButton>
            <SubmitButton variant="danger" name="intent" value="delete-following" pendingText="Deleting...">
              Delete {APPLY_LABELS.following.toLowerCase()}
            </SubmitButton>
            <SubmitButton variant="danger" name="intent" value="delete-confirm" pendingText="Deleting...">
              Delete {APPLY_LABELS.all.toLowerCase()}
            </SubmitButton>
          </>
        ) : (
          <SubmitButton variant="danger" name="intent" value="delete-confirm" pendingText="Deleting...">
            Delete event
          </SubmitButton>
        )}
        <Link to={cancel} className={buttonClass("secondary")}>
          Cancel
        </Link>
      </div>
    </Form>
  );
}
