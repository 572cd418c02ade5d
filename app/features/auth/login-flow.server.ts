/**
 * The sign-in flow behind /login, /login/verify and /accept-session: throttle, credentials,
 * the e-mailed code, the bare-domain workspace choice and hand-over, and the session at the
 * end. Routes parse the form, call one of these and turn the typed result into a response.
 */
import { createCookie } from "react-router";
import { z } from "zod";
import { clientIp, writeAudit } from "~/features/platform/index.server";
import { secureCookies, sessionSecrets } from "~/features/platform/index.server";
import { tenantOrigin } from "~/features/platform";
import { safeRedirectPath } from "./middleware.server";
import { replaceSession } from "./session.server";
import {
  announceAccountLock,
  challengeBelongsHere,
  challengeSubject,
  checkBareDomainCredentials,
  checkTenantCredentials,
  CODE_TTL_MS,
  findTenantIdBySlug,
  getActivePlatformAdmin,
  getLiveChallenge,
  getUserForSession,
  needsTwoFactor,
  startChallenge,
  verifyChallengeCode,
} from "./sign-in.server";
import {
  accountGlobalKey,
  accountThrottleKeys,
  clearThrottle,
  countAttemptDetailed,
  passwordThrottleKeys,
  refundAttempt,
  type CodeSubject,
} from "./throttle.server";
import { burnToken, signToken, verifyToken } from "./tokens.server";
import type { Err, Ok, Result } from "~/utils/result";

export const HANDOVER_TTL_SECONDS = 60;
const CHOICE_TTL_SECONDS = 300;
/** What the e-mailed code names as the place being signed in to, for platform admins. */
const PLATFORM_PLACE = "platform administration";

type TenantHost = { id: string; slug: string; name: string; requireTwoFactor: boolean };
type SignInMethod = "password" | "password+code";

export type FlowRedirect = Ok<{ kind: "redirect"; location: string; headers: Headers }>;
export type FlowChoice = Ok<{ kind: "choose"; email: string; tenants: { slug: string; name: string }[]; headers: Headers }>;
export type FlowFailure =
  Err<"bad_credentials" | "send_failed" | "choice_expired" | "choice_invalid"> | Err<"throttled" | "codes_exhausted" | "code_step_locked", { waitMs: number }>;
export type PasswordSignInResult = FlowRedirect | FlowChoice | FlowFailure;
export type CodeSignInResult = FlowRedirect | Err<"invalid"> | Err<"code_step_locked", { waitMs: number }>;
export type HandoverResult = FlowRedirect | Err<"invalid" | "reused" | "user">;

/** A signed, host-only cookie that holds one step of a sign-in for `maxAge` seconds. */
function stepCookie(env: Env, name: string, maxAge: number) {
  const secure = secureCookies(env);
  return createCookie(secure ? `__Host-${name}` : name, { httpOnly: true, sameSite: "lax", secure, path: "/", secrets: sessionSecrets(env), maxAge });
}

/** The pending second step: which challenge this browser's sign-in attempt owns. */
export function challengeCookie(env: Env) {
  return stepCookie(env, "login-challenge", CODE_TTL_MS / 1000);
}

/** The accounts a bare-domain password proved, while the user picks a workspace. */
function choiceCookie(env: Env) {
  return stepCookie(env, "login-choice", CHOICE_TTL_SECONDS);
}

const choiceClaims = z.object({
  acc: z.array(z.tuple([z.string().min(1), z.string().min(1)])).min(1),
  tf: z.boolean(),
  rt: z.string().nullable(),
});

const handoverClaims = z.object({
  tid: z.string().min(1),
  rt: z.string().nullable(),
  mth: z.enum(["password", "password+code"]),
});

function redirectTo(location: string, headers = new Headers()): FlowRedirect {
  return { ok: true, kind: "redirect", location, headers };
}

/**
 * The password step. The attempt is counted before the password is checked; a right password
 * gives its attempt back but clears the account's failures only when the sign-in completes,
 * so a known password cannot be used to reset the count while guessing the code.
 */
export async function passwordSignIn(
  env: Env,
  request: Request,
  tenant: TenantHost | null,
  input: { email: string; password: string; twoFactor: boolean; redirectTo: string | null; honeypot: boolean },
): Promise<PasswordSignInResult> {
  // Robots fill the honeypot; they get the ordinary failure and nothing else happens.
  if (input.honeypot) return { ok: false, code: "bad_credentials" };
  const ip = clientIp(request);
  const { email, password } = input;
  const keys = passwordThrottleKeys(email, ip);
  const { wait, newlyLocked } = await countAttemptDetailed(env, keys);
  const globalLock = newlyLocked.find((k) => k.key === accountGlobalKey(email).key);
  if (globalLock) await announceAccountLock(env, email, globalLock.lockedUntil, ip);
  if (wait > 0) {
    await writeAudit(env, { tenantId: tenant?.id ?? null, action: "auth.login.throttled", actorEmail: email, ip });
    return { ok: false, code: "throttled", waitMs: wait };
  }
  const failed = async () => {
    await writeAudit(env, { tenantId: tenant?.id ?? null, action: "auth.login.failed", actorEmail: email, ip });
    return { ok: false as const, code: "bad_credentials" as const };
  };

  if (tenant) {
    const user = await checkTenantCredentials(env, tenant.id, email, password);
    if (!user) return failed();
    await refundAttempt(env, keys);
    if (needsTwoFactor({ toggle: input.twoFactor, userRequired: user.twoFactorRequired, tenantRequired: tenant.requireTwoFactor })) {
      return toCodeStep(env, request, {
        subject: { kind: "staff", tenantId: tenant.id, userId: user.id },
        email: user.email,
        placeName: tenant.name,
        redirectTo: input.redirectTo,
      });
    }
    return completeStaffSignIn(env, request, { onTenantHost: true, user, tenantSlug: tenant.slug, redirectTo: input.redirectTo, method: "password" });
  }

  const { admin, accounts } = await checkBareDomainCredentials(env, email, password);
  if (!admin && accounts.length === 0) return failed();
  await refundAttempt(env, keys);
  // Platform operators always take the e-mailed code: their session can create tenants.
  if (admin) {
    return toCodeStep(env, request, { subject: { kind: "platform", adminId: admin.id }, email: admin.email, placeName: PLATFORM_PLACE, redirectTo: null });
  }
  if (accounts.length > 1) {
    const { token } = await signToken(env, {
      kind: "login-choice",
      subject: email,
      audience: new URL(request.url).origin,
      ttlSeconds: CHOICE_TTL_SECONDS,
      claims: { acc: accounts.map((m) => [m.tenant.id, m.user.id]), tf: input.twoFactor, rt: input.redirectTo } satisfies z.infer<typeof choiceClaims>,
    });
    return {
      ok: true,
      kind: "choose",
      email,
      tenants: accounts.map((m) => ({ slug: m.tenant.slug, name: m.tenant.name })),
      headers: new Headers({ "Set-Cookie": await choiceCookie(env).serialize(token) }),
    };
  }
  return continueWithAccount(env, request, {
    userId: accounts[0].user.id,
    tenantId: accounts[0].user.tenantId,
    toggle: input.twoFactor,
    redirectTo: input.redirectTo,
  });
}

/** Bare domain, after the password: the e-mail has accounts in several tenants and the user chose one. */
export async function chooseWorkspace(env: Env, request: Request, slug: string): Promise<PasswordSignInResult> {
  const token = await choiceCookie(env).parse(request.headers.get("Cookie"));
  const verified = typeof token === "string" ? await verifyToken(env, token, { kind: "login-choice", audience: new URL(request.url).origin }) : null;
  const claims = verified?.ok ? choiceClaims.safeParse(verified.value.claims) : null;
  if (!claims?.success) return { ok: false, code: "choice_expired" };
  const tenantId = await findTenantIdBySlug(env, slug);
  const account = tenantId ? claims.data.acc.find(([tid]) => tid === tenantId) : undefined;
  if (!account) return { ok: false, code: "choice_invalid" };
  const headers = new Headers({ "Set-Cookie": await choiceCookie(env).serialize("", { maxAge: 0 }) });
  return continueWithAccount(env, request, { userId: account[1], tenantId: account[0], toggle: claims.data.tf, redirectTo: claims.data.rt }, headers);
}

async function continueWithAccount(
  env: Env,
  request: Request,
  opts: { userId: string; tenantId: string; toggle: boolean; redirectTo: string | null },
  headers = new Headers(),
): Promise<PasswordSignInResult> {
  const row = await getUserForSession(env, opts.tenantId, opts.userId);
  if (!row) return { ok: false, code: "bad_credentials" };
  if (needsTwoFactor({ toggle: opts.toggle, userRequired: row.user.twoFactorRequired, tenantRequired: row.tenant.requireTwoFactor })) {
    return toCodeStep(
      env,
      request,
      {
        subject: { kind: "staff", tenantId: row.tenant.id, userId: row.user.id },
        email: row.user.email,
        placeName: row.tenant.name,
        redirectTo: opts.redirectTo,
      },
      headers,
    );
  }
  return completeStaffSignIn(
    env,
    request,
    { onTenantHost: false, user: row.user, tenantSlug: row.tenant.slug, redirectTo: opts.redirectTo, method: "password" },
    headers,
  );
}

async function toCodeStep(
  env: Env,
  request: Request,
  opts: { subject: CodeSubject; email: string; placeName: string; redirectTo: string | null },
  headers = new Headers(),
): Promise<FlowRedirect | FlowFailure> {
  const started = await startChallenge(env, { ...opts, ip: clientIp(request) });
  if (!started.ok) return started;
  headers.append("Set-Cookie", await challengeCookie(env).serialize(started.challengeId));
  return redirectTo("/login/verify", headers);
}

async function challengeIdFrom(env: Env, request: Request): Promise<string | null> {
  const v = await challengeCookie(env).parse(request.headers.get("Cookie"));
  return typeof v === "string" && v ? v : null;
}

/** Whether this browser holds a code step that can still be finished on this host. */
export async function hasLiveChallenge(env: Env, request: Request, hostTenantId: string | null): Promise<boolean> {
  const id = await challengeIdFrom(env, request);
  const challenge = id ? await getLiveChallenge(env, id, hostTenantId) : null;
  // A challenge belongs to one tenant (or the platform): a cookie replayed on another host is useless.
  return Boolean(challenge && challengeBelongsHere(challenge, hostTenantId));
}

/** The code step: on success the sign-in completes (session here, or hand-over from the bare domain). */
export async function codeSignIn(env: Env, request: Request, tenant: TenantHost | null, code: string): Promise<CodeSignInResult> {
  const ip = clientIp(request);
  const id = await challengeIdFrom(env, request);
  if (!id) return { ok: false, code: "invalid" };
  const verified = await verifyChallengeCode(env, id, code, tenant?.id ?? null);
  if (!verified.ok) {
    if (verified.challenge) {
      await writeAudit(env, {
        tenantId: verified.challenge.tenantId,
        action: verified.code === "code_step_locked" ? "auth.code.locked" : "auth.code.invalid",
        actorId: verified.challenge.userId,
        targetType: "login_challenge",
        targetId: id,
        ip,
      });
    }
    return verified.code === "code_step_locked" ? { ok: false, code: "code_step_locked", waitMs: verified.waitMs } : { ok: false, code: "invalid" };
  }
  const subject = challengeSubject(verified.challenge);
  const headers = new Headers({ "Set-Cookie": await challengeCookie(env).serialize("", { maxAge: 0 }) });
  if (subject?.kind === "platform") {
    const admin = await getActivePlatformAdmin(env, subject.adminId);
    if (!admin || tenant) return { ok: false, code: "invalid" };
    return completePlatformSignIn(env, request, admin, headers);
  }
  const row = subject ? await getUserForSession(env, subject.tenantId, subject.userId) : null;
  if (!row) return { ok: false, code: "invalid" };
  return completeStaffSignIn(
    env,
    request,
    { onTenantHost: Boolean(tenant), user: row.user, tenantSlug: row.tenant.slug, redirectTo: verified.challenge.redirectTo, method: "password+code" },
    headers,
  );
}

/**
 * Ends a successful staff sign-in. On a tenant host the browser's previous session there is
 * revoked and a new one set; on the bare domain the user is handed to the tenant host through
 * /accept-session with a 60-second, single-use token whose audience is that host.
 */
async function completeStaffSignIn(
  env: Env,
  request: Request,
  opts: { onTenantHost: boolean; user: { id: string; email: string; tenantId: string }; tenantSlug: string; redirectTo: string | null; method: SignInMethod },
  headers = new Headers(),
): Promise<FlowRedirect> {
  const ip = clientIp(request);
  await clearThrottle(env, accountThrottleKeys(opts.user.email, ip));
  if (opts.onTenantHost) {
    const { setCookie } = await replaceSession(
      env,
      request,
      { kind: "staff", tenantId: opts.user.tenantId, userId: opts.user.id, ip },
      { tenantId: opts.user.tenantId, action: "auth.login.success", actorId: opts.user.id, actorEmail: opts.user.email, payload: { method: opts.method }, ip },
    );
    headers.append("Set-Cookie", setCookie);
    return redirectTo(opts.redirectTo ?? "/", headers);
  }
  const origin = tenantOrigin(opts.tenantSlug, env.APP_DOMAIN, new URL(request.url).protocol);
  const { token } = await signToken(env, {
    kind: "accept-session",
    subject: opts.user.id,
    audience: origin,
    ttlSeconds: HANDOVER_TTL_SECONDS,
    claims: { tid: opts.user.tenantId, rt: opts.redirectTo, mth: opts.method } satisfies z.infer<typeof handoverClaims>,
  });
  await writeAudit(env, {
    tenantId: opts.user.tenantId,
    action: "auth.handover.issued",
    actorId: opts.user.id,
    actorEmail: opts.user.email,
    payload: { method: opts.method },
    ip,
  });
  return redirectTo(`${origin}/accept-session?token=${encodeURIComponent(token)}`, headers);
}

async function completePlatformSignIn(env: Env, request: Request, admin: { id: string; email: string }, headers: Headers): Promise<FlowRedirect> {
  const ip = clientIp(request);
  await clearThrottle(env, accountThrottleKeys(admin.email, ip));
  const { setCookie } = await replaceSession(
    env,
    request,
    { kind: "platform", tenantId: null, userId: admin.id, ip },
    { tenantId: null, action: "auth.login.success", actorId: admin.id, actorEmail: admin.email, payload: { platform: true, method: "password+code" }, ip },
  );
  headers.append("Set-Cookie", setCookie);
  return redirectTo("/superadmin", headers);
}

async function checkHandover(env: Env, request: Request, token: string, tenantId: string) {
  const verified = await verifyToken(env, token, { kind: "accept-session", audience: new URL(request.url).origin });
  if (!verified.ok) return null;
  const claims = handoverClaims.safeParse(verified.value.claims);
  if (!claims.success || claims.data.tid !== tenantId) return null;
  return { ...verified.value, claims: claims.data };
}

/** GET /accept-session: whose account the link opens, without spending it. */
export async function inspectHandover(env: Env, request: Request, tenantId: string, token: string): Promise<Result<{ email: string }, "invalid">> {
  const value = await checkHandover(env, request, token, tenantId);
  const row = value ? await getUserForSession(env, tenantId, value.subject) : null;
  return row ? { ok: true, email: row.user.email } : { ok: false, code: "invalid" };
}

/** POST /accept-session: burns the token, replaces the browser's session on this host and opens the new one. */
export async function acceptHandover(env: Env, request: Request, tenantId: string, token: string): Promise<HandoverResult> {
  const ip = clientIp(request);
  const refuse = async (code: "invalid" | "reused" | "user") => {
    await writeAudit(env, { tenantId, action: "auth.handover.refused", payload: { reason: code }, ip });
    return { ok: false as const, code };
  };
  const value = await checkHandover(env, request, token, tenantId);
  if (!value) return refuse("invalid");
  if (!(await burnToken(env, { jti: value.jti, kind: "accept-session", tenantId, expiresAt: value.expiresAt }))) return refuse("reused");
  const row = await getUserForSession(env, tenantId, value.subject);
  if (!row) return refuse("user");
  const { setCookie } = await replaceSession(
    env,
    request,
    { kind: "staff", tenantId, userId: row.user.id, ip },
    { tenantId, action: "auth.login.success", actorId: row.user.id, actorEmail: row.user.email, payload: { method: value.claims.mth, via: "bare-domain" }, ip },
  );
  return redirectTo(safeRedirectPath(value.claims.rt, "/"), new Headers({ "Set-Cookie": setCookie }));
}
