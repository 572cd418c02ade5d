import { useEffect, useRef, useState, type FormEvent } from "react";
import { buttonClass } from "~/components/ui/button";
import { inputClass } from "~/components/ui/field";
import { FILE_MESSAGES, MULTIPART_THRESHOLD, SUPPORTED_TYPES, uploadStageText } from "../file-rules";
import { uploadInParts } from "./multipart-client";

type Person = { id: string; displayName: string; email: string };
type Folder = { id: string; name: string; path: string };

type Progress = { percent: number; busy: boolean };

/**
 * The upload form. Without JavaScript it is a plain multipart post to /files/upload (up to the
 * Worker's body limit). With it the same form goes up by XMLHttpRequest to /files/upload/xhr so
 * the page can show progress, its stage text and a Cancel button; a file above
 * `multipartThreshold` goes up in parts instead (multipart-client.ts), with the same progress and
 * Cancel. The file input stays last: the server streams the file part and reads every other field
 * before it.
 */
// eslint-disable-next-line max-lines-per-function -- one interactive widget: its handlers share the same refs and state
export function UploadForm({
  people,
  folders,
  mayShare,
  versionOf,
  error,
  defaultFolderId,
  multipartThreshold = MULTIPART_THRESHOLD,
}: {
  people: Person[];
  folders: Folder[];
  mayShare: boolean;
  versionOf: { id: string; name: string; version: number } | null;
  error: string | null;
  defaultFolderId: string | null;
  multipartThreshold?: number;
}) {
  const [visibility, setVisibility] = useState("private");
  const [progress, setProgress] = useState<Progress | null>(null);
  const [message, setMessage] = useState<string | null>(error);
  // Cancels the upload in flight; null while none is.
  const cancelRef = useRef<(() => void) | null>(null);

  useEffect(() => {
    function onKey(e: KeyboardEvent) {
      if (e.key === "Escape" && !cancelRef.current) setProgress(null);
    }
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    if (typeof XMLHttpRequest === "undefined") return;
    event.preventDefault();
    const form = event.currentTarget;
    const input = form.elements.namedItem("file");
    if (!(input instanceof HTMLInputElement) || !input.files?.length) {
      setMessage(FILE_MESSAGES.missingInput);
      return;
    }
    const body = new FormData(form);
    setMessage(null);
    setProgress({ percent: 0, busy: true });
    const file = input.files[0];
    if (file.size > multipartThreshold) {
      sendInParts(file, body);
      return;
    }
    const xhr = new XMLHttpRequest();
    cancelRef.current = () => xhr.abort();
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) setProgress({ percent: Math.min(99, Math.round((e.loaded / e.total) * 100)), busy: true });
    };
    xhr.onload = () => {
      cancelRef.current = null;
      let answer: { ok?: boolean; message?: string; redirectTo?: string } = {};
      try {
        answer = JSON.parse(xhr.responseText) as typeof answer;
      } catch {
        answer = {};
      }
      if (xhr.status === 200 && answer.ok) {
        setProgress({ percent: 100, busy: false });
        window.location.assign(answer.redirectTo ?? "/files/all");
        return;
      }
      setProgress(null);
      setMessage(xhr.status === 403 ? FILE_MESSAGES.noUploadPermission : (answer.message ?? "Upload failed. Please try again."));
    };
    xhr.onerror = () => {
      cancelRef.current = null;
      setProgress(null);
      setMessage("Upload failed. Please try again.");
    };
    // Cancelling is silent: the person asked for it.
    xhr.onabort = () => {
      cancelRef.current = null;
      setProgress(null);
    };
    xhr.open("POST", "/files/upload/xhr");
    xhr.send(body);
  }

  function sendInParts(file: File, body: FormData) {
    const parts = uploadInParts(file, body, (loaded, total) => setProgress({ percent: Math.min(99, Math.round((loaded / total) * 100)), busy: true }));
    cancelRef.current = () => parts.cancel();
    void parts.done.then((outcome) => {
      cancelRef.current = null;
      if (outcome.ok) {
        setProgress({ percent: 100, busy: false });
        window.location.assign(outcome.redirectTo);
        return;
      }
      setProgress(null);
      if (outcome.code === "cancelled") return;
      setMessage(outcome.status === 403 ? FILE_MESSAGES.noUploadPermission : (outcome.message ?? "Upload failed. Please try again."));
    });
  }

  return (
    <form
      method="post"
      encType="multipart/form-data"
      onSubmit={onSubmit}
      className="max-w-xl space-y-4"
      aria-describedby={message ? "upload-error" : undefined}
    >
      {message ? (
        <p id="upload-error" role="alert" className="rounded-brand border border-danger bg-danger/5 p-3 text-sm text-danger">
          {message}
        </p>
      ) : null}
      {versionOf ? (
        <>
          <input type="hidden" name="fileId" value={versionOf.id} />
          <p>
            New version of <strong>{versionOf.name}</strong> (now version {versionOf.version}).
          </p>
        </>
      ) : (
        <>
          {mayShare ? (
            <fieldset>
              <legend className="text-sm font-medium">Visibility</legend>
              {[
                ["private", "Private"],
                ["shared", "Organization Wide"],
                ["restricted", "Restricted"],
              ].map(([value, label]) => (
                <label key={value} className="mr-4 text-sm">
                  <input type="radio" name="visibility" value={value} checked={visibility === value} onChange={() => setVisibility(value)} /> {label}
                </label>
              ))}
              <div className="mt-2 max-h-[12rem] overflow-y-auto rounded-brand border border-line p-2" aria-label="People who may open a restricted file">
                {people.length === 0 ? (
                  <p className="text-sm opacity-70">No other users in organization</p>
                ) : (
                  people.map((p) => (
                    <label key={p.id} className="block text-sm">
                      <input type="checkbox" name="allowedUserIds" value={p.id} /> {p.displayName} <span className="opacity-60">{p.email}</span>
                    </label>
                  ))
                )}
              </div>
            </fieldset>
          ) : (
            <input type="hidden" name="visibility" value="private" />
          )}
          <label className="block text-sm">
            <span className="block font-medium">Folder</span>
            <select name="folderId" defaultValue={defaultFolderId ?? ""} className={inputClass}>
              <option value="">Root (No folder)</option>
              {folders.map((f) => (
                <option key={f.id} value={f.id}>
                  {f.path.replace(/\//g, " / ")}
                </option>
              ))}
            </select>
          </label>
        </>
      )}
      <div className="text-sm">
        <label htmlFor="upload-file" className="block font-medium">
          File
        </label>
        <input id="upload-file" type="file" name="file" required className="block" aria-describedby="upload-file-hint" />
        <p id="upload-file-hint" className="text-xs opacity-70">
          Supported: {SUPPORTED_TYPES}. Up to 100 MB without JavaScript; larger files go up in parts and need JavaScript turned on.
        </p>
      </div>
      {progress ? (
        <div aria-live="polite" data-testid="upload-progress">
          <progress max={100} value={progress.percent} className="w-full" aria-label="Upload progress" />
          <p className="text-sm">
            {uploadStageText(progress.percent)} {progress.percent}%
          </p>
          {progress.busy ? (
            <button type="button" className={buttonClass("secondary")} onClick={() => cancelRef.current?.()}>
              Cancel
            </button>
          ) : null}
        </div>
      ) : (
        <button type="submit" className={buttonClass("primary")}>
          Upload File
        </button>
      )}
    </form>
  );
}
