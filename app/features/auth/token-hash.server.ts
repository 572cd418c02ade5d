import { sha256Hex } from "~/utils/ids";

/**
 * The SHA-256 of a session token (the sessions table keys sessions by it), kept per isolate for
 * the tokens it has seen lately, so a signed-in person's every request does not hash the same
 * token again.
 *
 * Why this is safe:
 * - Only the hash is cached, never a decision: whether the session is live (revoked, expired, its
 *   user disabled or removed) is read from D1 on every request, so a revoked session stops working
 *   at once, cache or not.
 * - The hash is a pure function of the token: a hit returns exactly what hashing would.
 * - Callers hash only a token taken from a cookie whose signature verified, so nobody can fill the
 *   cache with tokens of their choosing without the cookie secret.
 * - It is bounded: the oldest entry goes when it is full; an isolate holds at most TOKEN_HASH_CACHE_SIZE.
 * - It lives only in the isolate's memory, as the tokens of the requests it serves already do.
 */
export const TOKEN_HASH_CACHE_SIZE = 1000;

const hashes = new Map<string, string>();

export async function sessionTokenHash(token: string): Promise<string> {
  const known = hashes.get(token);
  if (known !== undefined) return known;
  const hash = await sha256Hex(token);
  if (hashes.size >= TOKEN_HASH_CACHE_SIZE) hashes.delete(hashes.keys().next().value as string);
  hashes.set(token, hash);
  return hash;
}

/** How many tokens the isolate's cache holds (tests). */
export function tokenHashCacheSize(): number {
  return hashes.size;
}
