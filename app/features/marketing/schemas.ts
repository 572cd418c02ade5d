import { z } from "zod";
import { COULD_NOT_SEND, DRAWER_CLOSE_AFTER_MS, PROJECT_REQUEST_LIMITS, PROJECT_REQUEST_THANKS, rateLimitedMessage } from "./messages";

export { COULD_NOT_SEND, DRAWER_CLOSE_AFTER_MS, PROJECT_REQUEST_LIMITS, PROJECT_REQUEST_THANKS, rateLimitedMessage };

export const projectRequestSchema = z.object({
  name: z
    .string({ error: "Enter your name" })
    .trim()
    .min(1, "Enter your name")
    .max(PROJECT_REQUEST_LIMITS.name, `Name must be ${PROJECT_REQUEST_LIMITS.name} characters or less`),
  email: z
    .string({ error: "Enter your email address" })
    .trim()
    .toLowerCase()
    .max(PROJECT_REQUEST_LIMITS.email, `Email address must be ${PROJECT_REQUEST_LIMITS.email} characters or less`)
    .email("Enter an email address in the correct format, like name@company.co.uk"),
  company: z.string().trim().max(PROJECT_REQUEST_LIMITS.company, `Company must be ${PROJECT_REQUEST_LIMITS.company} characters or less`).optional(),
  message: z.string().trim().max(PROJECT_REQUEST_LIMITS.message, `Message must be ${PROJECT_REQUEST_LIMITS.message} characters or less`).optional(),
  // The honeypot: only robots fill it in.
  website: z.string().optional(),
});

export type ProjectRequestInput = z.infer<typeof projectRequestSchema>;
