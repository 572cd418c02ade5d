import { z } from "zod";
import { defineJob } from "~/features/platform/index.server";
import { pollSubmission, sendSubmission } from "./gateway.server";

/** Sends one stored submission to HMRC (keyed by submission: queued once however often Submit is pressed). */
export const hmrcSendJob = defineJob({
  type: "hmrc.send",
  input: z.object({ submissionId: z.string().min(1) }),
  async run(input, ctx) {
    const res = await sendSubmission(ctx.env, ctx.tenantId, input.submissionId);
    await ctx.progress(100);
    return { submissionId: input.submissionId, ...res };
  },
});

/** One poll of the Transaction Engine (keyed by submission and poll number), queued with the poll interval as delay. */
export const hmrcPollJob = defineJob({
  type: "hmrc.poll",
  input: z.object({ submissionId: z.string().min(1), poll: z.number().int().min(1) }),
  async run(input, ctx) {
    const res = await pollSubmission(ctx.env, ctx.tenantId, input.submissionId, input.poll);
    await ctx.progress(100);
    return { submissionId: input.submissionId, poll: input.poll, ...res };
  },
});
