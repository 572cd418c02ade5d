import { data } from "react-router";
import { moduleOn } from "~/features/auth/index.server";
import { requestIdParams } from "~/features/files/index.server";
import { subcontractorReviewDocument } from "~/features/files/index.server";
import { requirePortalModule } from "../portal-auth.server";
import { requirePortalSession } from "../portal-session.server";
import type { Route } from "./+types/signature-document";

/** GET /portal/signatures/{id}/document: the PDF asked about, inline, to the subcontractor asked to sign it only. */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const { env, ctx, tenant } = requirePortalModule(context);
  if (!moduleOn(tenant, "files")) throw data("Page not found", { status: 404 });
  const { subcontractor } = await requirePortalSession(env, ctx, request, tenant.id);
  const { id } = requestIdParams.parse(params);
  const res = await subcontractorReviewDocument(env, tenant.id, subcontractor.id, id);
  if (!res) throw data("Document not found", { status: 404 });
  return res;
}
