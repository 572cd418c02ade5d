import { data } from "react-router";
import { portalStatementPdf } from "~/features/cis/index.server";
import { attachmentHeaders } from "~/features/cis";
import { requirePortalModule } from "../portal-auth.server";
import { requirePortalSession } from "../portal-session.server";
import type { Route } from "./+types/statement-pdf";

const FILE = /^([A-Za-z0-9_-]{1,64})\.pdf$/;

/**
 * GET /portal/statements/{id}.pdf: one of the signed-in subcontractor's issued statements. The
 * subcontractor comes from the portal session; another's statement, or another tenant's, is 404.
 */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const { env, ctx, tenant } = requirePortalModule(context);
  const { subcontractor } = await requirePortalSession(env, ctx, request, tenant.id);
  const id = FILE.exec(params.file ?? "")?.[1];
  const pdf = id ? await portalStatementPdf(env, tenant.id, subcontractor.id, id) : null;
  if (!pdf?.ok) throw data("Statement not found", { status: 404 });
  return new Response(pdf.bytes, { headers: attachmentHeaders("application/pdf", pdf.fileName) });
}
