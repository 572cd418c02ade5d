import { data } from "react-router";
import { z } from "zod";
import { redirectWithToast } from "~/features/platform/index.server";
import { requireSignatures } from "../access.server";
import { SIGNATURE_MESSAGES, SIGNATURE_SCOPES } from "../signature-rules";
import { requestSignature, type SignatureErrorCode } from "../signatures.server";
import type { Route } from "./+types/request";

const form = z.object({ fileId: z.string().min(1).max(100), signerId: z.string().max(100) });

const REFUSALS: Record<SignatureErrorCode, string> = {
  not_found: SIGNATURE_MESSAGES.documentNotFound,
  not_pdf: SIGNATURE_MESSAGES.notPdf,
  not_owner: "Only the file's owner can request a signature",
  self_sign: "You cannot ask yourself to sign",
  signer_not_found: "Choose a team member to sign",
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
 * toast back on that page; another tenant's file, or one the person cannot see, is a 404.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const { env, tenant, actor } = await requireSignatures(request, context, SIGNATURE_SCOPES.create, SIGNATURE_MESSAGES.noCreatePermission);
  const raw = await request.formData();
  const parsed = form.safeParse({ fileId: raw.get("fileId"), signerId: raw.get("signerId") ?? "" });
  if (!parsed.success) throw data("Bad request", { status: 400 });
  const { fileId, signerId } = parsed.data;
  const origin = new URL(request.url).origin;
  const res = await requestSignature(env, tenant.id, actor, { fileId, signerId, signUrl: (id) => `${origin}/files/signatures/${id}` });
  if (!res.ok && res.code === "not_found") throw data(SIGNATURE_MESSAGES.documentNotFound, { status: 404 });
  const back = `/files/file/${fileId}`;
  if (!res.ok) return redirectWithToast(env, back, { type: "error", title: REFUSALS[res.code] });
  return redirectWithToast(env, back, { type: "success", title: SIGNATURE_MESSAGES.requestSent });
}
