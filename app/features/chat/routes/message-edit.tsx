import { data, Form, Link, redirect } from "react-router";
import { SubmitButton } from "~/components/ui/button";
import { Field, inputClass } from "~/components/ui/field";
import { chatTime } from "../components/message-list";
import { CHAT_ERRORS, MESSAGE_MAX_CHARS } from "../domain/rules";
import { editFormSchema } from "../forms.server";
import { loadOwnMessage, pageChanger } from "../message-pages.server";
import type { Route } from "./+types/message-edit";

/** Editing one's own message without JavaScript: the form page. */
export async function loader(args: Route.LoaderArgs) {
  return loadOwnMessage(args);
}

/** Saves the edit through the room's object (the same rules as the socket's edit, broadcast to live sockets), then back to the message. */
export async function action(args: Route.ActionArgs) {
  const { who, stub } = await pageChanger(args);
  const parsed = editFormSchema.safeParse(Object.fromEntries(await args.request.formData()));
  if (!parsed.success) throw data("Bad request", { status: 400 });
  const res = await stub.change(who, { type: "edit", id: args.params.messageId, text: parsed.data.text });
  if (res.ok) return redirect(`/chat/${args.params.roomId}#m-${args.params.messageId}`);
  if (res.code !== "empty" && res.code !== "too_long") throw data(CHAT_ERRORS.not_found, { status: 404 });
  return data({ error: CHAT_ERRORS[res.code], text: parsed.data.text }, { status: 400 });
}

export default function EditMessage({ loaderData, actionData }: Route.ComponentProps) {
  const { roomId, message } = loaderData;
  const error = actionData?.error;
  return (
    <div className="max-w-2xl space-y-4">
      <h1 className="text-2xl font-bold">Edit message</h1>
      <p className="text-sm opacity-70">Sent {chatTime(message.createdAt)}. Everyone in the chat sees it marked as edited.</p>
      <Form method="post" className="space-y-3">
        <Field id="edit-text" label="Message" error={error} hint={`Plain text, up to ${MESSAGE_MAX_CHARS.toLocaleString("en-GB")} characters.`}>
          <textarea
            id="edit-text"
            name="text"
            rows={5}
            maxLength={MESSAGE_MAX_CHARS}
            className={inputClass}
            defaultValue={actionData?.text ?? message.text}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? "edit-text-error edit-text-description" : "edit-text-description"}
          />
        </Field>
        <div className="flex flex-wrap items-center gap-4">
          <SubmitButton pendingText="Saving…">Save</SubmitButton>
          <Link to={`/chat/${roomId}#m-${message.id}`} className="underline">
            Cancel
          </Link>
        </div>
      </Form>
    </div>
  );
}

export function meta() {
  return [{ title: "Edit message · Chat" }];
}
