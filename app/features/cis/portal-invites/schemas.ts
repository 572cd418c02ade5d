/** The portal invite's input shapes: its route params, its buttons and the create-and-invite form. */
import { z } from "zod";
import { subcontractorCreateSchema } from "../domain/schemas";

/**
 * One module, two routes: /cis/subcontractors/:id/invite invites an existing subcontractor;
 * /cis/subcontractors/invite creates one first (so it also needs cis.sub.write).
 */
export const portalInviteParamsSchema = z.object({ id: z.string().min(1).max(64).optional() });

/**
 * The existing subcontractor's page posts 'invite' and, from the result, 'reveal' (Show link,
 * for either route's invite); the create-and-invite form posts 'create'.
 */
export const portalInviteIntentSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("invite") }),
  z.object({ intent: z.literal("reveal"), invite: z.string().min(1).max(64) }),
  z.object({ intent: z.literal("create") }),
]);

const NAME_AND_EMAIL_MISSING = "Enter the subcontractor's name and email address";

const isBlank = (v: unknown) => typeof v !== "string" || v.trim() === "";

/**
 * The create-and-invite form's fields with the subcontractor create rules on top (shared by the
 * browser and the action): the name and e-mail address asked for when either is missing, then the
 * domain's own messages (UTR required for a new subcontractor).
 */
export const inviteCreateSchema = z
  .object({
    name: z.string().optional(),
    email: z.string().optional(),
    type: z.string().optional(),
    utr: z.string().optional(),
    nino: z.string().optional(),
    companyNumber: z.string().optional(),
  })
  .transform((input, ctx) => {
    const missing = isBlank(input.name) || isBlank(input.email);
    if (missing) ctx.issues.push({ code: "custom", message: NAME_AND_EMAIL_MISSING, path: [], input });
    const parsed = subcontractorCreateSchema.safeParse({ ...input, type: input.type ?? "individual", active: true });
    if (!parsed.success) {
      for (const issue of parsed.error.issues) ctx.issues.push({ code: "custom", message: issue.message, path: [...issue.path], input });
      return z.NEVER;
    }
    const email = parsed.data.email;
    if (missing || !email) return z.NEVER;
    return { ...parsed.data, email };
  });
