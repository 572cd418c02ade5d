import { errors, jwtVerify, SignJWT } from "jose";
import { dbFor } from "~/db/client.server";
import { usedTokens } from "~/db/schema";
import { newId } from "~/utils/ids";
import type { Result } from "~/utils/result";

/**
 * Short-lived signed tokens (HS256, TOKEN_SECRET): the bare-domain -> tenant-host session
 * hand-over and the portal magic link. Each carries a jti that is burned on use.
 */
export type TokenKind = "accept-session" | "portal-link" | "login-choice" | "user-invite" | "password-reset";

function key(env: Env): Uint8Array {
  if (!env.TOKEN_SECRET || env.TOKEN_SECRET.length < 16) throw new Error("TOKEN_SECRET is not configured");
  return new TextEncoder().encode(env.TOKEN_SECRET);
}

export async function signToken(
  env: Env,
  opts: { kind: TokenKind; subject: string; audience: string; ttlSeconds: number; claims?: Record<string, unknown> },
): Promise<{ token: string; jti: string; expiresAt: number }> {
  const jti = newId();
  const now = Math.floor(Date.now() / 1000);
  const token = await signTokenWith(env, { ...opts, jti, issuedAt: now, expiresAt: now + opts.ttlSeconds });
  return { token, jti, expiresAt: (now + opts.ttlSeconds) * 1000 };
}

/**
 * A token with a given id, issue time and expiry (seconds). HS256 is deterministic: called with
 * what signToken used, it makes the same token again, so a link can be shown later without its
 * token ever being stored.
 */
export function signTokenWith(
  env: Env,
  opts: { kind: TokenKind; subject: string; audience: string; jti: string; issuedAt: number; expiresAt: number; claims?: Record<string, unknown> },
): Promise<string> {
  return new SignJWT({ ...opts.claims, knd: opts.kind })
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setSubject(opts.subject)
    .setAudience(opts.audience)
    .setIssuedAt(opts.issuedAt)
    .setExpirationTime(opts.expiresAt)
    .setJti(opts.jti)
    .sign(key(env));
}

export type VerifiedToken = { subject: string; jti: string; expiresAt: number; claims: Record<string, unknown> };
export type TokenFailure = "expired" | "invalid";

export async function verifyToken(
  env: Env,
  token: string,
  opts: { kind: TokenKind; audience: string },
): Promise<Result<{ value: VerifiedToken }, TokenFailure>> {
  if (!token || token.length > 4096) return { ok: false, code: "invalid" };
  try {
    const { payload } = await jwtVerify(token, key(env), { audience: opts.audience, algorithms: ["HS256"] });
    if (payload.knd !== opts.kind || !payload.sub || !payload.jti || !payload.exp) return { ok: false, code: "invalid" };
    return { ok: true, value: { subject: payload.sub, jti: payload.jti, expiresAt: payload.exp * 1000, claims: payload } };
  } catch (err) {
    return { ok: false, code: err instanceof errors.JWTExpired ? "expired" : "invalid" };
  }
}

/** Burns a token id; false when it was already used (single use, across isolates, via D1). */
export async function burnToken(env: Env, opts: { jti: string; kind: TokenKind; tenantId: string | null; expiresAt: number }): Promise<boolean> {
  const rows = await dbFor(env, opts.tenantId)
    .insert(usedTokens)
    .values({ jti: opts.jti, kind: opts.kind, tenantId: opts.tenantId, usedAt: Date.now(), expiresAt: opts.expiresAt })
    .onConflictDoNothing()
    .returning({ jti: usedTokens.jti });
  return rows.length === 1;
}
