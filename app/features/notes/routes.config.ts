import { type RouteConfigEntry, index, layout, prefix, route } from "@react-router/dev/routes";

/** Notes, under /notes. Assembled by app/routes.ts; paths are relative to app/. */
export const notesRoutes: RouteConfigEntry[] = [
  ...prefix("notes", [
    layout("features/notes/routes/layout.tsx", [
      index("features/notes/routes/index.tsx"),
      route("all", "features/notes/routes/list.tsx", { id: "notes-all" }),
      route("shared", "features/notes/routes/list.tsx", { id: "notes-shared" }),
      route("bookmarks", "features/notes/routes/list.tsx", { id: "notes-bookmarks" }),
      route("trash", "features/notes/routes/list.tsx", { id: "notes-trash" }),
      route("folders", "features/notes/routes/folders.tsx", { id: "notes-folders" }),
      route("folders/:folderId", "features/notes/routes/folders.tsx", { id: "notes-folder" }),
      route("new", "features/notes/routes/new.tsx"),
      route(":id", "features/notes/routes/note.tsx"),
      // Any other path under /notes falls back to the all list.
      route("*", "features/notes/routes/index.tsx", { id: "notes-fallback" }),
    ]),
  ]),
];
