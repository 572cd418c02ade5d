/**
 * Every decision that depends on which environment the Worker runs in (ADR 0010).
 *
 * Development comforts (non-Secure cookies, 'unsafe-inline' scripts for Vite, no HSTS) and
 * developer tools (/dev/mailbox, the dev e-mail transport, the D1 query counter) need BOTH an
 * explicit APP_ENV and a local host. Anything else — a missing or misspelt APP_ENV, or the
 * development config deployed and reached on a real domain — is production. The top level of
 * wrangler.toml is the local config, so a deploy that forgets `--env production` must still
 * fail closed.
 */

export type AppEnv = "development" | "test" | "production";

/** APP_ENV as declared; anything but the two exact non-production names is production. */
export function appEnv(env: Pick<Env, "APP_ENV">): AppEnv {
  const v: unknown = env.APP_ENV;
  return v === "development" || v === "test" ? v : "production";
}

function hostname(host: string): string {
  // "[::1]:5173" → "[::1]", "localhost:5173" → "localhost"
  const h = host.trim().toLowerCase();
  if (h.startsWith("[")) return h.slice(0, h.indexOf("]") + 1);
  return h.replace(/:\d+$/, "");
}

/** localhost, *.localhost, 127.0.0.1 and [::1]: names that only ever reach this machine. */
export function isLocalHost(host: string): boolean {
  const h = hostname(host);
  return h === "localhost" || h.endsWith(".localhost") || h === "127.0.0.1" || h === "[::1]";
}

/**
 * The configured domain must be local, and so must the request's host when there is a
 * request: code without one (queue consumers, cron) relies on APP_DOMAIN alone.
 */
function onLocalHost(env: Pick<Env, "APP_DOMAIN">, request?: Request): boolean {
  if (!isLocalHost(env.APP_DOMAIN ?? "")) return false;
  if (!request) return true;
  // Asked several times per request (environment, cookies, developer tools): the address is parsed once.
  let local = localRequests.get(request);
  if (local === undefined) {
    local = isLocalHost(new URL(request.url).host);
    localRequests.set(request, local);
  }
  return local;
}
const localRequests = new WeakMap<Request, boolean>();

/** Local development: relaxed CSP for Vite, plain-http cookies, no HSTS. */
export function isDevelopment(env: Pick<Env, "APP_ENV" | "APP_DOMAIN">, request?: Request): boolean {
  return appEnv(env) === "development" && onLocalHost(env, request);
}

/** /dev/mailbox, the dev e-mail transport and the D1 query counter: development and the workerd tests. */
export function devToolsEnabled(env: Pick<Env, "APP_ENV" | "APP_DOMAIN">, request?: Request): boolean {
  return appEnv(env) !== "production" && onLocalHost(env, request);
}

/**
 * Cookies are Secure (and __Host- prefixed) everywhere except local development over http.
 * Pass the request when there is one; the Worker also pins APP_ENV to production for a
 * request to a non-local host (requestEnvironment), so a caller without the request
 * cannot relax it either.
 */
export function secureCookies(env: Pick<Env, "APP_ENV" | "APP_DOMAIN">, request?: Request): boolean {
  return !isDevelopment(env, request);
}

/** The Env the app sees for one request: a development APP_ENV only survives on a local host. */
export function requestEnvironment<E extends Pick<Env, "APP_ENV" | "APP_DOMAIN">>(env: E, request: Request): E {
  if (appEnv(env) === "production" || onLocalHost(env, request)) return env;
  return { ...env, APP_ENV: "production" };
}

export class ConfigurationError extends Error {
  override name = "ConfigurationError";
}

/** Cookie signing secrets, newest first; missing configuration is an error, never a default. */
export function sessionSecrets(env: Pick<Env, "SESSION_SECRETS">): string[] {
  const list = (env.SESSION_SECRETS ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  if (list.length === 0) throw new ConfigurationError("SESSION_SECRETS is not configured");
  return list;
}
