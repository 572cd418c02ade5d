/**
 * The modules a tenant can switch on: id, label, route, icon and default configuration, and the
 * scope anyone entering the module holds (`entryScope`, when it has one): the guard checks it on
 * every page and action of the module, and the navigation shows the module only to its holders.
 */
export const MODULE_CATALOGUE = [
  { id: "cis", label: "CIS", route: "/cis", icon: "hard-hat", defaultConfig: {}, sortOrder: 10 },
  { id: "files", label: "Files", route: "/files", icon: "folder", defaultConfig: {}, sortOrder: 20, entryScope: "files.view" },
  { id: "notes", label: "Notes", route: "/notes/all", icon: "notebook", defaultConfig: {}, sortOrder: 30 },
  { id: "calendar", label: "Calendar", route: "/schedule", icon: "calendar", defaultConfig: {}, sortOrder: 40 },
  { id: "chat", label: "Chat", route: "/chat", icon: "message-circle", defaultConfig: {}, sortOrder: 50 },
] as const;

export type ModuleId = (typeof MODULE_CATALOGUE)[number]["id"];
