// Public surface of the chat feature: shared code and types, safe on client and server (no *.server module).
// Other code imports this feature only through here or index.server.ts (ADR 0049, checked by `npm run lint`).
export { CHAT_SCOPE_REGISTRATION, type ChatScope } from "./domain/scopes";
export { CHAT_ERRORS, parseClientFrame, type ChatError, type ClientFrame, type ServerFrame, type WireMessage } from "./domain/rules";
