import { useEffect, useRef, useState } from "react";
import type { ClientFrame, ServerFrame, WireMessage } from "../domain/rules";

export type ChatConnection = "connecting" | "live" | "offline" | "removed";

/** Reconnect delays: 1 s doubling to 30 s, with up to a second of jitter so a room does not reconnect in step. */
export function backoffMs(attempt: number): number {
  return Math.min(30_000, 1000 * 2 ** Math.min(attempt, 5)) + Math.floor(Math.random() * 1000);
}

/** Puts a message into a list ordered by (createdAt, id), replacing the stored copy of one already there. */
export function mergeMessage(list: readonly WireMessage[], incoming: WireMessage): WireMessage[] {
  // A broadcast names no files (readers differ): keep the ones the page read for this reader.
  const known = list.find((x) => x.id === incoming.id)?.files;
  const m = incoming.files || !known ? incoming : { ...incoming, files: known };
  const rest = list.filter((x) => x.id !== m.id);
  const at = rest.findIndex((x) => x.createdAt > m.createdAt || (x.createdAt === m.createdAt && x.id > m.id));
  return at === -1 ? [...rest, m] : [...rest.slice(0, at), m, ...rest.slice(at)];
}

/**
 * The room's live socket: connects after hydration, reconnects with backoff after sleep or a
 * network change (asking for what it missed since its newest message), and keeps an outbox of
 * messages not yet confirmed, resent on every reconnect under the same client ids, so the room
 * stores each exactly once.
 */
// eslint-disable-next-line max-lines-per-function -- chat feature, reworked by its owner in parallel
export function useChatSocket(roomId: string, initial: readonly WireMessage[], enabled: boolean, onFrame: (f: ServerFrame) => void) {
  const [messages, setMessages] = useState<WireMessage[]>([...initial]);
  const [status, setStatus] = useState<ChatConnection>("connecting");
  const [pending, setPending] = useState<{ clientId: string; text: string }[]>([]);
  const socket = useRef<WebSocket | null>(null);
  const outbox = useRef(new Map<string, string>());
  const newest = useRef(initial.reduce((n, m) => Math.max(n, m.createdAt, m.editedAt ?? 0, m.deletedAt ?? 0), 0));
  const frameHandler = useRef(onFrame);
  frameHandler.current = onFrame;

  // The page read again (after a form post): its copies carry the files as this reader sees them.
  useEffect(() => {
    setMessages((list) => initial.reduce<WireMessage[]>((acc, m) => mergeMessage(acc, m), list));
  }, [initial]);

  useEffect(() => {
    if (!enabled) return;
    let attempt = 0;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let stopped = false;
    const syncPending = () => setPending([...outbox.current].map(([clientId, text]) => ({ clientId, text })));

    const connect = () => {
      if (stopped || (socket.current && socket.current.readyState <= WebSocket.OPEN)) return;
      clearTimeout(timer);
      setStatus("connecting");
      const url = `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/chat/${encodeURIComponent(roomId)}/socket?since=${newest.current}`;
      const ws = new WebSocket(url);
      socket.current = ws;
      ws.onmessage = (event) => {
        let frame: ServerFrame;
        try {
          frame = JSON.parse(String(event.data)) as ServerFrame;
        } catch {
          return;
        }
        if (frame.type === "ready") {
          attempt = 0;
          setStatus("live");
          for (const [clientId, text] of outbox.current) ws.send(JSON.stringify({ type: "send", clientId, text } satisfies ClientFrame));
          return;
        }
        if (frame.type === "message" || frame.type === "edited") {
          const m = frame.message;
          newest.current = Math.max(newest.current, m.createdAt, m.editedAt ?? 0);
          if (outbox.current.delete(m.clientId)) syncPending();
          setMessages((list) => mergeMessage(list, m));
        } else if (frame.type === "deleted") {
          newest.current = Math.max(newest.current, frame.deletedAt);
          setMessages((list) => list.map((x) => (x.id === frame.id ? { ...x, text: "", deletedAt: frame.deletedAt } : x)));
        } else if (frame.type === "error" && frame.clientId && frame.code !== "rate_limited") {
          // Refused for good (too long, empty): drop it from the outbox; the handler shows why.
          if (outbox.current.delete(frame.clientId)) syncPending();
        }
        frameHandler.current(frame);
      };
      ws.onclose = (event) => {
        if (socket.current === ws) socket.current = null;
        if (stopped) return;
        if (event.code === 4403) {
          setStatus("removed");
          stopped = true;
          return;
        }
        setStatus("offline");
        timer = setTimeout(connect, backoffMs(attempt++));
      };
    };

    const wake = () => {
      if (document.visibilityState === "visible" && !socket.current) {
        attempt = 0;
        connect();
      }
    };
    connect();
    window.addEventListener("online", wake);
    document.addEventListener("visibilitychange", wake);
    return () => {
      stopped = true;
      clearTimeout(timer);
      window.removeEventListener("online", wake);
      document.removeEventListener("visibilitychange", wake);
      socket.current?.close(1000, "page left");
      socket.current = null;
    };
  }, [roomId, enabled]);

  const send = (frame: ClientFrame): boolean => {
    const ws = socket.current;
    if (frame.type === "send") {
      outbox.current.set(frame.clientId, frame.text);
      setPending([...outbox.current].map(([clientId, text]) => ({ clientId, text })));
    }
    if (!ws || ws.readyState !== WebSocket.OPEN) return frame.type === "send";
    ws.send(JSON.stringify(frame));
    return true;
  };

  return { messages, status, pending, send };
}
