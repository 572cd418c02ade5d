// Public surface of the notes feature for server code (loaders, actions, jobs, other *.server.ts modules).
// Other code imports this feature only through here or index.ts (ADR 0049, checked by `npm run lint`).
export { notesServer } from "./register.server";
export { purgeExpiredTrash } from "./notes.server";
