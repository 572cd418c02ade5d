/** The subcontractors area's input shapes: route params, the detail page's buttons and the list's bulk form. */
import { z } from "zod";

/** `/cis/subcontractors/:id…`. */
export const subcontractorParamsSchema = z.object({ id: z.string().min(1).max(64) });

/** One module for /cis/subcontractors/new and /cis/subcontractors/:id/edit: the id decides. */
export const subcontractorFormParamsSchema = z.object({ id: z.string().min(1).max(64).optional() });

/** The detail page's buttons: Show (a masked identifier), Archive (confirmed) and Verify with HMRC. */
export const subcontractorDetailFormSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("reveal"), field: z.enum(["utr", "nino"]) }),
  z.object({ intent: z.literal("archive"), confirmed: z.literal("yes").optional().catch(undefined) }),
  z.object({ intent: z.literal("verify") }),
]);

const idList = z.array(z.string().min(1).max(64)).transform((v) => [...new Set(v)]);
const common = {
  confirmed: z.literal("yes").optional().catch(undefined),
  selectAll: z.literal("page").optional().catch(undefined),
  ids: idList,
  pageIds: idList,
};
/** One row's Archive button, and the toolbar's two bulk buttons. */
export const subcontractorBulkFormSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("archive"), ...common }),
  z.object({ intent: z.literal("bulk-archive"), ...common }),
  z.object({ intent: z.literal("bulk-delete"), ...common }),
  z.object({ intent: z.literal("bulk-verify"), ...common }),
]);
export type SubcontractorBulkIntent = z.output<typeof subcontractorBulkFormSchema>["intent"];
