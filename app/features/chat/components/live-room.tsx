import { useEffect, useRef, useState, type FormEvent, type ReactNode } from "react";
import { CHAT_ERRORS, checkMessageText, TYPING_INTERVAL_MS, type ServerFrame, type WireMessage } from "../domain/rules";
import { MessageItem } from "./message-list";
import { MessageText } from "./message-text";
import { FilePicker, PickedFiles, type PickedFile } from "./file-picker";
import { useChatSocket } from "./use-chat-socket";

const STATUS_TEXT = {
  connecting: "Connecting…",
  live: "Live",
  offline: "Offline: reconnecting. Messages you send now are sent when the connection returns.",
  removed: "You are no longer in this chat.",
} as const;

/**
 * The room's messages, live. The page renders StaticRoom on the server and loads this module after
 * hydration (newest page only), so the first load stays small; from then on new messages, edits, deletions, typing and read receipts arrive over the socket,
 * and the message form sends over it instead of posting (it still posts without JavaScript).
 */
// eslint-disable-next-line max-lines-per-function -- chat feature, reworked by its owner in parallel
export function LiveRoom({
  roomId,
  me,
  initial,
  live,
  canSend,
  children,
}: {
  roomId: string;
  me: string;
  initial: readonly WireMessage[];
  live: boolean;
  canSend: boolean;
  children: ReactNode;
}) {
  const [typing, setTyping] = useState<Record<string, { name: string; until: number }>>({});
  const [reads, setReads] = useState<Record<string, { name: string; at: number }>>({});
  const [error, setError] = useState<string | null>(null);
  const [editing, setEditing] = useState<string | null>(null);
  const [picking, setPicking] = useState(false);
  const [picked, setPicked] = useState<PickedFile[]>([]);
  const lastTyping = useRef(0);
  const lastRead = useRef(0);
  const end = useRef<HTMLLIElement>(null);
  const sendRead = useRef<() => void>(() => undefined);

  const { messages, status, pending, send } = useChatSocket(roomId, initial, live, (frame: ServerFrame) => {
    if (frame.type === "typing" && frame.userId !== me) setTyping((t) => ({ ...t, [frame.userId]: { name: frame.name, until: Date.now() + 4000 } }));
    if (frame.type === "read" && frame.userId !== me) setReads((r) => ({ ...r, [frame.userId]: { name: frame.name, at: frame.at } }));
    if (frame.type === "error") setError(CHAT_ERRORS[frame.code]);
    if (frame.type === "message" && frame.message.senderId !== me) {
      setTyping(({ [frame.message.senderId]: _gone, ...rest }) => rest);
      if (document.visibilityState === "visible" && Date.now() - lastRead.current > 2000) {
        lastRead.current = Date.now();
        sendRead.current();
      }
    }
  });

  useEffect(() => {
    sendRead.current = () => send({ type: "read" });
  });
  useEffect(() => {
    const t = setInterval(() => setTyping((all) => Object.fromEntries(Object.entries(all).filter(([, v]) => v.until > Date.now()))), 1000);
    return () => clearInterval(t);
  }, []);
  useEffect(() => {
    end.current?.scrollIntoView({ block: "nearest" });
  }, [messages.length, pending.length]);

  const onLive = live && status !== "removed";

  const onSubmit = (event: FormEvent<HTMLDivElement>) => {
    const form = event.target as HTMLFormElement;
    if (!onLive || form.id !== "send-form") return;
    // "Attach files…" opens the picker here instead of going to the attach page.
    const submitter = (event.nativeEvent as SubmitEvent).submitter;
    if (submitter?.getAttribute("formmethod") === "get") {
      event.preventDefault();
      setPicking(true);
      return;
    }
    const box = form.elements.namedItem("text") as HTMLTextAreaElement | null;
    if (!box) return;
    if (picked.length > 0) {
      // With files the form posts as it does without JavaScript (the page shows each reader what they may see).
      setTimeout(() => {
        box.value = "";
        setPicked([]);
        setPicking(false);
      });
      return;
    }
    event.preventDefault();
    const checked = checkMessageText(box.value);
    if (!checked.ok) {
      setError(CHAT_ERRORS[checked.code]);
      return;
    }
    setError(null);
    send({ type: "send", clientId: crypto.randomUUID(), text: checked.text });
    box.value = "";
  };

  const onInput = () => {
    if (!onLive || Date.now() - lastTyping.current < TYPING_INTERVAL_MS) return;
    lastTyping.current = Date.now();
    send({ type: "typing" });
  };

  const lastAt = messages.at(-1)?.createdAt ?? 0;
  const seenBy = Object.values(reads)
    .filter((r) => r.at >= lastAt)
    .map((r) => r.name);
  const typingNames = Object.values(typing).map((t) => t.name);

  return (
    // Capture: the message form is a router <Form>, whose own handler would post it; sending over
    // the socket instead must claim the event before it does.
    <div className="space-y-4" onSubmitCapture={onSubmit} onInput={onInput}>
      {live ? (
        <p className="text-xs opacity-70" data-testid="live-status" data-status={status} aria-live="polite">
          {STATUS_TEXT[status]}
        </p>
      ) : null}
      {messages.length === 0 && pending.length === 0 ? (
        <p className="rounded-brand border border-dashed border-line p-6 text-center" data-testid="no-messages">
          No messages yet. Say hello.
        </p>
      ) : (
        <ol className="space-y-3" aria-label="Messages, oldest first" data-testid="messages">
          {messages.map((m) => (
            <MessageItem
              key={m.id}
              roomId={roomId}
              m={m}
              me={me}
              canSend={canSend}
              body={
                editing === m.id ? (
                  <EditForm
                    text={m.text}
                    onCancel={() => setEditing(null)}
                    onSave={(text) => {
                      send({ type: "edit", id: m.id, text });
                      setEditing(null);
                    }}
                  />
                ) : undefined
              }
              edit={
                onLive ? (
                  <button type="button" className="underline" onClick={() => setEditing(m.id)}>
                    Edit
                  </button>
                ) : undefined
              }
            />
          ))}
          {pending.map((p) => (
            <li key={p.clientId} data-testid="pending-message" className="rounded-brand border border-dashed border-line p-3 opacity-80">
              <p className="text-xs font-semibold">You · sending…</p>
              <MessageText text={p.text} />
            </li>
          ))}
          <li ref={end} id="latest" aria-hidden="true" />
        </ol>
      )}
      {seenBy.length > 0 ? (
        <p className="text-xs opacity-70" data-testid="seen-by">
          Seen by {seenBy.join(", ")}
        </p>
      ) : null}
      <p className="min-h-4 text-xs opacity-70" aria-live="polite" data-testid="typing">
        {typingNames.length > 0 ? `${typingNames.join(", ")} ${typingNames.length === 1 ? "is" : "are"} typing…` : ""}
      </p>
      {error ? (
        <p className="text-sm text-danger" role="alert" data-testid="live-error">
          {error}
        </p>
      ) : null}
      {picking ? <FilePicker roomId={roomId} chosen={picked} onChange={setPicked} onClose={() => setPicking(false)} /> : null}
      <PickedFiles chosen={picked} onRemove={(id) => setPicked((all) => all.filter((f) => f.id !== id))} />
      {children}
    </div>
  );
}

function EditForm({ text, onSave, onCancel }: { text: string; onSave: (text: string) => void; onCancel: () => void }) {
  const [value, setValue] = useState(text);
  return (
    <div className="mt-1 space-y-2">
      <label className="sr-only" htmlFor="edit-message">
        Edit message
      </label>
      <textarea
        id="edit-message"
        className="block w-full rounded-brand border border-line bg-primary-bg p-2 text-sm"
        value={value}
        onChange={(e) => setValue(e.target.value)}
      />
      <div className="flex gap-2 text-sm">
        <button type="button" className="underline" onClick={() => checkMessageText(value).ok && onSave(value)}>
          Save
        </button>
        <button type="button" className="underline" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </div>
  );
}
