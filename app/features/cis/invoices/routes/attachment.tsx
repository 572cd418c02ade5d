import { data } from "react-router";
import { attachmentHeaders } from "~/features/cis/statements/statement-params";
import { requireModule } from "~/features/auth/index.server";
import { staffInvoiceAttachment } from "../portal-invoices.server";
import { invoiceParamsSchema } from "../schemas";
import type { Route } from "./+types/attachment";

/**
 * GET /cis/invoices/{id}/attachment: the PDF a subcontractor sent with a portal submission, as a
 * download (never shown inline: its bytes are the subcontractor's, not ours). Another tenant's
 * invoice, or one without a PDF, is 404.
 */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const { env, tenant } = await requireModule(request, context, { module: "cis", scope: "cis.inv.read" });
  const { id } = invoiceParamsSchema.parse(params);
  const pdf = await staffInvoiceAttachment(env, tenant.id, id);
  if (!pdf.ok) throw data("Not found", { status: 404 });
  const headers = new Headers(attachmentHeaders("application/pdf", pdf.fileName));
  headers.set("Content-Length", String(pdf.size));
  return new Response(pdf.body, { headers });
}
