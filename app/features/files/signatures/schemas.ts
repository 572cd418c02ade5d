/** The shapes the signature pages accept: route params, search params and form posts, parsed on the server. */
import { z } from "zod";
import { MAX_DECLINE_REASON, MAX_SIGNATURE_DATA_URL, MAX_TYPED_NAME, SIGNATURE_FONTS, SIGNATURE_STEPS, SIGNATURE_TABS } from "./signature-rules";

/** `:id` of a signature request. */
export const requestIdParams = z.object({ id: z.string().min(1).max(100) });

/** /files/signatures?tab=&q= */
export const listQuery = z.object({ tab: z.enum(SIGNATURE_TABS).catch("pending"), q: z.string().max(200).catch("") });

/** The Request Signature form of a file's page. */
export const requestForm = z.object({ fileId: z.string().min(1).max(100), signerId: z.string().max(100) });

/** The signing page's step and its done flag. */
export const signSearch = z.object({ step: z.enum(SIGNATURE_STEPS).catch("review"), done: z.literal("1").optional().catch(undefined) });

/** A typed or drawn signature as posted. */
export const signatureForm = z.discriminatedUnion("mode", [
  z.object({ mode: z.literal("typed"), name: z.string().trim().max(MAX_TYPED_NAME).catch(""), font: z.enum(SIGNATURE_FONTS).catch(SIGNATURE_FONTS[0]) }),
  z.object({ mode: z.literal("drawn"), drawn: z.string().max(MAX_SIGNATURE_DATA_URL).catch("") }),
]);
export type SignatureForm = z.infer<typeof signatureForm>;

/** The signing page's posts: preview the signature, sign with consent, or decline with a reason. */
export const signActionForm = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("preview"), signature: signatureForm }),
  z.object({ intent: z.literal("sign"), signature: signatureForm, consent: z.literal("on").optional().catch(undefined) }),
  z.object({ intent: z.literal("decline"), reason: z.string().trim().max(MAX_DECLINE_REASON).catch("") }),
]);
