/**
 * The browser's side of an upload in parts: declare the file (the server reserves its size and
 * answers the part size), send each slice of the file by XMLHttpRequest (for progress, and abort
 * for Cancel), then complete. Cancel aborts the part in flight and asks the server to abort the
 * upload, which releases the reserved quota. Parts go one at a time, so the browser never holds
 * more than one slice's request open and a retry repeats one part only.
 */
import type { Err, Ok } from "~/utils/result";

/** "cancelled": the person pressed Cancel; "failed": the server refused or could not be reached (status 0). */
export type PartsOutcome = Ok<{ redirectTo: string }> | Err<"cancelled"> | Err<"failed", { status: number; message: string | null }>;

type Answer = { status: number; body: Record<string, unknown> };

const RETRIES_PER_PART = 2;

export function uploadInParts(file: File, form: FormData, onProgress: (loaded: number, total: number) => void) {
  let cancelled = false;
  let current: XMLHttpRequest | null = null;
  let uploadId: string | null = null;

  async function abortOnServer() {
    if (!uploadId) return;
    await postJson(`/files/upload/multipart/${encodeURIComponent(uploadId)}`, { intent: "abort" }).catch(() => undefined);
  }

  async function run(): Promise<PartsOutcome> {
    const text = (name: string) => {
      const v = form.get(name);
      return typeof v === "string" && v !== "" ? v : undefined;
    };
    const started = await postJson("/files/upload/multipart", {
      name: file.name,
      size: file.size,
      type: file.type,
      visibility: text("visibility") ?? "private",
      folderId: text("folderId"),
      fileId: text("fileId"),
      allowedUserIds: form.getAll("allowedUserIds").filter((v): v is string => typeof v === "string"),
    });
    if (started.status !== 200 || typeof started.body.uploadId !== "string") return failed(started);
    uploadId = started.body.uploadId;
    const partSize = Number(started.body.partSize);
    const parts = Number(started.body.partCount);

    for (let n = 1; n <= parts; n++) {
      const from = (n - 1) * partSize;
      const slice = file.slice(from, Math.min(from + partSize, file.size));
      let answer: Answer | null = null;
      for (let attempt = 0; attempt <= RETRIES_PER_PART; attempt++) {
        if (cancelled) return { ok: false, code: "cancelled" };
        answer = await sendPart(n, slice, (loaded) => onProgress(from + loaded, file.size)).catch(() => null);
        if (cancelled) return { ok: false, code: "cancelled" };
        // A network failure or the server's 5xx is worth another try; a refusal is not.
        if (answer && answer.status < 500) break;
      }
      if (!answer || answer.status !== 200) {
        await abortOnServer();
        return answer ? failed(answer) : { ok: false, code: "failed", status: 0, message: null };
      }
    }
    if (cancelled) return { ok: false, code: "cancelled" };
    const done = await postJson(`/files/upload/multipart/${encodeURIComponent(uploadId)}`, { intent: "complete" });
    if (done.status !== 200) return failed(done);
    return { ok: true, redirectTo: typeof done.body.redirectTo === "string" ? done.body.redirectTo : "/files/all" };
  }

  function sendPart(n: number, slice: Blob, progress: (loaded: number) => void): Promise<Answer> {
    return new Promise((resolve, reject) => {
      const xhr = new XMLHttpRequest();
      current = xhr;
      xhr.upload.onprogress = (e) => progress(e.loaded);
      xhr.onload = () => {
        current = null;
        resolve({ status: xhr.status, body: parse(xhr.responseText) });
      };
      xhr.onerror = () => {
        current = null;
        reject(new Error("network"));
      };
      xhr.onabort = () => {
        current = null;
        reject(new Error("aborted"));
      };
      xhr.open("PUT", `/files/upload/multipart/${encodeURIComponent(uploadId ?? "")}?part=${n}`);
      xhr.setRequestHeader("Content-Type", "application/octet-stream");
      xhr.send(slice);
    });
  }

  const done = run().then(async (outcome) => {
    if (!outcome.ok && outcome.code === "cancelled") await abortOnServer();
    return outcome;
  });

  return {
    done,
    cancel() {
      cancelled = true;
      current?.abort();
    },
  };
}

function failed(answer: Answer): PartsOutcome {
  return { ok: false, code: "failed", status: answer.status, message: typeof answer.body.message === "string" ? answer.body.message : null };
}

async function postJson(url: string, value: unknown): Promise<Answer> {
  const res = await fetch(url, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(value), credentials: "same-origin" });
  return { status: res.status, body: parse(await res.text()) };
}

function parse(text: string): Record<string, unknown> {
  try {
    const v: unknown = JSON.parse(text);
    return typeof v === "object" && v !== null ? Object.fromEntries(Object.entries(v)) : {};
  } catch {
    return {};
  }
}
