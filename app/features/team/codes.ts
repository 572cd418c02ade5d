/** Client-safe labels and messages of the team feature. */
export { FORMER_USER } from "~/features/platform";

export const MEMBER_STATUSES = ["active", "invited", "disabled"] as const;
export type MemberStatus = (typeof MEMBER_STATUSES)[number];
export const STATUS_LABELS: Record<MemberStatus, string> = { active: "Active", invited: "Invited", disabled: "Disabled" };

export const CHANGE_ERRORS = {
  not_found: "That user no longer exists.",
  self: "You cannot do that to your own account.",
  last_admin: "The workspace must keep at least one active admin.",
  scrubbed: "This former user's data has been erased.",
  not_disabled: "Disable the user before erasing their personal data.",
  not_active: "Only active users can be sent a password reset link.",
  not_invited: "This user has already activated their account.",
  email_taken: "A user with this email address already exists.",
  invalid_email: "Enter an email address in the correct format, like name@example.com",
} as const;

export const LINK_ERRORS = {
  invalid: "This link is not valid. Check that you copied the whole link from the e-mail.",
  expired: "This link has expired. Ask an administrator to send you a new one.",
  used: "This link has already been used or replaced by a newer one. Ask an administrator to send you a new one if you still need it.",
} as const;
