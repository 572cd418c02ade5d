// Public surface of the auth feature: shared code and types, safe on client and server (no *.server module).
// Other code imports this feature only through here or index.server.ts (ADR 0049, checked by `npm run lint`).
export { DEFAULT_ROLE_BUNDLES } from "./default-bundles";
export { can, knownScopes, registerScopes, type Scope, scopeGrants, type ScopeHolder, type ScopeInfo, scopeInfo } from "./scopes";
export { type Actor, type ActorAt, actorOf } from "./actor";
