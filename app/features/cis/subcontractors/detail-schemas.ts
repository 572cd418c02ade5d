import { z } from "zod";

/** /cis/subcontractors/:id */
export const subcontractorParamsSchema = z.object({ id: z.string().min(1).max(64) });

/** The subcontractor page's forms: reveal an identifier, archive (confirmed first), ask HMRC to verify. */
export const subcontractorDetailSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("reveal"), field: z.enum(["utr", "nino"]) }),
  z.object({ intent: z.literal("archive"), confirmed: z.literal("yes").optional().catch(undefined) }),
  z.object({ intent: z.literal("verify") }),
]);
