import { lazy, Suspense } from "react";
import { data, Form, Link, redirect } from "react-router";
import { buttonClass, SubmitButton } from "~/components/ui/button";
import { Field, inputClass } from "~/components/ui/field";
import { can } from "~/features/auth";
import { requireModule } from "~/features/auth/index.server";
import { newId } from "~/utils/ids";
import { useHydrated } from "~/utils/use-hydrated";
import { actorOf } from "../actor.server";
import { addMembers, deleteMessage, removeMember, renameGroup, roomView } from "../chat.server";
import { StaticRoom } from "../components/message-list";
import { CHAT_ERRORS, encodeCursor, MESSAGE_MAX_CHARS, ROOM_NAME_MAX_CHARS, type ChatError } from "../domain/rules";
import { formFields, roomFormSchema } from "../forms.server";
import { chatRoomStub } from "../live.server";
import type { Route } from "./+types/room";

/** The live room, fetched once the page has hydrated: never part of the first load. */
const LiveRoom = lazy(() => import("../components/live-room").then((m) => ({ default: m.LiveRoom })));

const notFound = () => data(CHAT_ERRORS.not_found, { status: 404 });

/** A room: the newest page of messages (or an older one by cursor) from D1; showing the newest marks it read. */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const { env, tenant, user } = await requireModule(request, context, { module: "chat" });
  const before = new URL(request.url).searchParams.get("before");
  const view = await roomView(env, tenant.id, user.id, params.roomId, before);
  if (!view) throw notFound();
  const memberIds = new Set(view.members.map((m) => m.id));
  return {
    room: view.room,
    messages: view.messages,
    olderHref: view.older ? `/chat/${view.room.id}?before=${encodeURIComponent(encodeCursor(view.older))}` : null,
    isOlderPage: !!before,
    members: view.members,
    addable: view.people.filter((p) => !memberIds.has(p.id)),
    me: user.id,
    canSend: can(user, "chat.send"),
    // A fresh id for the form's message: posting it twice (a double click, a retried request) stores it once.
    clientId: newId(12),
  };
}

type Errors = Partial<Record<"text" | "name" | "members" | "room", string>>;

function fieldOf(intent: string, code: ChatError): keyof Errors {
  if (intent === "send") return "text";
  if (code === "name_required" || code === "name_too_long") return "name";
  if (intent === "add") return "members";
  return "room";
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const rc = await requireModule(request, context, { module: "chat", scope: "chat.send" });
  const fields = formFields(await request.formData());
  const parsed = roomFormSchema.safeParse(fields);
  if (!parsed.success) throw data("Bad request", { status: 400 });
  const actor = actorOf(rc);
  const roomId = params.roomId;
  const stub = chatRoomStub(rc.env, rc.tenant.id, roomId);
  const input = parsed.data;
  const refused = (code: ChatError) => {
    if (code === "not_found") throw notFound();
    return data({ intent: input.intent, errors: { [fieldOf(input.intent, code)]: CHAT_ERRORS[code] } as Errors, values: fields }, { status: 400 });
  };
  switch (input.intent) {
    case "send": {
      // Through the room's object, so live sockets see it in order with everything else.
      const res = await stub.post({ ...actor, roomId, canSend: true }, input.clientId, input.text);
      return res.ok ? redirect(`/chat/${roomId}#latest`) : refused(res.code);
    }
    case "delete": {
      const res = await deleteMessage(rc.env, actor, roomId, input.id);
      if (!res.ok) return refused(res.code);
      await stub.relay({ type: "deleted", id: res.value.id, deletedAt: res.value.deletedAt });
      return redirect(`/chat/${roomId}`);
    }
    case "rename": {
      const res = await renameGroup(rc.env, actor, roomId, input.name);
      return res.ok ? redirect(`/chat/${roomId}`) : refused(res.code);
    }
    case "add": {
      const res = await addMembers(rc.env, actor, roomId, input.members);
      return res.ok ? redirect(`/chat/${roomId}`) : refused(res.code);
    }
    case "remove":
    case "leave": {
      const who = input.intent === "leave" ? actor.userId : input.userId;
      const res = await removeMember(rc.env, actor, roomId, who);
      if (!res.ok) return refused(res.code);
      // Their sockets close now: they can no longer read the room.
      await stub.kick(who);
      return redirect(input.intent === "leave" ? "/chat" : `/chat/${roomId}`);
    }
  }
}

// eslint-disable-next-line max-lines-per-function -- chat feature, reworked by its owner in parallel
export default function Room({ loaderData, actionData }: Route.ComponentProps) {
  const { room, members, addable, me, canSend, olderHref, isOlderPage } = loaderData;
  const errors: Errors = actionData?.errors ?? {};
  const values = actionData?.values ?? {};
  const admin = room.myRole === "admin";
  const group = room.kind === "group";
  const hydrated = useHydrated();
  const sendForm =
    canSend && !isOlderPage ? (
      <Form method="post" className="space-y-2" data-testid="send-form" id="send-form">
        <input type="hidden" name="clientId" value={loaderData.clientId} />
        <Field
          id="message-text"
          label="Message"
          error={errors.text}
          hint={`Plain text, up to ${MESSAGE_MAX_CHARS.toLocaleString("en-GB")} characters. Type @ and a name to mention someone.`}
        >
          <textarea
            id="message-text"
            name="text"
            rows={3}
            maxLength={MESSAGE_MAX_CHARS}
            className={inputClass}
            defaultValue={typeof values.text === "string" ? values.text : ""}
            aria-invalid={errors.text ? true : undefined}
            aria-describedby={errors.text ? "message-text-error message-text-description" : "message-text-description"}
          />
        </Field>
        <SubmitButton name="intent" value="send" pendingText="Sending…">
          Send
        </SubmitButton>
      </Form>
    ) : null;
  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div className="min-w-0">
          <p className="text-sm">
            <Link to="/chat" className="underline">
              All chats
            </Link>
          </p>
          <h1 className="truncate text-2xl font-bold" data-testid="room-name">
            {room.name}
          </h1>
          <p className="text-xs opacity-70">
            {group ? (room.everyone ? "Group · everyone in the workspace" : `Group · ${members.length} members`) : "Direct chat"}
          </p>
        </div>
        <Link to={`/chat/${room.id}`} className={buttonClass("secondary")} data-testid="refresh">
          Refresh
        </Link>
      </div>
      {errors.room ? (
        <p className="rounded-brand border border-danger p-3 text-sm text-danger" role="alert">
          {errors.room}
        </p>
      ) : null}
      {olderHref ? (
        <p>
          <Link to={olderHref} className="underline" data-testid="older">
            Older messages
          </Link>
        </p>
      ) : null}
      {hydrated && !isOlderPage ? (
        <Suspense
          fallback={
            <StaticRoom messages={loaderData.messages} me={me} canSend={canSend} live>
              {sendForm}
            </StaticRoom>
          }
        >
          <LiveRoom roomId={room.id} me={me} initial={loaderData.messages} live canSend={canSend}>
            {sendForm}
          </LiveRoom>
        </Suspense>
      ) : (
        <StaticRoom messages={loaderData.messages} me={me} canSend={canSend} live={!isOlderPage}>
          {sendForm}
        </StaticRoom>
      )}
      {isOlderPage ? (
        <p>
          <Link to={`/chat/${room.id}#latest`} className="underline">
            Back to the newest messages
          </Link>
        </p>
      ) : null}
      {group ? (
        <details className="rounded-brand border border-line p-4" open={!!(errors.name || errors.members)}>
          <summary className="cursor-pointer font-semibold">Group details</summary>
          <div className="mt-4 space-y-6">
            {room.everyone ? (
              <p className="text-sm">Everyone in the workspace is in this group, including people who join later.</p>
            ) : (
              <section aria-labelledby="members-heading">
                <h2 id="members-heading" className="font-semibold">
                  Members
                </h2>
                <ul className="mt-2 divide-y divide-line" data-testid="members">
                  {members.map((m) => (
                    <li key={m.id} className="flex flex-wrap items-center justify-between gap-2 py-2">
                      <span>
                        {m.displayName}
                        {m.role === "admin" ? <span className="ml-2 text-xs opacity-70">admin</span> : null}
                      </span>
                      {admin && canSend && m.id !== me ? (
                        <Form method="post">
                          <input type="hidden" name="userId" value={m.id} />
                          <SubmitButton
                            name="intent"
                            value="remove"
                            variant="ghost"
                            pendingText="Removing…"
                            aria-label={`Remove ${m.displayName}`}
                            match={{ userId: m.id }}
                          >
                            Remove
                          </SubmitButton>
                        </Form>
                      ) : null}
                    </li>
                  ))}
                </ul>
              </section>
            )}
            {admin && canSend ? (
              <Form method="post" className="space-y-2">
                <Field id="room-name" label="Group name" error={errors.name}>
                  <input
                    id="room-name"
                    name="name"
                    className={inputClass}
                    maxLength={ROOM_NAME_MAX_CHARS}
                    defaultValue={typeof values.name === "string" ? values.name : room.name}
                    aria-invalid={errors.name ? true : undefined}
                    aria-describedby={errors.name ? "room-name-error" : undefined}
                  />
                </Field>
                <SubmitButton name="intent" value="rename" variant="secondary" pendingText="Renaming…">
                  Rename
                </SubmitButton>
              </Form>
            ) : null}
            {admin && canSend && !room.everyone && addable.length > 0 ? (
              <Form method="post" className="space-y-2">
                <fieldset className="space-y-1" aria-describedby={errors.members ? "add-members-error" : undefined}>
                  <legend className="text-sm font-medium">Add people</legend>
                  {addable.map((p) => (
                    <label key={p.id} className="flex items-center gap-2 text-sm">
                      <input type="checkbox" name="members" value={p.id} /> {p.displayName}
                    </label>
                  ))}
                  {errors.members ? (
                    <p id="add-members-error" className="text-sm text-danger" role="alert">
                      {errors.members}
                    </p>
                  ) : null}
                </fieldset>
                <SubmitButton name="intent" value="add" variant="secondary" pendingText="Adding…">
                  Add to group
                </SubmitButton>
              </Form>
            ) : null}
            {!room.everyone && canSend ? (
              <Form method="post">
                <SubmitButton name="intent" value="leave" variant="ghost" pendingText="Leaving…">
                  Leave group
                </SubmitButton>
              </Form>
            ) : null}
          </div>
        </details>
      ) : null}
    </div>
  );
}

export function meta({ loaderData }: Route.MetaArgs) {
  return [{ title: loaderData ? `${loaderData.room.name} · Chat` : "Chat" }];
}
