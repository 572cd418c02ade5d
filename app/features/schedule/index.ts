// Public surface of the schedule (calendar) feature: shared code and types, safe on client and server (no *.server module).
// Other code imports this feature only through here or index.server.ts (ADR 0049, checked by `npm run lint`).
export { SCHEDULE_SCOPES, type ScheduleScope } from "./domain/scopes";
