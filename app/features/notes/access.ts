import type { SessionUser } from "~/context";
import { can } from "~/features/auth";

/** The notes scopes by what they allow. */
export const NOTE_SCOPES = {
  view: "notes.view",
  create: "notes.create",
  edit: "notes.edit",
  delete: "notes.delete",
  share: "notes.share",
  manageAll: "notes.manage_all",
  createFolders: "notes.folders.create",
  manageFolders: "notes.folders.manage",
} as const;

/** The person as the notes code sees them: who they are and what their scopes allow. */
export type NoteViewer = {
  id: string;
  email: string;
  name: string;
  create: boolean;
  edit: boolean;
  delete: boolean;
  share: boolean;
  manageAll: boolean;
  createFolders: boolean;
  manageFolders: boolean;
};

export function noteViewerOf(user: SessionUser): NoteViewer {
  return {
    id: user.id,
    email: user.email,
    name: user.displayName,
    create: can(user, NOTE_SCOPES.create),
    edit: can(user, NOTE_SCOPES.edit),
    delete: can(user, NOTE_SCOPES.delete),
    share: can(user, NOTE_SCOPES.share),
    manageAll: can(user, NOTE_SCOPES.manageAll),
    createFolders: can(user, NOTE_SCOPES.createFolders),
    manageFolders: can(user, NOTE_SCOPES.manageFolders),
  };
}

/** What a person may do to one note they can see (its owner, someone it is shared with, or a manager of all notes). */
export function notePermissions(viewer: NoteViewer, note: { ownerId: string }) {
  const mine = note.ownerId === viewer.id || viewer.manageAll;
  return {
    // Someone a note is shared with may change it when they hold notes.edit; deleting and sharing stay with its owner.
    edit: viewer.edit,
    delete: viewer.delete && mine,
    share: viewer.share && mine,
  };
}
