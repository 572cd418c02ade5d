import type { ReactNode } from "react";
import { Link } from "react-router";
import type { WireMessage } from "../domain/rules";
import { MessageText } from "./message-text";

/**
 * en-GB date and time in London, like the app's formatDateTime, from the browser's own Intl:
 * the room page then carries no date library in its first load.
 */
const LONDON_TIME = new Intl.DateTimeFormat("en-GB", {
  timeZone: "Europe/London",
  day: "2-digit",
  month: "2-digit",
  year: "numeric",
  hour: "2-digit",
  minute: "2-digit",
  hourCycle: "h23",
});

export function chatTime(ms: number): string {
  return Number.isFinite(ms) ? LONDON_TIME.format(new Date(ms)) : "N/A";
}

/** The pages that edit and delete one's own message (they work without JavaScript). */
export const messagePath = (roomId: string, id: string, page: "edit" | "delete") => `/chat/${roomId}/messages/${id}/${page}`;

type ItemProps = { roomId: string; m: WireMessage; me: string; canSend: boolean; body?: ReactNode; edit?: ReactNode };

/**
 * One message: who, when, edited or deleted, its text (or `body` while it is being edited), and
 * the sender's Edit and Delete links (`edit` replaces the Edit link, for the live room's own editor).
 */
export function MessageItem({ roomId, m, me, canSend, body, edit }: ItemProps) {
  const mine = m.senderId === me;
  const sent = chatTime(m.createdAt);
  return (
    <li data-testid="message" data-client-id={m.clientId} id={`m-${m.id}`} className={`rounded-brand border border-line p-3 ${mine ? "bg-surface" : ""}`}>
      <p className="flex flex-wrap items-baseline gap-x-2 text-xs">
        <span className="font-semibold">{mine ? "You" : m.senderName}</span>
        <span className="opacity-70">{sent}</span>
        {m.editedAt && !m.deletedAt ? <span className="opacity-70">(edited)</span> : null}
      </p>
      {m.deletedAt ? <p className="italic opacity-70">Message deleted</p> : (body ?? <MessageText text={m.text} />)}
      {m.fileCount > 0 ? <MessageFiles roomId={roomId} m={m} /> : null}
      {mine && !m.deletedAt && canSend && !body ? (
        <div className="mt-1 flex gap-3 text-xs">
          {edit ?? (
            <Link to={messagePath(roomId, m.id, "edit")} className="underline" aria-label={`Edit your message sent ${sent}`}>
              Edit
            </Link>
          )}
          <Link to={messagePath(roomId, m.id, "delete")} className="underline" aria-label={`Delete your message sent ${sent}`}>
            Delete
          </Link>
        </div>
      ) : null}
    </li>
  );
}

/**
 * The files a message links to, as this reader may see them: a link to the file's own page (which
 * checks again), or "File not available". A message that arrived live names no files (each reader
 * may see different ones), so it says how many there are until the page is loaded.
 */
function MessageFiles({ roomId, m }: { roomId: string; m: WireMessage }) {
  if (!m.files) {
    return (
      <p className="mt-1 text-xs" data-testid="message-files-unread">
        {m.fileCount === 1 ? "1 attached file" : `${m.fileCount} attached files`}:{" "}
        <a href={`/chat/${roomId}#m-${m.id}`} className="underline">
          Refresh to see {m.fileCount === 1 ? "it" : "them"}
        </a>
      </p>
    );
  }
  return (
    <ul className="mt-1 space-y-1 text-sm" aria-label="Attached files" data-testid="message-files">
      {m.files.map((f) =>
        f.file ? (
          <li key={f.id}>
            <Link to={`/files/file/${f.id}`} className="underline [overflow-wrap:anywhere]" data-testid="message-file">
              {f.file.name}
            </Link>
          </li>
        ) : (
          <li key={f.id} className="italic opacity-70" data-testid="message-file-unavailable">
            File not available
          </li>
        ),
      )}
    </ul>
  );
}

/** The room as the server renders it (and as it stays without JavaScript, or until the live part loads). */
export function StaticRoom({
  roomId,
  messages,
  me,
  canSend,
  live,
  children,
}: {
  roomId: string;
  messages: readonly WireMessage[];
  me: string;
  canSend: boolean;
  live: boolean;
  children: ReactNode;
}) {
  return (
    <div className="space-y-4">
      {live ? (
        <p className="text-xs opacity-70" data-testid="live-status" data-status="static">
          Use Refresh to see new messages.
        </p>
      ) : null}
      {messages.length === 0 ? (
        <p className="rounded-brand border border-dashed border-line p-6 text-center" data-testid="no-messages">
          No messages yet. Say hello.
        </p>
      ) : (
        <ol className="space-y-3" aria-label="Messages, oldest first" data-testid="messages">
          {messages.map((m) => (
            <MessageItem key={m.id} roomId={roomId} m={m} me={me} canSend={canSend} />
          ))}
          <li id="latest" aria-hidden="true" />
        </ol>
      )}
      {children}
    </div>
  );
}
