// Public surface of the portal feature: shared code and types, safe on client and server (no *.server module).
// Other code imports this feature only through here or index.server.ts (ADR 0049, checked by `npm run lint`).
// The route fragment (routes.config.ts) is not exported here: app/routes.ts reads it directly, and
// exporting it would bring the route-config helpers into every page's JavaScript.
export {};
