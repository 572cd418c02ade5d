import { z } from "zod";

/** The portal link's sign-in form: the link's token and the honeypot field (both kept as text whatever arrives). */
export const portalSignInSchema = z.object({ token: z.string().max(4096).catch(""), website: z.string().catch(""), next: z.string().max(200).catch("") });
