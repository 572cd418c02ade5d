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
  "notes.view": { name: "View notes", description: "Read their own notes and notes shared with them." },
  "notes.create": { name: "Create notes", description: "Write notes and keep drafts." },
  "notes.edit": { name: "Edit notes", description: "Change their notes and notes shared with them." },
  "notes.delete": { name: "Delete notes", description: "Trash, restore and delete their own notes." },
  "notes.share": { name: "Share notes", description: "Share their own notes with colleagues." },
  "notes.manage_all": { name: "Manage all notes", description: "Everything, on every member's notes." },
  "notes.folders.create": { name: "Create note folders", description: "Add note folders." },
  "notes.folders.manage": { name: "Manage note folders", description: "Rename and delete note folders." },
};

export const NOTES_SCOPE_REGISTRATION = {
  prefix: "notes.",
  scopes: NOTES_SCOPES,
  info: NOTES_SCOPE_INFO,
} as const;
