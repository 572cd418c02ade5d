import type { ScopeInfo } from "~/features/auth";

/** The chat's scopes: reading rooms one is in, and writing in them (messages, starting chats, groups). */
export const CHAT_SCOPES = ["chat.view", "chat.send"] as const;
export type ChatScope = (typeof CHAT_SCOPES)[number];

export const CHAT_SCOPE_INFO: Readonly<Record<ChatScope, ScopeInfo>> = {
  "chat.view": { name: "Read chat", description: "Open the chat and read the direct chats and groups they are in." },
  "chat.send": { name: "Send chat messages", description: "Send, edit and delete their own messages, start direct chats and create groups." },
};

/** What the composition root registers with platform auth for the chat. */
export const CHAT_SCOPE_REGISTRATION = {
  prefix: "chat.",
  scopes: CHAT_SCOPES,
  info: CHAT_SCOPE_INFO,
} as const;
