import { z } from "zod";
import { isValidSlug } from "~/features/platform/host";

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

export const createTenantSchema = z.object({
  slug: z
    .string({ error: "Slug is required" })
    .trim()
    .toLowerCase()
    .min(2, "Slug must be 2 to 63 characters")
    .max(63, "Slug must be 2 to 63 characters")
    .refine(isValidSlug, "Use lower-case letters, digits and hyphens; start and end with a letter or digit"),
  name: z.string({ error: "Name is required" }).trim().min(2, "Name must be at least 2 characters").max(100, "Name must be at most 100 characters"),
});

/** Switching one module of one tenant on or off; `enabled` must say which, nothing else counts. */
export const toggleModuleSchema = z.object({
  tenantId: z.string().trim().min(1).max(100),
  moduleId: z.string().trim().min(1).max(100),
  enabled: z.enum(["true", "false"]).transform((v) => v === "true"),
});

export const SUPERADMIN_INTENTS = ["create-tenant", "toggle-module"] as const;
export type SuperadminIntent = (typeof SUPERADMIN_INTENTS)[number];

/** Just the intent: read first, so the action can check the intent's scope before anything else. */
export const superadminIntentSchema = z.object({ intent: z.enum(SUPERADMIN_INTENTS) });

/** Every form of the /superadmin console, told apart by its intent. */
export const superadminActionSchema = z.discriminatedUnion("intent", [
  createTenantSchema.extend({ intent: z.literal("create-tenant") }),
  toggleModuleSchema.extend({ intent: z.literal("toggle-module") }),
]);
