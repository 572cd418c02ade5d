import { z } from "zod";

/** Field limits of the 'Start a project' form, shared by the inputs' maxLength and the server. */
export const PROJECT_REQUEST_LIMITS = { name: 100, email: 254, company: 100, message: 2000 } as const;

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

/** Shown (role=alert) when a valid request could not be stored or queued. */
export const COULD_NOT_SEND = "We could not send your request. Try again in a few minutes.";
export const PROJECT_REQUEST_THANKS = "Thank you – we have your request and will reply within one business day.";

export function rateLimitedMessage(waitMs: number): string {
  const m = Math.max(1, Math.ceil(waitMs / 60_000));
  return `Too many requests from your network. Please try again in ${m} minute${m === 1 ? "" : "s"}.`;
}

/** How long the drawer shows its thank-you before it closes and clears the form. */
export const DRAWER_CLOSE_AFTER_MS = 2000;
