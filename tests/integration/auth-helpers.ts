import { env } from "cloudflare:workers";
import { expect } from "vitest";
import { getDb } from "~/db/client.server";
import { platformAdmins } from "~/db/schema";
import { hashPassword } from "~/features/auth/password.server";
import { bytesToBase64 } from "~/utils/base64";
import { newId } from "~/utils/ids";
import { PASSWORD, type TestTenant } from "../factories";
import { Browser, location } from "./http";

/** Signs in without JavaScript (form post) on the tenant host; returns the browser holding the cookie. */
export async function signIn(tenant: TestTenant, user: { email: string; password: string }, browser = new Browser()): Promise<Browser> {
  const res = await browser.post(`${tenant.origin}/login`, { email: user.email, password: user.password });
  expect(res.status, await res.clone().text()).toBe(302);
  expect(location(res)).toBe("/");
  return browser;
}

/** Waits for the EMAIL consumer to deliver to the dev mailbox and returns the newest message to `to`. */
export async function waitForMail(to: string, opts: { after?: number; timeoutMs?: number } = {}) {
  const deadline = Date.now() + (opts.timeoutMs ?? 15_000);
  const after = opts.after ?? 0;
  for (;;) {
    const row = await env.DB.prepare(
      "SELECT subject, text, created_at FROM dev_mailbox WHERE to_address = ? AND created_at >= ? ORDER BY created_at DESC LIMIT 1",
    )
      .bind(to.toLowerCase(), after)
      .first<{ subject: string; text: string; created_at: number }>();
    if (row) return row;
    if (Date.now() > deadline) throw new Error(`No mail for ${to} within the timeout`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

export function codeFrom(mail: { text: string }): string {
  const m = mail.text.match(/\b(\d{6})\b/);
  if (!m) throw new Error("No code in the mail");
  return m[1];
}

/** The code e-mailed to `to` since `after`, read from the dev mailbox the EMAIL consumer fills. */
export async function mailedCode(to: string, after: number): Promise<string> {
  return codeFrom(await waitForMail(to, { after }));
}

/** A six-digit code that is not `code`. */
export function wrongCode(code: string): string {
  return code === "000000" ? "111111" : "000000";
}

export async function count(table: string, where = "1=1", ...binds: unknown[]): Promise<number> {
  const row = await env.DB.prepare(`SELECT COUNT(*) AS n FROM ${table} WHERE ${where}`)
    .bind(...binds)
    .first<{ n: number }>();
  return row?.n ?? 0;
}

let adminSeq = 0;
/** A platform super-admin (bare domain only), with the test password unless told otherwise. */
export async function createPlatformAdmin(opts: { email?: string; password?: string; passwordHash?: string } = {}) {
  adminSeq += 1;
  const id = newId();
  const email = (opts.email ?? `admin-${Date.now().toString(36)}-${adminSeq}@platform.test`).toLowerCase();
  const password = opts.password ?? PASSWORD;
  await getDb(env)
    .insert(platformAdmins)
    .values({
      id,
      email,
      displayName: "Test Super-admin",
      isSuperAdmin: true,
      scopes: ["system.superadmin", "system.tenants.create"],
      passwordHash: opts.passwordHash ?? (await hashPassword(env, password)),
      createdAt: Date.now(),
    });
  return { id, email, password };
}

/** A hash in the format written before the pepper: PBKDF2-SHA256 of the bare password. */
export async function legacyUnpepperedHash(password: string, iterations = 100_000): Promise<string> {
  const salt = crypto.getRandomValues(new Uint8Array(16));
  const key = await crypto.subtle.importKey("raw", new TextEncoder().encode(password), "PBKDF2", false, ["deriveBits"]);
  const bits = await crypto.subtle.deriveBits({ name: "PBKDF2", hash: "SHA-256", salt, iterations }, key, 256);
  return `pbkdf2-sha256$${iterations}$${bytesToBase64(salt)}$${bytesToBase64(new Uint8Array(bits))}`;
}

/** POSTs /login on the bare domain. */
export async function bareSignIn(email: string, password: string, browser = new Browser()) {
  const res = await browser.post("http://localhost/login", { email, password });
  return { b: browser, res };
}

/** A platform sign-in on the bare domain through both steps (password, then the e-mailed code). */
export async function signInPlatform(email: string, password: string, browser = new Browser()): Promise<Browser> {
  const started = Date.now();
  const { res } = await bareSignIn(email, password, browser);
  expect(res.status, await res.clone().text()).toBe(302);
  expect(location(res)).toBe("/login/verify");
  const verified = await browser.post("http://localhost/login/verify", { code: await mailedCode(email, started) });
  expect(location(verified)).toBe("/superadmin");
  return browser;
}
