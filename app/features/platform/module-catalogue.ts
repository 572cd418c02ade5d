/**
 * The modules a tenant can switch on: id, label, route, icon and default configuration, and the
 * scope anyone entering the module holds (`entryScope`, when it has one): the guard checks it on
 * every page and action of the module, and the navigation shows the module only to its holders. Only a
 * module whose pages exist is listed (tests/integration/registration.test.ts checks each route is
 * served): notes and calendar join when they are built. Rows the `modules` table still
 * holds for a module not listed here are ignored (tenants.server.ts, tenant-settings).
 */
export const MODULE_CATALOGUE = [
  { id: "cis", label: "CIS", route: "/cis", icon: "hard-hat", defaultConfig: {}, sortOrder: 10 },
  { id: "files", label: "Files", route: "/files", icon: "folder", defaultConfig: {}, sortOrder: 20, entryScope: "files.view" },
  { id: "chat", label: "Chat", route: "/chat", icon: "message-circle", defaultConfig: {}, sortOrder: 50, entryScope: "chat.view" },
  { id: "notes", label: "Notes", route: "/notes", icon: "notebook", defaultConfig: {}, sortOrder: 30, entryScope: "notes.view" },
  { id: "schedule", label: "Calendar", route: "/schedule", icon: "calendar", defaultConfig: {}, sortOrder: 40, entryScope: "schedule.view" },
] as const;

export type ModuleId = (typeof MODULE_CATALOGUE)[number]["id"];

/** Whether the code offers this module (a database may list modules from an older catalogue). */
export function isOfferedModule(id: string): id is ModuleId {
  return MODULE_CATALOGUE.some((m) => m.id === id);
}
