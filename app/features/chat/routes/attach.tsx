import { data, Form, Link, redirect } from "react-router";
import { SubmitButton } from "~/components/ui/button";
import { Field, inputClass } from "~/components/ui/field";
import { requireModule } from "~/features/auth/index.server";
import { searchAttachableFiles } from "~/features/files/index.server";
import { newId } from "~/utils/ids";
import { actorOf } from "../actor.server";
import { fileViewer } from "../chat.server";
import { CHAT_ERRORS, isClientId, MAX_MESSAGE_FILES, MESSAGE_MAX_CHARS } from "../domain/rules";
import { attachFormSchema, formFields } from "../forms.server";
import { chatRoomStub } from "../live.server";
import type { Route } from "./+types/attach";

/**
 * Writing a message with files, without JavaScript: a search among the files the person may see
 * (the files area's own rule), then the message with the chosen files. The room's form sends the
 * text typed so far here; nothing about the room is shown, and sending checks the room as always.
 */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const rc = await requireModule(request, context, { module: "chat", scope: "chat.send" });
  const url = new URL(request.url);
  const q = (url.searchParams.get("q") ?? "").slice(0, 200);
  const clientId = url.searchParams.get("clientId") ?? "";
  const actor = actorOf(rc);
  const found = await searchAttachableFiles(rc.env, rc.tenant.id, fileViewer(rc.tenant.id, actor), { q });
  return {
    roomId: params.roomId,
    q,
    text: (url.searchParams.get("text") ?? "").slice(0, MESSAGE_MAX_CHARS),
    clientId: isClientId(clientId) ? clientId : newId(12),
    files: found.map((f) => ({ id: f.id, name: f.name, size: sizeLabel(f.size) })),
  };
}

/** Sends the message with the chosen files through the room's object, like the room's own form. */
export async function action({ request, context, params }: Route.ActionArgs) {
  const rc = await requireModule(request, context, { module: "chat", scope: "chat.send" });
  const parsed = attachFormSchema.safeParse(formFields(await request.formData()));
  if (!parsed.success) throw data("Bad request", { status: 400 });
  const { text, clientId, fileId } = parsed.data;
  const stub = chatRoomStub(rc.env, rc.tenant.id, params.roomId);
  const res = await stub.post({ ...actorOf(rc), roomId: params.roomId, canSend: true }, clientId, text, fileId);
  if (res.ok) return redirect(`/chat/${params.roomId}#latest`);
  if (res.code === "not_found") throw data(CHAT_ERRORS.not_found, { status: 404 });
  const field = res.code === "empty" || res.code === "too_long" ? "text" : "files";
  return data({ field, error: CHAT_ERRORS[res.code], text, chosen: fileId }, { status: 400 });
}

function sizeLabel(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

export default function Attach({ loaderData, actionData }: Route.ComponentProps) {
  const { roomId, q, clientId, files } = loaderData;
  const text = actionData?.text ?? loaderData.text;
  return (
    <div className="max-w-2xl space-y-6">
      <h1 className="text-2xl font-bold">Attach files</h1>
      <Form method="get" className="flex flex-wrap items-end gap-2" role="search">
        <input type="hidden" name="clientId" value={clientId} />
        <input type="hidden" name="text" value={text} />
        <div className="min-w-0 flex-1">
          <Field id="file-q" label="Find a file by name">
            <input id="file-q" name="q" type="search" className={inputClass} defaultValue={q} />
          </Field>
        </div>
        <button type="submit" className="rounded-brand border border-line px-4 py-2 text-sm">
          Search
        </button>
      </Form>
      <SendWithFiles clientId={clientId} files={files} text={text} chosen={actionData?.chosen ?? []} q={q} error={actionData} />
      <Link to={`/chat/${roomId}`} className="underline">
        Back to the chat
      </Link>
    </div>
  );
}

type SendProps = {
  clientId: string;
  files: { id: string; name: string; size: string }[];
  text: string;
  chosen: readonly string[];
  q: string;
  error?: { field: string; error: string };
};

function SendWithFiles({ clientId, files, text, chosen, q, error }: SendProps) {
  const filesError = error?.field === "files" ? error.error : null;
  const textError = error?.field === "text" ? error.error : null;
  return (
    <Form method="post" className="space-y-4">
      <input type="hidden" name="clientId" value={clientId} />
      <fieldset className="space-y-1" aria-describedby={filesError ? "files-error" : "files-hint"}>
        <legend className="text-sm font-medium">Files you can see{q ? ` matching “${q}”` : ", newest first"}</legend>
        <p id="files-hint" className="text-xs opacity-70">
          Choose up to {MAX_MESSAGE_FILES}. People in the chat who cannot see a file in Files will see “File not available”.
        </p>
        {files.length === 0 ? <p data-testid="no-files">No files found.</p> : null}
        {files.map((f) => (
          <label key={f.id} className="flex items-center gap-2 text-sm" data-testid="attachable-file">
            <input type="checkbox" name="fileId" value={f.id} defaultChecked={chosen.includes(f.id)} />
            <span className="min-w-0 [overflow-wrap:anywhere]">{f.name}</span>
            <span className="text-xs opacity-70">{f.size}</span>
          </label>
        ))}
        {filesError ? (
          <p id="files-error" className="text-sm text-danger" role="alert">
            {filesError}
          </p>
        ) : null}
      </fieldset>
      <Field id="attach-text" label="Message" error={textError}>
        <textarea
          id="attach-text"
          name="text"
          rows={3}
          maxLength={MESSAGE_MAX_CHARS}
          className={inputClass}
          defaultValue={text}
          aria-invalid={textError ? true : undefined}
          aria-describedby={textError ? "attach-text-error" : undefined}
        />
      </Field>
      <SubmitButton pendingText="Sending…">Send with files</SubmitButton>
    </Form>
  );
}

export function meta() {
  return [{ title: "Attach files · Chat" }];
}
