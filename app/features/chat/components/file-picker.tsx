import { useState, type FormEvent } from "react";
import { useFetcher } from "react-router";
import { MAX_MESSAGE_FILES } from "../domain/rules";

export type PickedFile = { id: string; name: string };
type Found = { files: { id: string; name: string; size: string }[] };

/**
 * With JavaScript, the room's "Attach files…" opens this instead of the attach page: a search
 * among the files the person may see (the attach page's own loader answers it), and the files
 * chosen, put into the message form as its `fileId` fields (the form then posts as without JavaScript).
 */
export function FilePicker({
  roomId,
  chosen,
  onChange,
  onClose,
}: {
  roomId: string;
  chosen: PickedFile[];
  onChange: (files: PickedFile[]) => void;
  onClose: () => void;
}) {
  const fetcher = useFetcher<Found>();
  const [q, setQ] = useState("");
  const search = (event?: FormEvent) => {
    event?.preventDefault();
    void fetcher.load(`/chat/${roomId}/attach?q=${encodeURIComponent(q)}`);
  };
  const toggle = (f: PickedFile) =>
    onChange(chosen.some((c) => c.id === f.id) ? chosen.filter((c) => c.id !== f.id) : [...chosen, f].slice(0, MAX_MESSAGE_FILES));
  return (
    <div className="space-y-2 rounded-brand border border-line p-3" data-testid="file-picker">
      <div className="flex flex-wrap items-end gap-2">
        <label className="min-w-0 flex-1 text-sm">
          <span className="block font-medium">Find a file by name</span>
          <input
            type="search"
            value={q}
            onChange={(e) => setQ(e.target.value)}
            onKeyDown={(e) => e.key === "Enter" && search(e)}
            className="mt-1 block w-full rounded-brand border border-line bg-primary-bg p-2"
          />
        </label>
        <button type="button" className="rounded-brand border border-line px-3 py-2 text-sm" onClick={() => search()}>
          Search
        </button>
        <button type="button" className="px-3 py-2 text-sm underline" onClick={onClose}>
          Close
        </button>
      </div>
      {fetcher.state !== "idle" ? <p className="text-xs opacity-70">Searching…</p> : null}
      {fetcher.data && fetcher.data.files.length === 0 ? <p className="text-sm">No files found.</p> : null}
      <ul className="space-y-1">
        {(fetcher.data?.files ?? []).map((f) => (
          <li key={f.id}>
            <label className="flex items-center gap-2 text-sm" data-testid="picker-file">
              <input type="checkbox" checked={chosen.some((c) => c.id === f.id)} onChange={() => toggle({ id: f.id, name: f.name })} />
              <span className="min-w-0 [overflow-wrap:anywhere]">{f.name}</span>
              <span className="text-xs opacity-70">{f.size}</span>
            </label>
          </li>
        ))}
      </ul>
    </div>
  );
}

/** The chosen files under the message box, as the form's `fileId` fields. */
export function PickedFiles({ chosen, onRemove }: { chosen: PickedFile[]; onRemove: (id: string) => void }) {
  if (chosen.length === 0) return null;
  return (
    <ul className="flex flex-wrap gap-2 text-sm" aria-label="Files to send with the message" data-testid="picked-files">
      {chosen.map((f) => (
        <li key={f.id} className="flex items-center gap-1 rounded-brand border border-line px-2 py-1">
          <input type="hidden" name="fileId" value={f.id} form="send-form" />
          <span className="[overflow-wrap:anywhere]">{f.name}</span>
          <button type="button" className="underline" aria-label={`Do not attach ${f.name}`} onClick={() => onRemove(f.id)}>
            ×
          </button>
        </li>
      ))}
    </ul>
  );
}
