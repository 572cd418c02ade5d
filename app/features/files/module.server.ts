import type { SessionUser } from "~/context";
import { can, type Scope } from "~/features/auth";
import type { Viewer } from "./files.server";

/** The files area's scopes, by what they allow. */
export const FILE_SCOPES = {
  view: "files.view",
  upload: "files.upload",
  delete: "files.delete",
  share: "files.share",
  manageAll: "files.manage_all",
  createFolders: "files.folders.create",
  manageFolders: "files.folders.manage",
} as const satisfies Record<string, Scope>;

/** The person as the files data code sees them: the actor, and whether they manage every file. */
export function viewerOf(user: SessionUser): Viewer {
  return { id: user.id, email: user.email, name: user.displayName, manageAll: can(user, FILE_SCOPES.manageAll) };
}

/** What the pages may offer this person; the actions check again. */
export function filePerms(user: SessionUser) {
  return {
    upload: can(user, FILE_SCOPES.upload),
    delete: can(user, FILE_SCOPES.delete),
    share: can(user, FILE_SCOPES.share),
    manageAll: can(user, FILE_SCOPES.manageAll),
    createFolders: can(user, FILE_SCOPES.createFolders),
    manageFolders: can(user, FILE_SCOPES.manageFolders),
  };
}
export type FilePerms = ReturnType<typeof filePerms>;
