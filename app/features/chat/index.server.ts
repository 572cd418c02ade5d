// Public surface of the chat feature for server code (the room's Durable Object, the composition root).
// Other code imports this feature only through here or index.ts (ADR 0049, checked by `npm run lint`).
export { chatServer } from "./register.server";
export { deleteMessage, editMessage, markRead, sendMessage, type ChatActor, type ChatResult, type Sent } from "./chat.server";
export { chatRoomStub, identityFrom, messagesSince, type SocketIdentity } from "./live.server";
export { parseClientFrame, TYPING_MIN_GAP_MS, type ClientFrame, type MessageChange, type ServerFrame } from "./domain/rules";
