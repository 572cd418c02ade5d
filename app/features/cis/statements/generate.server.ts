import type { Actor } from "~/features/auth";
import { dbFor } from "~/db/client.server";
import { newId } from "~/utils/ids";
import { ensureStatementPdf, StatementAssets, statementSourceQueries, storeNewStatementPdfs, type StatementSources } from "./files.server";
import { GENERATION_QUERIES, generateStatement, generationOutcome, generationQueries, type GenerateStatementResult } from "./statements.server";

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

/** D1 queries per statement in a group: its generation, then the sources of its document. */
const QUERIES_PER_STATEMENT = GENERATION_QUERIES + 6;

/**
 * Several subcontractors' statements of one tax month at once, as generateSubcontractorStatement
 * makes them one by one, in two D1 round trips for the group instead of three per statement: one
 * batch generates them all and reads their documents' sources after its writes, a second freezes
 * the documents; then each PDF is rendered and stored. The first batch is one transaction, so
 * when any one of them is refused by the unique index (a person generated it meanwhile) or fails,
 * nothing of the group is written and the call throws: the caller then makes them one by one, so
 * each gets its own outcome. The results are in the order of `subcontractorIds`.
 */
export async function generateSubcontractorStatements(
  env: Env,
  tenantId: string,
  subcontractorIds: readonly string[],
  taxMonth: string,
  actor: Pick<Actor, "id" | "email">,
  shared: StatementAssets,
): Promise<GenerateStatementResult[]> {
  const db = dbFor(env, tenantId);
  const now = Date.now();
  const ids = subcontractorIds.map(() => newId());
  const queries = subcontractorIds.flatMap((subId, i) => [
    ...generationQueries(db, tenantId, subId, taxMonth, actor, ids[i]!, now),
    ...statementSourceQueries(db, tenantId, ids[i]!),
  ]);
  const results = (await db.batch(queries as unknown as Parameters<typeof db.batch>[0])) as readonly unknown[];
  const outcomes = ids.map((id, i) => generationOutcome(results.slice(i * QUERIES_PER_STATEMENT, i * QUERIES_PER_STATEMENT + GENERATION_QUERIES), id));
  const made = ids.flatMap((id, i) => {
    if (!outcomes[i]!.ok) return [];
    const at = i * QUERIES_PER_STATEMENT + GENERATION_QUERIES;
    return [{ statementId: id, sources: results.slice(at, at + QUERIES_PER_STATEMENT - GENERATION_QUERIES) as unknown as StatementSources }];
  });
  try {
    await storeNewStatementPdfs(env, tenantId, made, shared);
  } catch (err) {
    console.error(
      `statements ${made.map((m) => m.statementId).join(", ")}: PDFs not all stored after generation; the first download or issue renders them`,
      err,
    );
  }
  return outcomes;
}
