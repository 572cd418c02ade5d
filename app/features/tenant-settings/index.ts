// Public surface of the tenant-settings feature: shared code and types, safe on client and server (no *.server module).
// Other code imports this feature only through here or index.server.ts (ADR 0049, checked by `npm run lint`).
export { tenantSettingsRoutes } from "./routes.config";
export { brandingPrefix } from "./logo";
