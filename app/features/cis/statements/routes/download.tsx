import { data } from "react-router";
import { requireModule } from "~/features/auth/index.server";
import { ensureStatementPdf, STATEMENT_FILE_ERROR_MESSAGES, statementHtmlFile } from "../files.server";
import { attachmentHeaders, downloadFormatSchema, statementIdSchema } from "../statement-params";
import type { Route } from "./+types/download";

/**
 * GET /cis/statements/{id}/download?format=html|pdf: the statement as a file (resource route).
 * Both formats come from the statement's frozen document, so they show the same figures.
 */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  // Statements are invoice data: reading invoices (coarse cis.read grants it) or issuing statements.
  const { env, tenant } = await requireModule(request, context, { module: "cis", scope: ["cis.inv.read", "cis.stmt.issue"] });
  const id = statementIdSchema.safeParse(params.id);
  if (!id.success) throw data(STATEMENT_FILE_ERROR_MESSAGES.not_found, { status: 404 });
  const format = downloadFormatSchema.safeParse(new URL(request.url).searchParams.get("format") ?? "pdf");
  if (!format.success) throw data("Unknown format: use html or pdf", { status: 400 });

  if (format.data === "html") {
    const file = await statementHtmlFile(env, tenant.id, id.data);
    if (!file.ok) throw fileError(file.code);
    return new Response(file.html, { headers: attachmentHeaders("text/html; charset=utf-8", file.fileName) });
  }
  const pdf = await ensureStatementPdf(env, tenant.id, id.data);
  if (!pdf.ok) throw fileError(pdf.code);
  return new Response(pdf.bytes, { headers: attachmentHeaders("application/pdf", pdf.fileName) });
}

function fileError(code: keyof typeof STATEMENT_FILE_ERROR_MESSAGES) {
  return data(STATEMENT_FILE_ERROR_MESSAGES[code], { status: code === "not_found" ? 404 : 409 });
}
