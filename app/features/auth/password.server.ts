/**
 * Password hashing: HMAC-SHA256 with the secret pepper (PASSWORD_PEPPER), then PBKDF2-SHA256
 * through WebCrypto at 100,000 iterations, the most the Workers runtime accepts. A copy of the
 * users table alone cannot be attacked offline: the pepper lives only in the Worker's secrets.
 * Stored strings name algorithm, pepper version and parameters, so hashes written before the
 * pepper (or with an older pepper) still verify and are rewritten on the next successful
 * sign-in (needsRehash). ADR 0009.
 *
 *   pbkdf2-sha256-hmac$<pepper version>$<iterations>$<salt>$<hash>    current
 *   pbkdf2-sha256$<iterations>$<salt>$<hash>                           before the pepper
 */
import { base64ToBytes, bytesToBase64 } from "~/utils/base64";

export const PBKDF2_ITERATIONS = 100_000;
const SALT_BYTES = 16;
const KEY_BITS = 256;
const PEPPERED = "pbkdf2-sha256-hmac";
const LEGACY = "pbkdf2-sha256";
/** A pepper shorter than this is a configuration mistake, not a secret. */
export const MIN_PEPPER_LENGTH = 32;

export type PepperEnv = { PASSWORD_PEPPER?: string };

/** Thrown when PASSWORD_PEPPER is missing or malformed: sign-in stops rather than hash without it. */
export class PasswordConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "PasswordConfigError";
  }
}

type Pepper = { version: number; key: string };

/**
 * PASSWORD_PEPPER is `version:secret` pairs, comma-separated (`2:new,1:old`): the highest
 * version peppers new hashes, any listed version verifies. A bare secret is version 1.
 */
export function parsePeppers(raw: string | undefined): Pepper[] {
  if (!raw || !raw.trim()) throw new PasswordConfigError("PASSWORD_PEPPER is not configured");
  const peppers = raw.split(",").map((part) => {
    const m = /^\s*(\d{1,4}):(.*?)\s*$/.exec(part);
    const version = m ? Number(m[1]) : 1;
    const key = (m ? m[2] : part).trim();
    if (key.length < MIN_PEPPER_LENGTH) throw new PasswordConfigError(`PASSWORD_PEPPER version ${version} is shorter than ${MIN_PEPPER_LENGTH} characters`);
    return { version, key };
  });
  if (new Set(peppers.map((p) => p.version)).size !== peppers.length) throw new PasswordConfigError("PASSWORD_PEPPER lists a version twice");
  return peppers.sort((a, b) => b.version - a.version);
}

async function pepper(key: string, password: string): Promise<Uint8Array> {
  const hmacKey = await crypto.subtle.importKey("raw", new TextEncoder().encode(key), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  return new Uint8Array(await crypto.subtle.sign("HMAC", hmacKey, new TextEncoder().encode(password)));
}

/**
 * The one slow step. An object, so a test can count how many derivations a sign-in spends:
 * that count, not wall time, is what keeps accounts from being told apart by timing.
 */
export const kdf = {
  async derive(secret: Uint8Array, salt: Uint8Array, iterations: number): Promise<Uint8Array> {
    const key = await crypto.subtle.importKey("raw", secret as BufferSource, "PBKDF2", false, ["deriveBits"]);
    const bits = await crypto.subtle.deriveBits({ name: "PBKDF2", hash: "SHA-256", salt: salt as BufferSource, iterations }, key, KEY_BITS);
    return new Uint8Array(bits);
  },
};

function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a[i] ^ b[i];
  return diff === 0;
}

export async function hashPassword(env: PepperEnv, password: string): Promise<string> {
  const [current] = parsePeppers(env.PASSWORD_PEPPER);
  const salt = crypto.getRandomValues(new Uint8Array(SALT_BYTES));
  const hash = await kdf.derive(await pepper(current.key, password), salt, PBKDF2_ITERATIONS);
  return `${PEPPERED}$${current.version}$${PBKDF2_ITERATIONS}$${bytesToBase64(salt)}$${bytesToBase64(hash)}`;
}

type Parsed = { pepperVersion: number | null; iterations: number; salt: Uint8Array; hash: Uint8Array };

function parseStored(stored: string): Parsed | null {
  const parts = stored.split("$");
  let pepperVersion: number | null = null;
  let rest: string[];
  if (parts[0] === PEPPERED && parts.length === 5) {
    pepperVersion = Number(parts[1]);
    if (!Number.isInteger(pepperVersion)) return null;
    rest = parts.slice(2);
  } else if (parts[0] === LEGACY && parts.length === 4) {
    rest = parts.slice(1);
  } else {
    return null;
  }
  const iterations = Number(rest[0]);
  if (!Number.isInteger(iterations) || iterations < 1 || iterations > PBKDF2_ITERATIONS || !rest[1] || !rest[2]) return null;
  return { pepperVersion, iterations, salt: base64ToBytes(rest[1]), hash: base64ToBytes(rest[2]) };
}

/**
 * Checks a password against a stored hash. Always one derivation, whatever the stored string
 * holds (an unreadable hash or an unknown pepper version is checked against a throw-away salt),
 * and always fails closed on a missing pepper, even for a hash written before the pepper.
 */
export async function verifyPassword(env: PepperEnv, password: string, stored: string): Promise<boolean> {
  const peppers = parsePeppers(env.PASSWORD_PEPPER);
  const parsed = parseStored(stored);
  const p = parsed?.pepperVersion != null ? peppers.find((x) => x.version === parsed.pepperVersion) : undefined;
  if (!parsed || (parsed.pepperVersion != null && !p)) {
    await kdf.derive(await pepper(peppers[0].key, password), new Uint8Array(SALT_BYTES), PBKDF2_ITERATIONS);
    return false;
  }
  const secret = p ? await pepper(p.key, password) : new TextEncoder().encode(password);
  return equalBytes(await kdf.derive(secret, parsed.salt, parsed.iterations), parsed.hash);
}

/** True when the hash predates the pepper, uses an older pepper version or fewer iterations. */
export function needsRehash(env: PepperEnv, stored: string): boolean {
  const parsed = parseStored(stored);
  if (!parsed || parsed.pepperVersion == null) return true;
  return parsed.pepperVersion !== parsePeppers(env.PASSWORD_PEPPER)[0].version || parsed.iterations < PBKDF2_ITERATIONS;
}

/** Spends exactly what a real check spends, so an unknown e-mail is not told apart by timing. */
export async function burnPasswordCheck(env: PepperEnv, password: string): Promise<void> {
  const [current] = parsePeppers(env.PASSWORD_PEPPER);
  await kdf.derive(await pepper(current.key, password), new Uint8Array(SALT_BYTES), PBKDF2_ITERATIONS);
}
