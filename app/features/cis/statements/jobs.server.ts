import { z } from "zod";
import { defineJob } from "~/features/platform/jobs/registry.server";
import { isTaxMonthLabel } from "../domain";
import { generateSubcontractorStatement } from "./generate.server";
import { BATCH_JOB_TYPE, pendingStatementTargets, type BatchResult } from "./statements-page.server";

/**
 * Generate All for one tax month: a statement for every subcontractor with invoices pending one
 * and no statement for the month yet. Safe to run again: each run asks afresh who still needs a
 * statement, so a redelivery after a crash skips the ones already made, and generation itself
 * refuses a second statement for a subcontractor and month. A refusal (another person generated
 * it meanwhile, or its invoices moved on) counts as neither generated nor failed; only an error
 * or a vanished subcontractor counts as failed, and the run goes on with the rest.
 */
export const statementsGenerateAllJob = defineJob({
  type: BATCH_JOB_TYPE,
  input: z.object({
    taxMonth: z.string().refine(isTaxMonthLabel, "Invalid tax month"),
    // The audit entries name the person who pressed Generate All.
    actorEmail: z.string().min(1).max(320),
  }),
  async run(input, ctx): Promise<BatchResult> {
    const targets = await pendingStatementTargets(ctx.env, ctx.tenantId, input.taxMonth);
    const actor = { id: ctx.performedBy ?? "system", email: input.actorEmail };
    let generated = 0;
    let failed = 0;
    let skipped = 0;
    for (const [i, target] of targets.entries()) {
      try {
        const res = await generateSubcontractorStatement(ctx.env, ctx.tenantId, target.subcontractorId, input.taxMonth, actor);
        if (res.ok) generated += 1;
        else if (res.code === "not_found") failed += 1;
        else skipped += 1;
      } catch (err) {
        failed += 1;
        console.error(`statements.generate-all job ${ctx.jobId}: subcontractor ${target.subcontractorId}`, err);
      }
      // 100 is written when the job is marked done.
      await ctx.progress(Math.min(99, Math.floor(((i + 1) / targets.length) * 100)));
    }
    return { taxMonth: input.taxMonth, total: targets.length, generated, failed, skipped };
  },
});
