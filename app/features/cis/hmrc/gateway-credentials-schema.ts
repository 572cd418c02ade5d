import { z } from "zod";

/** Client-safe: the Government Gateway credentials form (settings page), saved or cleared by intent. */
export const gatewayCredentialsSchema = z.discriminatedUnion("intent", [
  z.object({
    intent: z.literal("gateway"),
    senderId: z
      .string({ error: "Enter your Government Gateway user ID" })
      .trim()
      .min(1, "Enter your Government Gateway user ID")
      .max(64, "The user ID must be 64 characters or fewer"),
    password: z
      .string({ error: "Enter your Government Gateway password" })
      .min(1, "Enter your Government Gateway password")
      .max(256, "The password must be 256 characters or fewer"),
  }),
  z.object({ intent: z.literal("gateway-clear") }),
]);

export type GatewayFormErrors = { senderId?: string; password?: string; form?: string };
