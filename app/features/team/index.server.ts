// Public surface of the team feature for server code (loaders, actions, jobs, other *.server.ts modules).
// Other code imports this feature only through here or index.ts (ADR 0049, checked by `npm run lint`).
export { inviteUser } from "./invitations.server";
