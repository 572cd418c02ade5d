// Values the team pages show and the schemas use. No zod here, so browser code can import them
// without carrying the schemas (the browser validates nothing; the server does).
import { ROLES } from "~/db/enums";

export { ROLES };

/** New passwords: long enough to resist guessing, short enough to hash cheaply. */
export const PASSWORD_MIN_LENGTH = 12;
export const PASSWORD_MAX_LENGTH = 200;

export const ROLE_LABELS: Record<(typeof ROLES)[number], string> = { standard: "Standard", lead: "Lead", manager: "Manager", admin: "Admin" };
