import { data, Form, Link, redirect } from "react-router";
import { SubmitButton } from "~/components/ui/button";
import { Field, inputClass } from "~/components/ui/field";
import { can } from "~/features/auth";
import { requireModule } from "~/features/auth/index.server";
import { formatDateTime } from "~/utils/dates";
import { actorOf } from "../actor.server";
import { chatHome, createGroup, openDirectChat } from "../chat.server";
import { CHAT_ERRORS, ROOM_NAME_MAX_CHARS, unreadLabel, type ChatError } from "../domain/rules";
import { formFields, homeFormSchema } from "../forms.server";
import type { Route } from "./+types/index";

/** The person's chats, newest activity first, with unread counts; forms to start a chat or a group. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { env, tenant, user } = await requireModule(request, context, { module: "chat" });
  const { rooms, people } = await chatHome(env, tenant.id, user.id);
  return {
    rooms: rooms.map((r) => ({ ...r, when: formatDateTime(r.lastActivityAt) })),
    people: people.filter((p) => p.id !== user.id),
    canSend: can(user, "chat.send"),
  };
}

type GroupErrors = Partial<Record<"name" | "members" | "userId", string>>;

export async function action({ request, context }: Route.ActionArgs) {
  const rc = await requireModule(request, context, { module: "chat", scope: "chat.send" });
  const fields = formFields(await request.formData());
  const parsed = homeFormSchema.safeParse(fields);
  if (!parsed.success) throw data("Bad request", { status: 400 });
  const actor = actorOf(rc);
  if (parsed.data.intent === "direct") {
    const res = await openDirectChat(rc.env, actor, parsed.data.userId);
    if (res.ok) return redirect(`/chat/${res.value}`);
    return data({ form: "direct" as const, errors: { userId: CHAT_ERRORS[res.code] } as GroupErrors, values: fields }, { status: 400 });
  }
  const res = await createGroup(rc.env, actor, { name: parsed.data.name, everyone: parsed.data.everyone === "on", memberIds: parsed.data.members });
  if (res.ok) return redirect(`/chat/${res.value}`);
  return data({ form: "group" as const, errors: { [groupField(res.code)]: CHAT_ERRORS[res.code] } as GroupErrors, values: fields }, { status: 400 });
}

function groupField(code: ChatError): keyof GroupErrors {
  return code === "name_required" || code === "name_too_long" ? "name" : "members";
}

// eslint-disable-next-line max-lines-per-function -- chat feature, reworked by its owner in parallel
export default function ChatHome({ loaderData, actionData }: Route.ComponentProps) {
  const { rooms, people, canSend } = loaderData;
  const errors: GroupErrors = actionData?.errors ?? {};
  const values = actionData?.values ?? {};
  const chosen = new Set(Array.isArray(values.members) ? values.members : []);
  return (
    <div className="grid gap-8 md:grid-cols-[2fr_1fr]">
      <section aria-labelledby="chats-heading">
        <h1 id="chats-heading" className="text-2xl font-bold">
          Chat
        </h1>
        {rooms.length === 0 ? (
          <p className="mt-6 rounded-brand border border-dashed border-line p-6 text-center" data-testid="chat-empty">
            No chats yet. Start a direct chat or create a group.
          </p>
        ) : (
          <ul className="mt-4 divide-y divide-line rounded-brand border border-line" aria-label="Chats, newest activity first">
            {rooms.map((r) => (
              <li key={r.id} data-testid="chat-room" data-unread={r.unread}>
                <Link to={`/chat/${r.id}`} className="flex items-center gap-3 p-4 hover:bg-surface">
                  <span className="min-w-0 flex-1">
                    <span className={`block truncate ${r.unread > 0 ? "font-semibold" : ""}`}>{r.name}</span>
                    <span className="block text-xs opacity-70">
                      {r.kind === "direct" ? "Direct chat" : r.everyone ? "Group · everyone" : "Group"} · {r.when}
                    </span>
                  </span>
                  {r.unread > 0 ? (
                    <span className="rounded-full bg-red-600 px-2 text-xs font-semibold leading-5 text-white" data-testid="room-unread">
                      {unreadLabel(r.unread)}
                      <span className="sr-only"> unread</span>
                    </span>
                  ) : null}
                </Link>
              </li>
            ))}
          </ul>
        )}
      </section>
      {canSend ? (
        <aside className="space-y-8">
          <section aria-labelledby="direct-heading">
            <h2 id="direct-heading" className="text-lg font-semibold">
              Start a direct chat
            </h2>
            <Form method="post" className="mt-3 space-y-3">
              <Field id="direct-user" label="Person" error={actionData?.form === "direct" ? errors.userId : null}>
                <select id="direct-user" name="userId" className={inputClass} required defaultValue={typeof values.userId === "string" ? values.userId : ""}>
                  <option value="" disabled>
                    Choose someone
                  </option>
                  {people.map((p) => (
                    <option key={p.id} value={p.id}>
                      {p.displayName}
                    </option>
                  ))}
                </select>
              </Field>
              <SubmitButton name="intent" value="direct" pendingText="Opening…">
                Open chat
              </SubmitButton>
            </Form>
          </section>
          <section aria-labelledby="group-heading">
            <h2 id="group-heading" className="text-lg font-semibold">
              Create a group
            </h2>
            <Form method="post" className="mt-3 space-y-3">
              <Field id="group-name" label="Group name" error={errors.name}>
                <input
                  id="group-name"
                  name="name"
                  className={inputClass}
                  maxLength={ROOM_NAME_MAX_CHARS}
                  defaultValue={typeof values.name === "string" ? values.name : ""}
                  aria-invalid={errors.name ? true : undefined}
                  aria-describedby={errors.name ? "group-name-error" : undefined}
                />
              </Field>
              <fieldset className="space-y-2" aria-describedby={errors.members ? "group-members-error" : undefined}>
                <legend className="text-sm font-medium">Members</legend>
                <label className="flex items-center gap-2 text-sm">
                  <input type="checkbox" name="everyone" defaultChecked={values.everyone === "on"} /> Everyone (all current and future people)
                </label>
                <div className="max-h-56 space-y-1 overflow-y-auto rounded-brand border border-line p-2">
                  {people.map((p) => (
                    <label key={p.id} className="flex items-center gap-2 text-sm">
                      <input type="checkbox" name="members" value={p.id} defaultChecked={chosen.has(p.id)} /> {p.displayName}
                    </label>
                  ))}
                </div>
                {errors.members ? (
                  <p id="group-members-error" className="text-sm text-danger" role="alert">
                    {errors.members}
                  </p>
                ) : null}
              </fieldset>
              <SubmitButton name="intent" value="group" pendingText="Creating…">
                Create group
              </SubmitButton>
            </Form>
          </section>
        </aside>
      ) : null}
    </div>
  );
}

export function meta() {
  return [{ title: "Chat" }];
}
