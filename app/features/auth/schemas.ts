import { z } from "zod";

export const loginSchema = z.object({
  email: z.string({ error: "Email is required" }).trim().toLowerCase().email("Enter a valid email address").max(254),
  password: z.string({ error: "Password is required" }).min(1, "Password is required").max(200),
  twoFactor: z.boolean().optional(),
  redirectTo: z.string().max(500).optional(),
  website: z.string().optional(),
});

/** The login page's two forms: the password form and, on the bare domain, the workspace choice. */
export const loginActionSchema = z.discriminatedUnion("intent", [
  loginSchema.extend({ intent: z.literal("sign-in") }),
  z.object({ intent: z.literal("choose"), tenant: z.string({ error: "Choose one of the workspaces listed." }).trim().toLowerCase().min(1).max(63) }),
]);

export const codeSchema = z.object({
  code: z
    .string({ error: "Please enter the full 6-digit code" })
    .transform((s) => s.replace(/\s+/g, ""))
    .pipe(z.string().regex(/^\d{6}$/, "Please enter the full 6-digit code")),
});

export const LOGIN_FAILED = "Login failed. Check your email and password and try again.";
export const INVALID_CODE = "Invalid or expired code";
export const SEND_CODE_FAILED = "Failed to send verification code. Please try again.";
export const CHOICE_EXPIRED = "Your sign-in has expired. Please sign in again.";
export const CHOICE_INVALID = "Choose one of the workspaces listed.";

/** /accept-session: the single-use hand-over token a bare-domain sign-in sends to the tenant host. */
export const acceptSessionSchema = z.object({ token: z.string().min(1).max(4096) });
