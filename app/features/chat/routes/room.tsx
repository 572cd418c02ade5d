import { lazy, Suspense, type ReactNode } from "react";
import { data, Form, Link, redirect } from "react-router";
import { buttonClass, SubmitButton } from "~/components/ui/button";
import { Field, inputClass } from "~/components/ui/field";
import { can } from "~/features/auth";
import { requireModule } from "~/features/auth/index.server";
import { newId } from "~/utils/ids";
import { useHydrated } from "~/utils/use-hydrated";
import { actorOf } from "../actor.server";
import { setMemberRole } from "../admins.server";
import { addMembers, removeMember, renameGroup, roomView } from "../chat.server";
import { GroupDetails } from "../components/group-details";
import { StaticRoom } from "../components/message-list";
import { CHAT_ERRORS, encodeCursor, MESSAGE_MAX_CHARS, type ChatError } from "../domain/rules";
import { formFields, roomFormSchema } from "../forms.server";
import { chatRoomStub } from "../live.server";
import type { Route } from "./+types/room";

/** The live room, fetched once the page has hydrated: never part of the first load. */
const LiveRoom = lazy(() => import("../components/live-room").then((m) => ({ default: m.LiveRoom })));

const notFound = () => data(CHAT_ERRORS.not_found, { status: 404 });

/** A room: the newest page of messages (or an older one by cursor) from D1; showing the newest marks it read. */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const rc = await requireModule(request, context, { module: "chat" });
  const { env, user } = rc;
  const before = new URL(request.url).searchParams.get("before");
  const view = await roomView(env, actorOf(rc), params.roomId, before);
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
  const here = redirect(`/chat/${roomId}`);
  const refused = (code: ChatError) => {
    if (code === "not_found") throw notFound();
    return data({ intent: input.intent, errors: { [fieldOf(input.intent, code)]: CHAT_ERRORS[code] } as Errors, values: fields }, { status: 400 });
  };
  switch (input.intent) {
    case "send": {
      // Through the room's object, so live sockets see it in order with everything else.
      const res = await stub.post({ ...actor, roomId, canSend: true }, input.clientId, input.text, input.fileId);
      return res.ok ? redirect(`/chat/${roomId}#latest`) : refused(res.code);
    }
    case "rename": {
      const res = await renameGroup(rc.env, actor, roomId, input.name);
      return res.ok ? here : refused(res.code);
    }
    case "add": {
      const res = await addMembers(rc.env, actor, roomId, input.members);
      return res.ok ? here : refused(res.code);
    }
    case "make_admin":
    case "remove_admin": {
      const res = await setMemberRole(rc.env, actor, roomId, input.userId, input.intent === "make_admin" ? "admin" : "member");
      return res.ok ? here : refused(res.code);
    }
    case "remove":
    case "leave": {
      const who = input.intent === "leave" ? actor.userId : input.userId;
      const res = await removeMember(rc.env, actor, roomId, who);
      if (!res.ok) return refused(res.code);
      // Their sockets close now: they can no longer read the room.
      await stub.kick(who);
      return input.intent === "leave" ? redirect("/chat") : here;
    }
  }
}

export default function Room({ loaderData, actionData }: Route.ComponentProps) {
  const { room, members, me, canSend, olderHref, isOlderPage } = loaderData;
  const errors: Errors = actionData?.errors ?? {};
  const values = actionData?.values ?? {};
  const sendForm = canSend && !isOlderPage ? <SendForm roomId={room.id} clientId={loaderData.clientId} error={errors.text} text={values.text} /> : null;
  return (
    <div className="space-y-6">
      <RoomHeader room={room} memberCount={members.length} />
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
      <Messages roomId={room.id} messages={loaderData.messages} me={me} canSend={canSend} isOlderPage={isOlderPage}>
        {sendForm}
      </Messages>
      {isOlderPage ? (
        <p>
          <Link to={`/chat/${room.id}#latest`} className="underline">
            Back to the newest messages
          </Link>
        </p>
      ) : null}
      {room.kind === "group" ? (
        <GroupDetails room={room} members={members} addable={loaderData.addable} me={me} canSend={canSend} errors={errors} values={values} />
      ) : null}
    </div>
  );
}

function RoomHeader({ room, memberCount }: { room: { id: string; name: string; kind: "direct" | "group"; everyone: boolean }; memberCount: number }) {
  const group = room.kind === "group";
  return (
    <div className="flex flex-wrap items-center justify-between gap-3">
      <div className="min-w-0">
        <h1 className="truncate text-2xl font-bold" data-testid="room-name">
          {room.name}
        </h1>
        <p className="text-xs opacity-70">{group ? (room.everyone ? "Group · everyone in the workspace" : `Group · ${memberCount} members`) : "Direct chat"}</p>
      </div>
      <Link to={`/chat/${room.id}`} className={buttonClass("secondary")} data-testid="refresh">
        Refresh
      </Link>
    </div>
  );
}

type MessagesProps = {
  roomId: string;
  messages: Route.ComponentProps["loaderData"]["messages"];
  me: string;
  canSend: boolean;
  isOlderPage: boolean;
  children: ReactNode;
};

/** The messages as the server renders them; after hydration, on the newest page, the live room takes over. */
function Messages({ roomId, messages, me, canSend, isOlderPage, children }: MessagesProps) {
  const hydrated = useHydrated();
  const still = (
    <StaticRoom roomId={roomId} messages={messages} me={me} canSend={canSend} live={!isOlderPage}>
      {children}
    </StaticRoom>
  );
  if (!hydrated || isOlderPage) return still;
  return (
    <Suspense fallback={still}>
      <LiveRoom roomId={roomId} me={me} initial={messages} live canSend={canSend}>
        {children}
      </LiveRoom>
    </Suspense>
  );
}

function SendForm({ roomId, clientId, error, text }: { roomId: string; clientId: string; error?: string; text: string | string[] | undefined }) {
  return (
    <Form method="post" className="space-y-2" data-testid="send-form" id="send-form">
      <input type="hidden" name="clientId" value={clientId} />
      <Field
        id="message-text"
        label="Message"
        error={error}
        hint={`Plain text, up to ${MESSAGE_MAX_CHARS.toLocaleString("en-GB")} characters. Type @ and a name to mention someone.`}
      >
        <textarea
          id="message-text"
          name="text"
          rows={3}
          maxLength={MESSAGE_MAX_CHARS}
          className={inputClass}
          defaultValue={typeof text === "string" ? text : ""}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? "message-text-error message-text-description" : "message-text-description"}
        />
      </Field>
      <div className="flex flex-wrap items-center gap-2">
        <SubmitButton name="intent" value="send" pendingText="Sending…">
          Send
        </SubmitButton>
        {/* Takes the text typed so far to the page that finds files to link to. */}
        <button type="submit" formMethod="get" formAction={`/chat/${roomId}/attach`} className={buttonClass("secondary")} data-testid="attach">
          Attach files…
        </button>
      </div>
    </Form>
  );
}

export function meta({ loaderData }: Route.MetaArgs) {
  return [{ title: loaderData ? `${loaderData.room.name} · Chat` : "Chat" }];
}
