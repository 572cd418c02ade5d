// The invite's 'Show link' refusals, as codes with their words beside them: the route answers
// with these, the result view shows them. Kept apart from portal-invites.server.ts so the
// component can import them.

/** Why a link cannot be shown; "not_found" covers another tenant's or another subcontractor's invite (404). */
export type RevealRefusal = "not_found" | "used" | "expired" | "withdrawn" | "shown_to_other";

export const REVEAL_REFUSAL_MESSAGES: Readonly<Record<Exclude<RevealRefusal, "not_found">, string>> = {
  used: "This link has already been used, so there is nothing to show. Invite them again to send a new link.",
  expired: "This link has expired. Invite them again to send a new link.",
  withdrawn: "This link has been withdrawn: the subcontractor was archived or their e-mail address changed. Invite them again to send a new link.",
  shown_to_other: "This link has already been shown to someone else. Invite them again to get a new link.",
};

/** A link that was good once answers 410 Gone; one already shown to another person, 409. */
export function revealRefusalStatus(code: Exclude<RevealRefusal, "not_found">): 409 | 410 {
  return code === "shown_to_other" ? 409 : 410;
}
