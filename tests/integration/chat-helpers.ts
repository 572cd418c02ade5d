import { expect } from "vitest";
import type { ServerFrame } from "~/features/chat";
import type { TestTenant } from "../factories";
import type { Browser } from "./http";

/** One end of a live socket, as the browser's client holds it. */
export class Socket {
  frames: ServerFrame[] = [];
  closed: Promise<{ code: number }>;
  private waiters: (() => void)[] = [];
  constructor(readonly ws: WebSocket) {
    ws.accept();
    ws.addEventListener("message", (e) => {
      this.frames.push(JSON.parse(String(e.data)) as ServerFrame);
      for (const w of this.waiters.splice(0)) w();
    });
    this.closed = new Promise((resolve) => ws.addEventListener("close", (e) => resolve({ code: e.code })));
  }
  send(frame: unknown) {
    this.ws.send(JSON.stringify(frame));
  }
  /** Waits until `pred` holds over the frames received (or fails after `ms`). */
  async until(pred: (frames: ServerFrame[]) => boolean, ms = 5000): Promise<ServerFrame[]> {
    const end = Date.now() + ms;
    while (!pred(this.frames)) {
      if (Date.now() > end) throw new Error(`timed out; frames: ${JSON.stringify(this.frames)}`);
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, 50);
      });
    }
    return this.frames;
  }
  messages(): string[] {
    return this.frames.flatMap((f) => (f.type === "message" ? [f.message.text] : []));
  }
}

/** The upgrade request a page's script makes for a room's socket. */
export async function upgrade(b: Browser, t: TestTenant, roomId: string, opts: { origin?: string; since?: number } = {}): Promise<Response> {
  const q = opts.since ? `?since=${opts.since}` : "";
  return b.get(`${t.origin}/chat/${roomId}/socket${q}`, { headers: { Upgrade: "websocket", Origin: opts.origin ?? t.origin } });
}

/** A connected socket, once the room said it is ready. */
export async function connect(b: Browser, t: TestTenant, roomId: string, opts: { since?: number } = {}): Promise<Socket> {
  const res = await upgrade(b, t, roomId, opts);
  expect(res.status).toBe(101);
  const s = new Socket(res.webSocket!);
  await s.until((f) => f.some((x) => x.type === "ready"));
  return s;
}
