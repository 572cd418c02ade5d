/**
 * GovTalk messages at rest. A CIS300 carries every subcontractor's UTR (and NINO), a verification
 * request and HMRC's answer to it the same, so the XML the gateway keeps (hmrc_submissions) and
 * the development Transaction Engine's log (dev_hmrc_messages) are stored encrypted with the PII
 * keys: AES-256-GCM, bound to the tenant, table, row id and column like the UTR columns, so a
 * value copied to another row or column does not open. What the pages need in clear (status,
 * IRmark, correlation id, HMRC's receipt and errors) lives in columns of its own.
 *
 * Rows written before this was in place hold the XML as it was (it starts with `<`); they are
 * read as they are, and housekeeping (sealLegacyHmrcXml) and key rotation encrypt them.
 */
import { decryptPii, encryptPii, keyVersionOf, type PiiContext } from "../pii.server";

export type SubmissionXmlField = "request_xml" | "response_xml";
export type DevMessageXmlField = "request_xml" | "response_xml" | "final_response_xml";

/** The development Transaction Engine stands in for HMRC, not for a tenant: its rows are bound to this instead. */
export const DEV_HMRC_BINDING = "dev-hmrc";

export function submissionXmlContext(tenantId: string, id: string, field: SubmissionXmlField): PiiContext {
  return { tenantId, table: "hmrc_submissions", recordId: id, field };
}

export function devMessageXmlContext(id: string, field: DevMessageXmlField): PiiContext {
  return { tenantId: DEV_HMRC_BINDING, table: "dev_hmrc_messages", recordId: id, field };
}

/** Whether a stored value is in the encrypted form (`v{key}.{iv}.{ciphertext}`) rather than legacy plain XML. */
export function isSealed(stored: string): boolean {
  return keyVersionOf(stored) !== null;
}

export async function sealXml(env: Pick<Env, "PII_KEYS">, xml: string, ctx: PiiContext): Promise<string> {
  return encryptPii(env.PII_KEYS, xml, ctx);
}

export async function sealXmlOrNull(env: Pick<Env, "PII_KEYS">, xml: string | null | undefined, ctx: PiiContext): Promise<string | null> {
  return xml === null || xml === undefined ? null : sealXml(env, xml, ctx);
}

/** The XML of a stored value: decrypted when sealed, as it is when it is a legacy plaintext row. */
export async function openXml(env: Pick<Env, "PII_KEYS">, stored: string, ctx: PiiContext): Promise<string> {
  return isSealed(stored) ? decryptPii(env.PII_KEYS, stored, ctx) : stored;
}

export async function openXmlOrNull(env: Pick<Env, "PII_KEYS">, stored: string | null, ctx: PiiContext): Promise<string | null> {
  return stored === null ? null : openXml(env, stored, ctx);
}
