import type { ScopeInfo } from "~/features/auth";

/** Every notes scope. */
export const NOTES_SCOPES = [
  "notes.view",
  "notes.create",
  "notes.edit",
  "notes.delete",
  "notes.share",
  "notes.manage_all",
  "notes.folders.create",
  "notes.folders.manage",
] as const;

export type NotesScope = (typeof NOTES_SCOPES)[number];

/** What the role permissions page shows beside each notes scope. */
export const NOTES_SCOPE_INFO: Readonly<Record<NotesScope, ScopeInfo>> = {
  "notes.view": { name: "View notes", description: "Open the notes module and read their own notes and the notes shared with them." },
  "notes.create": { name: "Create notes", description: "Write new notes and keep drafts of them." },
  "notes.edit": { name: "Edit notes", description: "Change their own notes, and notes shared with them." },
  "notes.delete": { name: "Delete notes", description: "Move their own notes to the trash, restore them and delete them for good." },
  "notes.share": { name: "Share notes", description: "Share their own notes with other members of the workspace." },
  "notes.manage_all": { name: "Manage all notes", description: "Read, change, share and delete every member's notes." },
  "notes.folders.create": { name: "Create note folders", description: "Add folders to file notes in." },
  "notes.folders.manage": { name: "Manage note folders", description: "Rename and delete note folders (their notes move out, nothing is lost)." },
};

export const NOTES_SCOPE_REGISTRATION = {
  prefix: "notes.",
  scopes: NOTES_SCOPES,
  info: NOTES_SCOPE_INFO,
} as const;
