import type { RouterContextProvider } from "react-router";
import { can } from "~/features/auth";
import { requireFiles, type FilesRequest } from "../module.server";
import { SIGNATURE_SCOPES } from "./signature-rules";
import type { SignatureActor } from "./signatures.server";

type Ctx = Readonly<RouterContextProvider>;

/**
 * Every signature loader and action starts here: the Files module and files.view (requireFiles),
 * then the signature scope the page or action needs, checked on the server (403, audited).
 */
export async function requireSignatures(
  request: Request,
  context: Ctx,
  scope: (typeof SIGNATURE_SCOPES)[keyof typeof SIGNATURE_SCOPES],
  message?: string,
): Promise<FilesRequest & { actor: SignatureActor }> {
  const req = await requireFiles(request, context, scope, message);
  return { ...req, actor: { ...req.viewer, manageSignatures: can(req.user, SIGNATURE_SCOPES.manage) } };
}

export function signaturePerms(user: FilesRequest["user"]) {
  return {
    view: can(user, SIGNATURE_SCOPES.view),
    create: can(user, SIGNATURE_SCOPES.create),
    sign: can(user, SIGNATURE_SCOPES.sign),
    manage: can(user, SIGNATURE_SCOPES.manage),
  };
}
