// Public surface of the schedule (calendar) feature for server code.
// Other code imports this feature only through here or index.ts (ADR 0049, checked by `npm run lint`).
export { visibleEvents, type ScheduleViewer } from "./visibility.server";
export { teamAndSiteNamesOfUsers } from "./groups.server";
export { type ReadOnlyEvent, type ReadOnlySource, registerReadOnlyEvents } from "./read-only-sources.server";
