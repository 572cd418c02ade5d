import { Link } from "react-router";
import { can } from "~/features/auth";
import { requireModule } from "~/features/auth/index.server";
import { formatDateTime } from "~/utils/dates";
import { chatHome } from "../chat.server";
import { unreadLabel } from "../domain/rules";
import type { Route } from "./+types/index";

/** The person's chats, newest activity first, with unread counts. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { env, tenant, user } = await requireModule(request, context, { module: "chat" });
  const { rooms } = await chatHome(env, tenant.id, user.id);
  return { rooms: rooms.map((r) => ({ ...r, when: formatDateTime(r.lastActivityAt) })), canSend: can(user, "chat.send") };
}

export default function ChatHome({ loaderData }: Route.ComponentProps) {
  const { rooms, canSend } = loaderData;
  return (
    <section aria-labelledby="chats-heading" className="max-w-3xl">
      <h1 id="chats-heading" className="text-2xl font-bold">
        Chats
      </h1>
      {rooms.length === 0 ? (
        <p className="mt-6 rounded-brand border border-dashed border-line p-6 text-center" data-testid="chat-empty">
          No chats yet.
          {canSend ? (
            <>
              {" "}
              <Link to="/chat/new" className="underline">
                Start a direct chat
              </Link>{" "}
              or{" "}
              <Link to="/chat/new-group" className="underline">
                create a group
              </Link>
              .
            </>
          ) : null}
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
  );
}

export function meta() {
  return [{ title: "Chat" }];
}
