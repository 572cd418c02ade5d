import { and, eq, isNull, lt } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { dbFor, sumOverShards, type Db } from "~/db/client.server";
import { forTenant } from "~/db/tenancy";
import { submissionKeys } from "~/db/schema";
import { base64UrlToBytes, bytesToBase64Url } from "~/utils/base64";
import { newId } from "~/utils/ids";
import { SUBMISSION_KEY_FIELD, SUBMISSION_KEY_MESSAGES, type SubmissionKeyRefusal } from "./submission-key-codes";
import type { Result } from "~/utils/result";

/**
 * One-time submission keys for forms whose action does something outside the row it updates
 * (an e-mail, a job, an HMRC message, a bulk change). The loader mints a key for each such
 * form: random, signed with a key derived from TOKEN_SECRET over the tenant, the person and the
 * action name, so minting writes nothing. The action checks it after its guards; the first
 * submission inserts the key into `submission_keys` in the same D1 batch as its effect (a
 * plain INSERT: on a repeated key the unique index fails the whole batch, so nothing happens),
 * then stores its answer; a repeat reads that answer back and does nothing else.
 */

/** A key lives this long: older keys are refused, and stored ones are purged after it. */
export const SUBMISSION_KEY_LIFETIME_MS = 24 * 60 * 60 * 1000;
/** Clocks of isolates may differ a little: a key "from the future" within this is accepted. */
const CLOCK_SKEW_MS = 60_000;
const NONCE_BYTES = 16;

/** Whose form it is and what it does; `action` may name its subject ("cis.statement.issue:{id}"). */
export type SubmissionScope = { tenantId: string; userId: string; action: string };

/** What the first submission adds to its effect's D1 batch. */
export type SubmissionClaim = SubmissionScope & { key: string; claimId: string };

const signingKeys = new Map<string, Promise<CryptoKey>>();

function signingKey(env: Env): Promise<CryptoKey> {
  const secret = env.TOKEN_SECRET;
  if (!secret || secret.length < 16) throw new Error("TOKEN_SECRET is not configured");
  let key = signingKeys.get(secret);
  if (!key) {
    key = crypto.subtle.importKey("raw", new TextEncoder().encode(`submission-keys/v1:${secret}`), { name: "HMAC", hash: "SHA-256" }, false, [
      "sign",
      "verify",
    ]);
    signingKeys.set(secret, key);
  }
  return key;
}

function signedText(scope: SubmissionScope, issuedAt: string, nonce: string): Uint8Array<ArrayBuffer> {
  return new TextEncoder().encode(JSON.stringify([scope.tenantId, scope.userId, scope.action, issuedAt, nonce]));
}

/** A fresh key for one rendering of one form. No D1: pages keep their round trips. */
export async function mintSubmissionKey(env: Env, scope: SubmissionScope, now = Date.now()): Promise<string> {
  const issuedAt = now.toString(36);
  const nonce = bytesToBase64Url(crypto.getRandomValues(new Uint8Array(NONCE_BYTES)));
  const mac = new Uint8Array(await crypto.subtle.sign("HMAC", await signingKey(env), signedText(scope, issuedAt, nonce)));
  return `${issuedAt}.${nonce}.${bytesToBase64Url(mac)}`;
}

/** The key's nonce when it was minted for this scope and is still fresh; the refusal otherwise. */
export async function verifySubmissionKey(
  env: Env,
  scope: SubmissionScope,
  value: unknown,
  now = Date.now(),
): Promise<Result<{ key: string }, SubmissionKeyRefusal>> {
  if (typeof value !== "string" || value === "") return { ok: false, code: "missing" };
  const parts = value.length <= 200 ? value.split(".") : [];
  if (parts.length !== 3) return { ok: false, code: "invalid" };
  const [issuedAt, nonce, macText] = parts;
  const mac = base64UrlToBytes(macText);
  const nonceBytes = base64UrlToBytes(nonce);
  if (!mac || !nonceBytes || nonceBytes.length !== NONCE_BYTES || !/^[0-9a-z]{1,12}$/.test(issuedAt)) return { ok: false, code: "invalid" };
  // crypto.subtle.verify compares in constant time.
  const genuine = await crypto.subtle.verify("HMAC", await signingKey(env), mac, signedText(scope, issuedAt, nonce));
  if (!genuine) return { ok: false, code: "invalid" };
  const issued = parseInt(issuedAt, 36);
  if (issued > now + CLOCK_SKEW_MS || now - issued > SUBMISSION_KEY_LIFETIME_MS) return { ok: false, code: "expired" };
  return { ok: true, key: nonce };
}

/**
 * The statement a first submission adds to its effect's batch. A plain INSERT on purpose: when
 * the key was used already the unique index fails it, and D1 rolls the whole batch back.
 */
export function claimSubmission(db: Db, claim: SubmissionClaim): BatchItem<"sqlite"> {
  return db.insert(submissionKeys).values({
    tenantId: claim.tenantId,
    key: claim.key,
    userId: claim.userId,
    action: claim.action,
    claimId: claim.claimId,
    createdAt: Date.now(),
  });
}

type StoredKey = { userId: string; action: string; claimId: string; result: unknown };

async function storedKey(env: Env, tenantId: string, key: string): Promise<StoredKey | null> {
  const rows = await dbFor(env, tenantId)
    .select({ userId: submissionKeys.userId, action: submissionKeys.action, claimId: submissionKeys.claimId, result: submissionKeys.result })
    .from(submissionKeys)
    .where(and(forTenant(submissionKeys, tenantId), eq(submissionKeys.key, key)))
    .limit(1);
  return rows[0] ?? null;
}

/** Records the first submission's answer, once; false when this submission's claim is not stored. */
async function settle(env: Env, claim: SubmissionClaim, result: unknown): Promise<boolean> {
  const res = await dbFor(env, claim.tenantId)
    .update(submissionKeys)
    .set({ result })
    .where(
      and(
        forTenant(submissionKeys, claim.tenantId),
        eq(submissionKeys.key, claim.key),
        eq(submissionKeys.claimId, claim.claimId),
        isNull(submissionKeys.result),
      ),
    );
  return (res.meta.changes ?? 0) > 0;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A repeat that arrived while the first submission was still running waits a little for its answer. */
async function firstAnswer(env: Env, scope: SubmissionScope, key: string, found: StoredKey): Promise<SubmissionOutcome<never>> {
  let row: StoredKey | null = found;
  for (let attempt = 0; row && row.result === null && attempt < 10; attempt++) {
    await sleep(200);
    row = await storedKey(env, scope.tenantId, key);
  }
  if (!row || row.result === null) return { kind: "pending", message: SUBMISSION_KEY_MESSAGES.pending };
  return { kind: "repeat", result: row.result as never };
}

export type SubmissionOutcome<R> =
  /** This submission acted (or was refused before acting): its own answer. */
  | { kind: "first"; result: R }
  /** The key was used already: the first submission's answer, and nothing was done now. */
  | { kind: "repeat"; result: R }
  /** The key was used already and the first submission has not answered yet. */
  | { kind: "pending"; message: string }
  /** No key, a forged or another person's key, or an expired one: nothing was done. */
  | { kind: "refused"; code: SubmissionKeyRefusal; message: string };

/**
 * Runs a form's effect at most once per submission key. Call it after the guards and the
 * scope checks. `run` must put `claimSubmission(db, claim)` into the D1 batch that carries the
 * effect; its answer (JSON) is stored for repeats. An answer given without running that batch
 * (a refusal before any write) spends nothing, so the key still works.
 */
export async function submitOnce<R>(
  env: Env,
  form: FormData,
  scope: SubmissionScope,
  run: (claim: SubmissionClaim) => Promise<R>,
): Promise<SubmissionOutcome<R>> {
  const checked = await verifySubmissionKey(env, scope, form.get(SUBMISSION_KEY_FIELD));
  if (!checked.ok) return { kind: "refused", code: checked.code, message: SUBMISSION_KEY_MESSAGES[checked.code] };
  const existing = await storedKey(env, scope.tenantId, checked.key);
  if (existing) {
    if (existing.userId !== scope.userId || existing.action !== scope.action)
      return { kind: "refused", code: "invalid", message: SUBMISSION_KEY_MESSAGES.invalid };
    return firstAnswer(env, scope, checked.key, existing);
  }
  const claim: SubmissionClaim = { ...scope, key: checked.key, claimId: newId() };
  let result: R;
  try {
    result = await run(claim);
  } catch (err) {
    // A racing submission with the same key stored it first, so this batch was rolled back.
    const raced = await storedKey(env, scope.tenantId, checked.key);
    if (raced && raced.claimId !== claim.claimId) return firstAnswer(env, scope, checked.key, raced);
    throw err;
  }
  if (!(await settle(env, claim, result))) {
    // The effect's own code caught the failed batch (say, as 'already taken'): the racing first submission answers.
    const raced = await storedKey(env, scope.tenantId, checked.key);
    if (raced && raced.claimId !== claim.claimId) return firstAnswer(env, scope, checked.key, raced);
  }
  return { kind: "first", result };
}

/** Hourly housekeeping: keys are refused a day after minting, so their rows can go then. */
export async function purgeSubmissionKeys(env: Env, now: number): Promise<number> {
  return sumOverShards(env, async function purgeSubmissionKeysIn(db) {
    const res = await db.delete(submissionKeys).where(lt(submissionKeys.createdAt, now - SUBMISSION_KEY_LIFETIME_MS));
    return res.meta.changes ?? 0;
  });
}
