import { z } from "zod";
import { ROLES } from "~/db/enums";
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, ROLE_LABELS } from "./labels";

export { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, ROLE_LABELS, ROLES };

export const newPasswordFields = {
  password: z
    .string({ error: "Enter a new password" })
    .min(PASSWORD_MIN_LENGTH, `Use at least ${PASSWORD_MIN_LENGTH} characters`)
    .max(PASSWORD_MAX_LENGTH, `Use at most ${PASSWORD_MAX_LENGTH} characters`),
  confirm: z.string({ error: "Enter the new password again" }).max(PASSWORD_MAX_LENGTH),
};

function matching<T extends { password: string; confirm: string }>(v: T, ctx: z.RefinementCtx) {
  if (v.password !== v.confirm) ctx.addIssue({ code: "custom", path: ["confirm"], message: "The passwords do not match. Enter the same password twice" });
}

/** /activate and /reset-password: the token from the link and the new password twice. */
export const setPasswordSchema = z.object({ token: z.string().min(1).max(4096), ...newPasswordFields }).superRefine(matching);

export const emailField = z
  .string({ error: "Enter an email address" })
  .trim()
  .toLowerCase()
  .email("Enter an email address in the correct format, like name@example.com")
  .max(254, "Email address must be 254 characters or less");
export const roleField = z.enum(ROLES, { error: "Select a role" });
const userIdField = z.string().min(1).max(100);

export const inviteSchema = z.object({
  intent: z.literal("invite"),
  email: emailField,
  role: roleField,
  displayName: z.string().trim().max(100, "Name must be 100 characters or less").optional(),
});

/** The destructive actions confirm first: without `confirmed` the server renders the confirm step. */
const confirmedField = z.literal("yes").optional();

export const usersActionSchema = z.discriminatedUnion("intent", [
  inviteSchema,
  z.object({ intent: z.literal("role"), userId: userIdField, role: roleField }),
  z.object({ intent: z.literal("disable"), userId: userIdField, confirmed: confirmedField }),
  z.object({ intent: z.literal("enable"), userId: userIdField }),
  z.object({ intent: z.literal("reset"), userId: userIdField }),
  z.object({ intent: z.literal("reinvite"), userId: userIdField }),
  z.object({ intent: z.literal("scrub"), userId: userIdField, confirmed: confirmedField }),
]);
export type UsersAction = z.infer<typeof usersActionSchema>;

export const usersSearchSchema = z.object({
  q: z.string().trim().max(100).catch(""),
  confirm: z.enum(["disable", "scrub"]).optional().catch(undefined),
  user: z.string().max(100).optional().catch(undefined),
});

export const accountActionSchema = z.discriminatedUnion("intent", [
  z
    .object({
      intent: z.literal("password"),
      current: z.string({ error: "Enter your current password" }).min(1, "Enter your current password").max(PASSWORD_MAX_LENGTH),
      ...newPasswordFields,
    })
    .superRefine(matching),
  z.object({
    intent: z.literal("name"),
    displayName: z.string({ error: "Enter a display name" }).trim().min(1, "Enter a display name").max(100, "Display name must be 100 characters or less"),
  }),
  z.object({ intent: z.literal("revoke"), session: z.string().regex(/^[0-9a-f]{64}$/) }),
]);

/** Which of /account's forms was sent. */
export const accountIntentSchema = z.object({ intent: z.enum(["password", "name", "revoke"]) });

/**
 * /account's display name form as the browser checks it: the server's own entry (the second of
 * accountActionSchema), so both say the same thing.
 */
export const accountNameSchema = accountActionSchema.options[1];

/** Which of /settings/users' forms was sent. */
export const usersIntentSchema = z.object({ intent: z.enum(["invite", "role", "disable", "enable", "reset", "reinvite", "scrub"]) });
