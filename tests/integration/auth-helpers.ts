import { env } from "cloudflare:workers";
import { expect } from "vitest";
import type { TestTenant } from "../factories";
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
    const row = await env.DB.prepare("SELECT subject, text, created_at FROM dev_mailbox WHERE to_address = ? AND created_at >= ? ORDER BY created_at DESC LIMIT 1")
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

export async function count(table: string, where = "1=1", ...binds: unknown[]): Promise<number> {
  const row = await env.DB.prepare(`SELECT COUNT(*) AS n FROM ${table} WHERE ${where}`)
    .bind(...binds)
    .first<{ n: number }>();
  return row?.n ?? 0;
}
