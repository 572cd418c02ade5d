import type { Actor } from "../module.server";
import { generateStatement, type GenerateStatementResult } from "./statements.server";

/**
 * The one place a statement comes into being, for the page's Generate and the Generate All job
 * alike: whatever must follow a new statement (pre-rendering its PDF, say) goes here, once, so
 * neither caller can forget it.
 */
export async function generateSubcontractorStatement(
  env: Env,
  tenantId: string,
  subcontractorId: string,
  taxMonth: string,
  actor: Pick<Actor, "id" | "email">,
): Promise<GenerateStatementResult> {
  const res = await generateStatement(env, tenantId, subcontractorId, taxMonth, actor);
  return res;
}
