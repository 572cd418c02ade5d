import { data } from "react-router";
import { cloudflareContext } from "~/context";
import { requireModule } from "~/features/auth/index.server";
import { statementDocument, STATEMENT_FILE_ERROR_MESSAGES } from "../files.server";
import { printableStatementHtml } from "../printable";
import { statementIdSchema } from "../statement-params";
import type { Route } from "./+types/print";

/**
 * GET /cis/statements/{id}/print: the statement document inline, with a print stylesheet. With
 * JavaScript the browser's print dialog opens at once; without it the person prints from the browser.
 */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const { env, tenant } = await requireModule(request, context, { module: "cis", scope: ["cis.inv.read", "cis.stmt.issue"] });
  const id = statementIdSchema.safeParse(params.id);
  const frozen = id.success ? await statementDocument(env, tenant.id, id.data) : null;
  if (!frozen || !frozen.ok) {
    const code = frozen?.ok === false ? frozen.code : "not_found";
    throw data(STATEMENT_FILE_ERROR_MESSAGES[code], { status: code === "not_found" ? 404 : 409 });
  }
  const { nonce } = context.get(cloudflareContext);
  return new Response(printableStatementHtml(frozen.document, { nonce, backHref: `/cis/statements?month=${frozen.document.taxMonth}` }), {
    headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "private, no-store" },
  });
}
