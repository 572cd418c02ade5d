/**
 * PBKDF2-SHA256 through WebCrypto. The Workers runtime refuses more than 100,000 iterations,
 * so that is the cost; the stored string names algorithm and parameters so a later
 * change can re-hash on the next successful sign-in (see needsRehash).
 */
import { base64ToBytes, bytesToBase64 } from "~/utils/base64";

export const PBKDF2_ITERATIONS = 100_000;
const SALT_BYTES = 16;
const KEY_BITS = 256;

async function derive(password: string, salt: Uint8Array, iterations: number): Promise<Uint8Array> {
  const key = await crypto.subtle.importKey("raw", new TextEncoder().encode(password), "PBKDF2", false, ["deriveBits"]);
  const bits = await crypto.subtle.deriveBits({ name: "PBKDF2", hash: "SHA-256", salt: salt as BufferSource, iterations }, key, KEY_BITS);
  return new Uint8Array(bits);
}

export async function hashPassword(password: string): Promise<string> {
  const salt = crypto.getRandomValues(new Uint8Array(SALT_BYTES));
  const hash = await derive(password, salt, PBKDF2_ITERATIONS);
  return `pbkdf2-sha256$${PBKDF2_ITERATIONS}$${bytesToBase64(salt)}$${bytesToBase64(hash)}`;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [alg, iter, salt, hash] = stored.split("$");
  if (alg !== "pbkdf2-sha256" || !iter || !salt || !hash) return false;
  const iterations = Number(iter);
  if (!Number.isInteger(iterations) || iterations < 1 || iterations > PBKDF2_ITERATIONS) return false;
  const expected = base64ToBytes(hash);
  const actual = await derive(password, base64ToBytes(salt), iterations);
  if (actual.length !== expected.length) return false;
  let diff = 0;
  for (let i = 0; i < actual.length; i++) diff |= actual[i] ^ expected[i];
  return diff === 0;
}

export function needsRehash(stored: string): boolean {
  const [alg, iter] = stored.split("$");
  return alg !== "pbkdf2-sha256" || Number(iter) < PBKDF2_ITERATIONS;
}

let dummyHash: Promise<string> | null = null;
/** Spends the same time as a real check so an unknown e-mail is not told apart by timing. */
export async function burnPasswordCheck(password: string): Promise<void> {
  dummyHash ??= hashPassword("not-a-real-password-0");
  await verifyPassword(password, await dummyHash);
}
