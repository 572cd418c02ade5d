// The 'Start a project' form's limits and messages. No zod here, so the form and the drawer can
// import them without carrying the schema (the browser validates nothing; the server does).

/** Field limits of the 'Start a project' form, shared by the inputs' maxLength and the server. */
export const PROJECT_REQUEST_LIMITS = { name: 100, email: 254, company: 100, message: 2000 } as const;

/** Shown (role=alert) when a valid request could not be stored or queued. */
export const COULD_NOT_SEND = "We could not send your request. Try again in a few minutes.";
export const PROJECT_REQUEST_THANKS = "Thank you – we have your request and will reply within one business day.";

export function rateLimitedMessage(waitMs: number): string {
  const m = Math.max(1, Math.ceil(waitMs / 60_000));
  return `Too many requests from your network. Please try again in ${m} minute${m === 1 ? "" : "s"}.`;
}

/** How long the drawer shows its thank-you before it closes and clears the form. */
export const DRAWER_CLOSE_AFTER_MS = 2000;
