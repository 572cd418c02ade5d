import { data } from "react-router";
import { redirectWithToast } from "~/features/platform/index.server";
import { submitOnce } from "~/features/platform/index.server";
import { requireModule } from "~/features/auth/index.server";
import { signatureActorOf, signatureRequestScope } from "../access.server";
import { SIGNATURE_MESSAGES, SIGNATURE_SCOPES, SUBCONTRACTOR_SIGNER_PREFIX } from "../signature-rules";
import { subcontractorSignersFor } from "../subcontractor-signers.server";
import { requestForm } from "../schemas";
import { requestSignature, type SignatureErrorCode, type SignerRef } from "../signatures.server";
import type { Route } from "./+types/request";

const REFUSALS: Record<SignatureErrorCode, string> = {
  not_found: SIGNATURE_MESSAGES.documentNotFound,
  not_pdf: SIGNATURE_MESSAGES.notPdf,
  not_owner: "Only the file's owner can request a signature",
  self_sign: "You cannot ask yourself to sign",
  signer_not_found: "Choose a team member to sign",
  subcontractor_not_found: "Choose an active subcontractor with an e-mail address to sign",
  duplicate: SIGNATURE_MESSAGES.duplicate,
  not_pending: SIGNATURE_MESSAGES.duplicate,
  no_signature: SIGNATURE_MESSAGES.noSignature,
  storage_failed: SIGNATURE_MESSAGES.requestFailed,
};

export async function loader() {
  throw data("Page not found", { status: 404 });
}

/**
 * POST /files/signatures/request (the Request Signature form of a file's page): the outcome is a
 * toast back on that page; another tenant's file, or one the person cannot see, is a 404. It acts
 * once per submission key: a repeated post answers with the first outcome and sends nothing.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const { env, tenant, user } = await requireModule(request, context, {
    module: "files",
    scope: SIGNATURE_SCOPES.create,
    message: SIGNATURE_MESSAGES.noCreatePermission,
  });
  const actor = signatureActorOf(user);
  const raw = await request.formData();
  const parsed = requestForm.safeParse({ fileId: raw.get("fileId"), signerId: raw.get("signerId") ?? "" });
  if (!parsed.success) throw data("Bad request", { status: 400 });
  const { fileId, signerId } = parsed.data;
  const signer: SignerRef = signerId.startsWith(SUBCONTRACTOR_SIGNER_PREFIX)
    ? { kind: "subcontractor", id: signerId.slice(SUBCONTRACTOR_SIGNER_PREFIX.length) }
    : { kind: "user", id: signerId };
  const origin = new URL(request.url).origin;
  const back = `/files/file/${fileId}`;
  const subcontractors = subcontractorSignersFor(tenant, user);
  const sent = await submitOnce(env, raw, signatureRequestScope(tenant.id, actor.id, fileId), (claim) =>
    requestSignature(env, tenant, actor, { fileId, signer, subcontractors, origin, claim }),
  );
  if (sent.kind === "refused" || sent.kind === "pending") return redirectWithToast(env, back, { type: "error", title: sent.message });
  const res = sent.result;
  if (!res.ok && res.code === "not_found") throw data(SIGNATURE_MESSAGES.documentNotFound, { status: 404 });
  if (!res.ok) return redirectWithToast(env, back, { type: "error", title: REFUSALS[res.code] });
  return redirectWithToast(env, back, { type: "success", title: SIGNATURE_MESSAGES.requestSent });
}
