import { z } from "zod";
import { CODE_FORMAT, INVALID_CODE } from "./messages";

export { CODE_FORMAT, INVALID_CODE };

export const loginSchema = z.object({
  email: z
    .string({ error: "Enter your email address" })
    .trim()
    .toLowerCase()
    .email("Enter an email address in the correct format, like name@example.com")
    .max(254),
  password: z.string({ error: "Enter your password" }).min(1, "Enter your password").max(200),
  twoFactor: z.boolean().optional(),
  redirectTo: z.string().max(500).optional(),
  website: z.string().optional(),
});

/** The login page's two forms: the password form and, on the bare domain, the workspace choice. */
export const loginActionSchema = z.discriminatedUnion("intent", [
  loginSchema.extend({ intent: z.literal("sign-in") }),
  z.object({ intent: z.literal("choose"), tenant: z.string({ error: "Select one of the workspaces listed." }).trim().toLowerCase().min(1).max(63) }),
]);

/** The sign-in code is six digits; spaces are ignored. */
export const codeSchema = z.object({
  code: z
    .string({ error: CODE_FORMAT })
    .transform((s) => s.replace(/\s+/g, ""))
    .pipe(z.string().regex(/^\d{6}$/, CODE_FORMAT)),
});

export const LOGIN_FAILED = "The email address or password is not right. Check them and try again.";
export const SEND_CODE_FAILED = "We could not send your sign-in code. Try again in a few minutes.";
export const CHOICE_EXPIRED = "Your sign-in has expired. Sign in again.";
export const CHOICE_INVALID = "Select one of the workspaces listed.";

/** /accept-session: the single-use hand-over token a bare-domain sign-in sends to the tenant host. */
export const acceptSessionSchema = z.object({ token: z.string().min(1).max(4096) });
