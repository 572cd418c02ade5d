import type { Actor } from "~/features/auth";
import { ensureStatementPdf, StatementAssets } from "./files.server";
import { generateStatement, type GenerateStatementResult } from "./statements.server";

/**
 * The one place a statement comes into being, for the page's Generate and the Generate All job
 * alike: whatever must follow a new statement goes here, once, so neither caller can forget it.
 *
 * A new statement's document is frozen and its PDF stored in R2 straight away, so what the
 * subcontractor later receives is what was generated. The statement stands even when that step
 * cannot run yet (the contractor's employer reference is not set) or fails: the first download or
 * issue renders it then, from the same rules. Statements generated together pass the same
 * `shared` assets, so what they have in common is read once.
 */
export async function generateSubcontractorStatement(
  env: Env,
  tenantId: string,
  subcontractorId: string,
  taxMonth: string,
  actor: Pick<Actor, "id" | "email">,
  shared: StatementAssets = new StatementAssets(),
): Promise<GenerateStatementResult> {
  const res = await generateStatement(env, tenantId, subcontractorId, taxMonth, actor);
  if (!res.ok) return res;
  try {
    await ensureStatementPdf(env, tenantId, res.id, shared);
  } catch (err) {
    console.error(`statement ${res.id}: the PDF was not stored after generation; the first download or issue renders it`, err);
  }
  return res;
}
