import { data } from "react-router";
import { fileResponseHeaders } from "../../serve.server";
import { requireModule } from "~/features/auth/index.server";
import { signatureActorOf } from "../access.server";
import { SIGNATURE_MESSAGES, SIGNATURE_SCOPES } from "../signature-rules";
import { requestIdParams } from "../schemas";
import { originalForReview } from "../signatures.server";
import type { Route } from "./+types/document";

/** GET /files/signatures/:id/document: the version asked about, inline for the review step, to its signer and requester only. */
export async function loader({ request, context, params: raw }: Route.LoaderArgs) {
  const { env, tenant, user } = await requireModule(request, context, { module: "files", scope: SIGNATURE_SCOPES.view });
  const actor = signatureActorOf(user);
  const { id } = requestIdParams.parse(raw);
  const doc = await originalForReview(env, tenant.id, actor, id);
  if (!doc) throw data(SIGNATURE_MESSAGES.documentNotFound, { status: 404 });
  const object = await env.FILES.get(doc.key);
  if (!object) throw data(SIGNATURE_MESSAGES.documentNotFound, { status: 404 });
  return new Response(object.body, { headers: fileResponseHeaders({ name: doc.name, mimeType: "application/pdf", size: object.size }, "inline") });
}
