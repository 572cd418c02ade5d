import { Form, Link } from "react-router";
import { buttonClass } from "~/components/ui/button";
import { inputClass } from "~/components/ui/field";

type FileItem = { id: string; name: string; size: number };

/** An event's files from Files: each links to the file's page; changing the list is a form per button, and picking is a search step (no JavaScript needed). */
export function EventAttachments({
  attachments,
  candidates,
  query,
  at,
  editable,
}: {
  attachments: FileItem[];
  candidates: FileItem[] | null;
  query: string;
  at: number | null;
  editable: boolean;
}) {
  return (
    <section aria-labelledby="attachments-title" className="mt-8 rounded-brand border border-line p-3">
      <h2 id="attachments-title" className="font-semibold">
        Attachments
      </h2>
      {attachments.length ? (
        <ul className="mt-2 space-y-1" data-testid="attachments">
          {attachments.map((f) => (
            <li key={f.id} className="flex flex-wrap items-center gap-2 text-sm">
              <Link to={`/files/file/${f.id}`} className="min-w-0 break-words underline" data-file={f.id}>
                {f.name}
              </Link>
              {editable ? (
                <Form method="post" className="ml-auto">
                  <input type="hidden" name="fileId" value={f.id} />
                  <button type="submit" name="intent" value="detach" className="text-sm underline">
                    Remove<span className="sr-only"> {f.name}</span>
                  </button>
                </Form>
              ) : null}
            </li>
          ))}
        </ul>
      ) : (
        <p className="mt-2 text-sm">No attachments</p>
      )}
      {editable ? <AttachPicker candidates={candidates} query={query} at={at} /> : null}
    </section>
  );
}

function AttachPicker({ candidates, query, at }: { candidates: FileItem[] | null; query: string; at: number | null }) {
  return (
    <div className="mt-3 space-y-2">
      <Form method="get" className="flex flex-wrap items-end gap-2" role="search">
        {at !== null ? <input type="hidden" name="at" value={String(at)} /> : null}
        <label className="grow text-sm">
          <span className="block font-medium">Attach a file from Files</span>
          <input name="fileq" type="search" defaultValue={query} placeholder="File name" className={inputClass} />
        </label>
        <button type="submit" className={buttonClass("secondary")}>
          Find files
        </button>
        <Link to="/files/upload" className="text-sm underline">
          Upload to Files
        </Link>
      </Form>
      {candidates ? (
        candidates.length ? (
          <ul className="space-y-1" data-testid="attach-candidates">
            {candidates.map((f) => (
              <li key={f.id}>
                <Form method="post" className="flex flex-wrap items-center gap-2 text-sm">
                  <input type="hidden" name="fileId" value={f.id} />
                  <span className="min-w-0 break-words">{f.name}</span>
                  <button type="submit" name="intent" value="attach" className="ml-auto underline" data-attach={f.id}>
                    Attach<span className="sr-only"> {f.name}</span>
                  </button>
                </Form>
              </li>
            ))}
          </ul>
        ) : (
          <p className="text-sm">No files found</p>
        )
      ) : null}
    </div>
  );
}
