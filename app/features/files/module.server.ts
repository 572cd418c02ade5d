import { data, type RouterContextProvider } from "react-router";
import { cloudflareContext, type SessionUser } from "~/context";
import { requireTenant, requireUser, requireUserWithScope } from "~/features/auth/index.server";
import { can, type Scope } from "~/features/auth";
import type { TenantContextValue } from "~/features/platform/index.server";
import type { Viewer } from "./files.server";

type Ctx = Readonly<RouterContextProvider>;

export type FilesRequest = { env: Env; ctx: ExecutionContext; tenant: TenantContextValue; user: SessionUser; viewer: Viewer };

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

export function hasFilesModule(tenant: Pick<TenantContextValue, "modules">): boolean {
  return tenant.modules.some((m) => m.id === "files");
}

/**
 * Every files loader and action starts here: a tenant host with the Files module, a signed-in
 * staff member holding files.view (and the given scope, checked on the server).
 */
export async function requireFiles(request: Request, context: Ctx, scope?: Scope, message?: string): Promise<FilesRequest> {
  const { env, ctx } = context.get(cloudflareContext);
  const tenant = requireTenant(context);
  if (!hasFilesModule(tenant)) {
    requireUser(request, context);
    throw data("Page not found", { status: 404 });
  }
  const user = await requireUserWithScope(request, context, FILE_SCOPES.view);
  if (scope) await requireUserWithScope(request, context, scope, message);
  return { env, ctx, tenant, user, viewer: viewerOf(user) };
}

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
