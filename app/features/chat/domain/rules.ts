/**
 * The chat's pure rules: message limits, read times, rate limits, mentions and links. Client-safe.
 */

/** A message is plain text of at most this many characters (after trimming). */
export const MESSAGE_MAX_CHARS = 4000;
/** A group's name. */
export const ROOM_NAME_MAX_CHARS = 80;
/** Marking a room read sets the read time this far ahead of now. */
export const READ_AHEAD_MS = 5_000;
/** Each person may send at most RATE_LIMIT_MESSAGES messages in any RATE_LIMIT_WINDOW_MS. */
export const RATE_LIMIT_MESSAGES = 30;
export const RATE_LIMIT_WINDOW_MS = 60_000;
/** Messages per page of a room. */
export const PAGE_SIZE = 50;
/** A message links to at most this many files. */
export const MAX_MESSAGE_FILES = 5;
/** The live client sends a typing indicator at most this often while someone types. */
export const TYPING_INTERVAL_MS = 3_000;
/** The room passes on at most one typing indicator per socket in this time (a little under the client's interval). */
export const TYPING_MIN_GAP_MS = 2_000;
/** Unread counts stop at this (shown as "99+"). */
export const UNREAD_CAP = 100;

export const CHAT_ERRORS = {
  empty: "Write a message before sending.",
  too_long: `A message can be at most ${MESSAGE_MAX_CHARS.toLocaleString("en-GB")} characters.`,
  rate_limited: "You are sending messages too quickly. Wait a minute and try again.",
  not_found: "This chat does not exist or you are no longer in it.",
  not_admin: "Only the group's admins can do that.",
  name_required: "Give the group a name.",
  name_too_long: `A group name can be at most ${ROOM_NAME_MAX_CHARS} characters.`,
  members_required: 'Choose at least one person, or "Everyone".',
  unknown_person: "That person is not in this workspace.",
  not_yours: "You can only change your own messages.",
  everyone_group: "Everyone in the workspace is in this group; members cannot be added, removed or leave.",
  direct_chat: "A direct chat has no members to change.",
  last_admin: "A group needs an admin: make someone else admin before leaving.",
  file_unavailable: "A file you chose is not one you can see in Files. Choose it again from the list.",
  too_many_files: `Attach at most ${MAX_MESSAGE_FILES} files to one message.`,
  last_admin_role: "A group needs an admin: make someone else admin first.",
} as const;
export type ChatError = keyof typeof CHAT_ERRORS;

export type TextCheck = { ok: true; text: string } | { ok: false; code: "empty" | "too_long" };

/** A message's text as stored: trimmed, line endings unified, not empty and within the limit. */
export function checkMessageText(raw: unknown): TextCheck {
  const text = typeof raw === "string" ? raw.replace(/\r\n?/g, "\n").trim() : "";
  if (!text) return { ok: false, code: "empty" };
  if ([...text].length > MESSAGE_MAX_CHARS) return { ok: false, code: "too_long" };
  return { ok: true, text };
}

/** The key that makes a direct chat between two people unique whoever starts it. */
export function directKey(a: string, b: string): string {
  return [a, b].sort().join(":");
}

/** The read time stored when someone marks a room read at `now`. */
export function readTimeFor(now: number): number {
  return now + READ_AHEAD_MS;
}

/** "99+" past the cap, the number otherwise, nothing for zero. */
export function unreadLabel(count: number): string {
  if (count <= 0) return "";
  return count >= UNREAD_CAP ? `${UNREAD_CAP - 1}+` : String(count);
}

/**
 * The people a message mentions: `@` followed by the start of someone's display name (or the
 * part of their e-mail address before the @), matched case-insensitively at a word boundary. The
 * longest name wins, so "@Sam Jones" mentions Sam Jones rather than Sam.
 */
export function mentionedPeople<P extends { id: string; displayName: string; email: string }>(text: string, people: readonly P[]): P[] {
  const lower = text.toLowerCase();
  const found = new Map<string, P>();
  const handles = people
    .flatMap((p) => [p.displayName, p.email.split("@")[0] ?? ""].filter((h) => h.trim().length >= 2).map((h) => ({ p, h: h.toLowerCase() })))
    .sort((a, b) => b.h.length - a.h.length);
  let at = lower.indexOf("@");
  while (at !== -1) {
    const before = at === 0 ? " " : lower[at - 1]!;
    if (!/[\p{L}\p{N}._-]/u.test(before)) {
      const rest = lower.slice(at + 1);
      const hit = handles.find(({ h }) => rest.startsWith(h) && !/[\p{L}\p{N}]/u.test(rest[h.length] ?? " "));
      if (hit) found.set(hit.p.id, hit.p);
    }
    at = lower.indexOf("@", at + 1);
  }
  return [...found.values()];
}

export type TextPart = { kind: "text"; text: string } | { kind: "link"; text: string; href: string };

/**
 * A message cut into text and links. Only http(s) addresses become links (never javascript: or
 * data:); trailing punctuation stays text. The page renders every part as escaped text.
 */
export function linkify(text: string): TextPart[] {
  const parts: TextPart[] = [];
  const re = /\bhttps?:\/\/[^\s<>"']+/gi;
  let last = 0;
  for (const m of text.matchAll(re)) {
    let url = m[0];
    const trail = /[.,;:!?)\]]+$/.exec(url);
    if (trail) url = url.slice(0, -trail[0].length);
    let href: string | null = null;
    try {
      const parsed = new URL(url);
      if (parsed.protocol === "http:" || parsed.protocol === "https:") href = parsed.toString();
    } catch {
      href = null;
    }
    if (!href) continue;
    if (m.index > last) parts.push({ kind: "text", text: text.slice(last, m.index) });
    parts.push({ kind: "link", text: url, href });
    last = m.index + url.length;
  }
  if (last < text.length) parts.push({ kind: "text", text: text.slice(last) });
  return parts;
}

/** A page cursor: the oldest message shown, as "createdAt.id". */
export function encodeCursor(m: { createdAt: number; id: string }): string {
  return `${m.createdAt}.${m.id}`;
}

export function decodeCursor(raw: string | null | undefined): { createdAt: number; id: string } | null {
  const m = /^(\d{1,15})\.([A-Za-z0-9_-]{1,80})$/.exec(raw ?? "");
  return m ? { createdAt: Number(m[1]), id: m[2]! } : null;
}

/** What the live socket carries, both ways. */
export type ClientFrame =
  | { type: "send"; clientId: string; text: string }
  | { type: "edit"; id: string; text: string }
  | { type: "delete"; id: string }
  | { type: "typing" }
  | { type: "read" };

/** A change to one's own message, from a socket or a page's form. */
export type MessageChange = { type: "edit"; id: string; text: string } | { type: "delete"; id: string };

/** A file a message links to, as one reader sees it: its name and size if they may see it now, else null. */
export type MessageFile = { id: string; file: { name: string; size: number } | null };

export type WireMessage = {
  id: string;
  clientId: string;
  senderId: string;
  senderName: string;
  text: string;
  createdAt: number;
  editedAt: number | null;
  deletedAt: number | null;
  /** How many files it links to; `files` is there when they were read for this reader (the page, not a broadcast). */
  fileCount: number;
  files?: MessageFile[];
};

export type ServerFrame =
  | { type: "ready" }
  | { type: "message"; message: WireMessage }
  | { type: "edited"; message: WireMessage }
  | { type: "deleted"; id: string; deletedAt: number }
  | { type: "typing"; userId: string; name: string }
  | { type: "read"; userId: string; name: string; at: number }
  | { type: "error"; code: ChatError; clientId?: string };

const CLIENT_ID = /^[A-Za-z0-9_-]{8,64}$/;

/** A frame a socket sent, or null when it is not one we know. */
export function parseClientFrame(raw: unknown): ClientFrame | null {
  if (typeof raw !== "string" || raw.length > 20_000) return null;
  let v: unknown;
  try {
    v = JSON.parse(raw);
  } catch {
    return null;
  }
  if (!v || typeof v !== "object") return null;
  const f = v as Record<string, unknown>;
  switch (f.type) {
    case "send":
      return typeof f.clientId === "string" && CLIENT_ID.test(f.clientId) && typeof f.text === "string"
        ? { type: "send", clientId: f.clientId, text: f.text }
        : null;
    case "edit":
      return typeof f.id === "string" && f.id.length <= 80 && typeof f.text === "string" ? { type: "edit", id: f.id, text: f.text } : null;
    case "delete":
      return typeof f.id === "string" && f.id.length <= 80 ? { type: "delete", id: f.id } : null;
    case "typing":
    case "read":
      return { type: f.type };
    default:
      return null;
  }
}

export function isClientId(v: unknown): v is string {
  return typeof v === "string" && CLIENT_ID.test(v);
}
