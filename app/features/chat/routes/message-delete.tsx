import { data, Form, Link, redirect } from "react-router";
import { SubmitButton } from "~/components/ui/button";
import { chatTime } from "../components/message-list";
import { MessageText } from "../components/message-text";
import { CHAT_ERRORS } from "../domain/rules";
import { loadOwnMessage, pageChanger } from "../message-pages.server";
import type { Route } from "./+types/message-delete";

/** Deleting one's own message without JavaScript: the confirmation page. */
export async function loader(args: Route.LoaderArgs) {
  return loadOwnMessage(args);
}

/** Deletes through the room's object (the same rules as the socket's delete, broadcast to live sockets), then back to the room. */
export async function action(args: Route.ActionArgs) {
  const { who, stub } = await pageChanger(args);
  const res = await stub.change(who, { type: "delete", id: args.params.messageId });
  if (!res.ok) throw data(CHAT_ERRORS.not_found, { status: 404 });
  return redirect(`/chat/${args.params.roomId}#latest`);
}

export default function DeleteMessage({ loaderData }: Route.ComponentProps) {
  const { roomId, message } = loaderData;
  return (
    <div className="max-w-2xl space-y-4">
      <h1 className="text-2xl font-bold">Delete this message?</h1>
      <p className="text-sm">Everyone in the chat will see &ldquo;Message deleted&rdquo; in its place. This cannot be undone.</p>
      <blockquote className="rounded-brand border border-line p-3" data-testid="message-to-delete">
        <p className="text-xs opacity-70">You · {chatTime(message.createdAt)}</p>
        <MessageText text={message.text} />
      </blockquote>
      <Form method="post" className="flex flex-wrap items-center gap-4">
        <SubmitButton variant="danger" pendingText="Deleting…">
          Delete message
        </SubmitButton>
        <Link to={`/chat/${roomId}#m-${message.id}`} className="underline">
          Cancel
        </Link>
      </Form>
    </div>
  );
}

export function meta() {
  return [{ title: "Delete message · Chat" }];
}
