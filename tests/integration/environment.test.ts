import { createExecutionContext, createMessageBatch, waitOnExecutionContext } from "cloudflare:test";
import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { handleEmailBatch } from "~/features/platform/email/consumer.server";
import { queueEmail } from "~/features/platform/email/send.server";
import { chooseTransport } from "~/features/platform/email/transports.server";
import worker from "../../workers/app";
import { createTenant, createUser } from "../factories";
import { count } from "./auth-helpers";
import { toForm } from "./http";

/** The Worker as a deployment with these variables would run it. */
async function fetchWith(vars: Partial<Record<"APP_ENV" | "APP_DOMAIN", string | undefined>>, url: string, init: RequestInit = {}) {
  const ctx = createExecutionContext();
  const res = await worker.fetch(new Request(url, { redirect: "manual", ...init }) as Parameters<typeof worker.fetch>[0], { ...env, ...vars } as Env, ctx);
  await waitOnExecutionContext(ctx);
  return res;
}

function scriptSrc(res: Response): string {
  return (
    (res.headers.get("Content-Security-Policy") ?? "")
      .split(";")
      .map((d) => d.trim())
      .find((d) => d.startsWith("script-src")) ?? ""
  );
}

function expectProduction(res: Response) {
  expect(scriptSrc(res)).not.toContain("'unsafe-inline'");
  // A nonce, or script hashes on a page a shared cache may keep: either way no inline script runs unlisted.
  expect(scriptSrc(res)).toMatch(/'nonce-|'sha256-/);
  expect(res.headers.get("Strict-Transport-Security")).toMatch(/max-age=\d+/);
  expect(res.headers.get("Server-Timing") ?? "").not.toContain("D1 queries");
}

/** Signs in with a password post and returns the Set-Cookie lines of the answer. */
async function signInCookies(vars: Parameters<typeof fetchWith>[0], origin: string, user: { email: string; password: string }) {
  const res = await fetchWith(vars, `${origin}/login`, {
    method: "POST",
    headers: { Origin: origin },
    body: toForm({ email: user.email, password: user.password }),
  });
  expect(res.status, await res.clone().text()).toBe(302);
  return res.headers.getSetCookie();
}

async function mailboxRows(to: string) {
  return count("dev_mailbox", "to_address = ?", to);
}

async function queueOne(to: string) {
  const sent: unknown[] = [];
  const queue = {
    async send(b: unknown) {
      sent.push(b);
    },
  } as unknown as Queue;
  await queueEmail({ ...env, EMAIL: queue }, { tenantId: null, to, template: "platform.notice", data: { subject: "Hello", message: "Body" } });
  return createMessageBatch("cis-workspace-email", [{ id: `m-${to}`, timestamp: new Date(), attempts: 1, body: sent[0] }]);
}

describe("development mode needs the flag and a local host", () => {
  const realDomain = { APP_ENV: "development", APP_DOMAIN: "example.com" };

  it("APP_ENV=development on a real domain: no mailbox, Secure cookies, strict CSP, no D1 counter", async () => {
    const t = await createTenant();
    const user = await createUser(t);
    const origin = `http://${t.slug}.example.com`;

    for (const path of ["/dev/mailbox", "/dev/mailbox?format=json"]) {
      const res = await fetchWith(realDomain, `http://example.com${path}`);
      expect(res.status, path).toBe(404);
      expect(await res.text()).not.toContain("Development mailbox");
    }

    const page = await fetchWith(realDomain, `${origin}/login`);
    expect(page.status).toBe(200);
    expectProduction(page);

    const cookies = await signInCookies(realDomain, origin, user);
    const session = cookies.find((c) => c.includes("session="));
    expect(session).toMatch(/^__Host-session=/);
    expect(session).toMatch(/;\s*Secure/i);

    const theme = await fetchWith(realDomain, `${origin}/preferences/theme`, {
      method: "POST",
      headers: { Origin: origin },
      body: toForm({ theme: "dark", redirectTo: "/" }),
    });
    expect(theme.status).toBe(302);
    for (const c of theme.headers.getSetCookie()) expect(c, c).toMatch(/^__Host-.*;\s*Secure/i);
  });

  it("the top-level (localhost) config deployed and reached on a real host is production for that request", async () => {
    const res = await fetchWith({ APP_ENV: "development" }, "https://cis-workspace.example.workers.dev/dev/mailbox");
    expect(res.status).toBe(404);
    expectProduction(res);
  });

  it("treats a missing or unknown APP_ENV as production, even on localhost", async () => {
    for (const APP_ENV of [undefined, "", "staging", "Development"]) {
      const res = await fetchWith({ APP_ENV }, "http://localhost/dev/mailbox");
      expect(res.status, String(APP_ENV)).toBe(404);
      expectProduction(res);
      const home = await fetchWith({ APP_ENV }, "http://localhost/");
      expectProduction(home);
    }
  });

  it("APP_ENV=development on localhost turns the developer comforts on", async () => {
    const t = await createTenant();
    const user = await createUser(t);
    const page = await fetchWith({ APP_ENV: "development" }, `${t.origin}/login`);
    expect(scriptSrc(page)).toContain("'unsafe-inline'");
    expect(page.headers.get("Strict-Transport-Security")).toBeNull();
    expect(page.headers.get("Server-Timing")).toContain("D1 queries");
    const cookies = await signInCookies({ APP_ENV: "development" }, t.origin, user);
    const session = cookies.find((c) => c.includes("session="));
    expect(session).toMatch(/^session=/);
    expect(session).not.toMatch(/;\s*Secure/i);
    expect((await fetchWith({ APP_ENV: "development" }, "http://localhost/dev/mailbox")).status).toBe(200);
  });

  it("the test environment on *.localhost keeps the mailbox and the D1 counter, with production cookies and CSP", async () => {
    const t = await createTenant();
    const mailbox = await exports.default.fetch(`${t.origin}/dev/mailbox`);
    expect(mailbox.status).toBe(200);
    const page = await exports.default.fetch(`${t.origin}/login`);
    expect(page.headers.get("Server-Timing")).toContain("D1 queries");
    expect(scriptSrc(page)).not.toContain("'unsafe-inline'");
  });
});

describe("dev e-mail transport", () => {
  it("refuses to send when APP_DOMAIN is not a local host, and stores nothing", async () => {
    const to = `prod-${Date.now().toString(36)}@example.test`;
    const prodLike = { ...env, APP_ENV: "development", APP_DOMAIN: "example.com", EMAIL_TRANSPORT: "dev" } as Env;
    expect(() => chooseTransport(prodLike)).toThrow(/configur/i);
    await expect(handleEmailBatch(await queueOne(to), prodLike)).rejects.toThrow(/configur/i);
    expect(await mailboxRows(to)).toBe(0);
  });

  it("refuses without an explicit development or test APP_ENV", async () => {
    for (const APP_ENV of [undefined, "staging", "production"]) {
      expect(() => chooseTransport({ ...env, APP_ENV, EMAIL_TRANSPORT: "dev" } as Env), String(APP_ENV)).toThrow(/configur/i);
    }
  });

  it("delivers to the dev mailbox in the test environment on localhost", async () => {
    const to = `dev-${Date.now().toString(36)}@example.test`;
    await handleEmailBatch(await queueOne(to), env);
    expect(await mailboxRows(to)).toBe(1);
  });
});
