import { z } from "zod";

/** The settings document and each role's permissions are separate forms on the page. */
export const settingsIntentSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("settings") }),
  z.object({
    intent: z.literal("bundle"),
    bundle: z.string().trim().min(1).max(100),
    version: z.coerce.number().int().nonnegative().optional(),
    scopes: z.array(z.string().max(100)).max(200).default([]),
  }),
]);
