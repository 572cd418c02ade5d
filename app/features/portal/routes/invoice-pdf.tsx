import { data } from "react-router";
import { portalInvoiceAttachment } from "~/features/cis/index.server";
import { attachmentHeaders } from "~/features/cis";
import { requirePortalModule } from "../portal-auth.server";
import { requirePortalSession } from "../portal-session.server";
import type { Route } from "./+types/invoice-pdf";

const FILE = /^([A-Za-z0-9_-]{1,64})\.pdf$/;

/**
 * GET /portal/invoices/{id}.pdf: the PDF the signed-in subcontractor sent with one of their own
 * invoices. Another subcontractor's, or another tenant's, is 404.
 */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const { env, ctx, tenant } = requirePortalModule(context);
  const { subcontractor } = await requirePortalSession(env, ctx, request, tenant.id);
  const id = FILE.exec(params.file ?? "")?.[1];
  const pdf = id ? await portalInvoiceAttachment(env, tenant.id, subcontractor.id, id) : null;
  if (!pdf?.ok) throw data("Invoice PDF not found", { status: 404 });
  const headers = new Headers(attachmentHeaders("application/pdf", pdf.fileName));
  headers.set("Content-Length", String(pdf.size));
  return new Response(pdf.body, { headers });
}
