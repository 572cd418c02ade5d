import type { SessionUser } from "~/context";
import { can } from "~/features/auth";
import { viewerOf } from "../module.server";
import { SIGNATURE_SCOPES } from "./signature-rules";
import type { SignatureActor } from "./signatures.server";

/** The person as the signature code sees them: the files viewer, and whether they manage every request. */
export function signatureActorOf(user: SessionUser): SignatureActor {
  return { ...viewerOf(user), manageSignatures: can(user, SIGNATURE_SCOPES.manage) };
}

/** Asking for a signature e-mails the signer: once per submission key (bound to the file). */
export function signatureRequestScope(tenantId: string, userId: string, fileId: string) {
  return { tenantId, userId, action: `files.signature.request:${fileId}` };
}

export function signaturePerms(user: SessionUser) {
  return {
    view: can(user, SIGNATURE_SCOPES.view),
    create: can(user, SIGNATURE_SCOPES.create),
    sign: can(user, SIGNATURE_SCOPES.sign),
    manage: can(user, SIGNATURE_SCOPES.manage),
  };
}
