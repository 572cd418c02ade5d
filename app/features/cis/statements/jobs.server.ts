import { z } from "zod";
import { continueJob, defineJob } from "~/features/platform/index.server";
import { isTaxMonthLabel } from "../domain";
import { StatementAssets } from "./files.server";
import { generateSubcontractorStatement, generateSubcontractorStatements } from "./generate.server";
import { nextGroupSize } from "./slice-budget";
import type { GenerateStatementResult } from "./statements.server";
import { BATCH_JOB_TYPE, pendingStatementTargets, type BatchResult } from "./statements-page.server";

/** What one slice hands the next: the counts so far and who failed, so they are not tried again. */
const checkpointSchema = z.object({
  total: z.number().int().min(0),
  generated: z.number().int().min(0),
  failed: z.number().int().min(0),
  skipped: z.number().int().min(0),
  failedIds: z.array(z.string()),
});
type Checkpoint = z.infer<typeof checkpointSchema>;

/**
 * Generate All for one tax month: a statement for every subcontractor with invoices pending one
 * and no statement for the month yet, as many per slice as its memory budget allows (one queue
 * delivery each, sized by what the slice has rendered: slice-budget.ts; the counts travel in the
 * job's checkpoint). Within a slice they are made in groups, two D1 round trips a group
 * (generate.server.ts). The statements of a slice share what they have in common (the logo). Safe to run again: each slice asks afresh who still
 * needs a statement, so a redelivery after a crash skips the ones already made, and generation
 * itself refuses a second statement for a subcontractor and month. A refusal (another person
 * generated it meanwhile, or its invoices moved on) counts as neither generated nor failed; only
 * an error or a vanished subcontractor counts as failed, is remembered so later slices do not
 * try it again, and the run goes on with the rest.
 */
export const statementsGenerateAllJob = defineJob({
  type: BATCH_JOB_TYPE,
  input: z.object({
    taxMonth: z.string().refine(isTaxMonthLabel, "Invalid tax month"),
    // The audit entries name the person who pressed Generate All.
    actorEmail: z.string().min(1).max(320),
  }),
  async run(input, ctx) {
    const previous = checkpointSchema.safeParse(ctx.checkpoint);
    const failedIds = new Set(previous.success ? previous.data.failedIds : []);
    const targets = (await pendingStatementTargets(ctx.env, ctx.tenantId, input.taxMonth)).filter((t) => !failedIds.has(t.subcontractorId));
    const state: Checkpoint = previous.success ? previous.data : { total: targets.length, generated: 0, failed: 0, skipped: 0, failedIds: [] };
    const actor = { id: ctx.performedBy ?? "system", email: input.actorEmail };
    const shared = new StatementAssets();
    let tried = 0;
    // Each progress report is a D1 write: made only when the shown percentage moves.
    let reported = -1;
    while (tried < targets.length) {
      const size = nextGroupSize({ statements: tried, pdfBytes: shared.renderedCount.bytes, heldBytes: await shared.heldBytes() });
      if (size === 0) break;
      const group = targets.slice(tried, tried + size).map((t) => t.subcontractorId);
      tried += group.length;
      const outcomes = await generateGroup(ctx, group, input.taxMonth, actor, shared);
      group.forEach((subcontractorId, i) => {
        const res = outcomes[i]!;
        if (res.ok) state.generated += 1;
        else if (res.code === "not_found" || res.code === "error") {
          state.failed += 1;
          failedIds.add(subcontractorId);
        } else state.skipped += 1;
      });
      const done = state.generated + state.failed + state.skipped;
      // 100 is written when the job is marked done.
      const pct = Math.min(99, Math.floor((done / Math.max(state.total, done, 1)) * 100));
      if (pct !== reported) await ctx.progress(pct);
      reported = pct;
    }
    state.failedIds = [...failedIds];
    if (targets.length > tried) return continueJob(state);
    const result: BatchResult = {
      taxMonth: input.taxMonth,
      total: Math.max(state.total, state.generated + state.failed + state.skipped),
      generated: state.generated,
      failed: state.failed,
      skipped: state.skipped,
    };
    return result;
  },
});

type Outcome = GenerateStatementResult | { ok: false; code: "error" };

/**
 * The statements of a group, generated together; when the group's batch is refused as a whole (one
 * of them was generated meanwhile, or one fails), one by one, so that each gets its own outcome
 * and only an error fails its own subcontractor.
 */
async function generateGroup(
  ctx: { env: Env; tenantId: string; jobId: string },
  subcontractorIds: readonly string[],
  taxMonth: string,
  actor: { id: string; email: string },
  shared: StatementAssets,
): Promise<Outcome[]> {
  if (subcontractorIds.length > 1) {
    try {
      return await generateSubcontractorStatements(ctx.env, ctx.tenantId, subcontractorIds, taxMonth, actor, shared);
    } catch {
      // Made one by one below.
    }
  }
  const outcomes: Outcome[] = [];
  for (const subcontractorId of subcontractorIds) {
    try {
      outcomes.push(await generateSubcontractorStatement(ctx.env, ctx.tenantId, subcontractorId, taxMonth, actor, shared));
    } catch (err) {
      outcomes.push({ ok: false, code: "error" });
      console.error(`statements.generate-all job ${ctx.jobId}: subcontractor ${subcontractorId}`, err);
    }
  }
  return outcomes;
}
