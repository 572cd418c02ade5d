import { createExecutionContext, createMessageBatch } from "cloudflare:test";
import { env, exports } from "cloudflare:workers";
import { and, eq } from "drizzle-orm";
import { RouterContextProvider } from "react-router";
import { describe, expect, it } from "vitest";
import { cloudflareContext, tenantContext } from "~/context";
import { getDb } from "~/db/client.server";
import { devMailbox, emailOutbox, projectRequests } from "~/db/schema";
import { contactEmail, salesEmail } from "~/features/marketing/config.server";
import { FAQ } from "~/features/marketing/content";
import { PROJECT_REQUEST_IP_LIMIT } from "~/features/marketing/project-requests.server";
import { action as projectRequestAction } from "~/features/marketing/routes/start-a-project";
import { COULD_NOT_SEND, PROJECT_REQUEST_THANKS } from "~/features/marketing/schemas";
import { handleEmailBatch } from "~/features/platform/email/consumer.server";
import { ConfigurationError } from "~/features/platform/environment.server";
import { createTenant, uid } from "../factories";
import { alerts, all, attr, fieldMessage, hrefs, isInvalid, one, page, pageText, parseHtml, textsOf, valueOf } from "../factories/html";
import { Browser } from "./http";
import { poll } from "./queue-helpers";

const BARE = "http://localhost";
const SALES = "sales@workspace.test";

/** A fresh client address per test, so the per-address limit of one test never touches another. */
let ipSeq = 0;
const newIp = () => `198.51.100.${(++ipSeq % 250) + 1}`;

function request(fields: Record<string, string>, ip: string, origin = BARE) {
  return new Browser().post(`${origin}/start-a-project`, fields, { headers: { "CF-Connecting-IP": ip } });
}

function validFields(overrides: Record<string, string> = {}) {
  const tag = uid("pr");
  return {
    name: "Dana Foreman",
    email: `${tag}@builder.test`,
    company: "Foreman Groundworks Ltd",
    message: `Monthly CIS for 30 subcontractors (${tag})`,
    ...overrides,
  };
}

async function storedFor(email: string) {
  return getDb(env).select().from(projectRequests).where(eq(projectRequests.email, email));
}

async function outboxFor(email: string) {
  const rows = await getDb(env)
    .select()
    .from(emailOutbox)
    .where(and(eq(emailOutbox.template, "marketing.project-request"), eq(emailOutbox.toAddress, SALES)));
  return rows.filter((r) => (r.data as { email?: string }).email === email);
}

const PAGES = [
  { path: "/", h1: "One workspace for your contracting business, with CIS done right.", says: "Billing is per module", title: "Workspace" },
  { path: "/vision", h1: "Our vision", says: "Bespoke, as a service", title: "Our vision | Workspace" },
  { path: "/help", h1: "Help", says: "subcontractor portal", title: "Help | Workspace" },
  { path: "/terms", h1: "Terms of service", says: "within 24 hours of that export", title: "Terms of service | Workspace" },
  { path: "/privacy", h1: "Privacy notice", says: "UK GDPR", title: "Privacy notice | Workspace" },
  { path: "/start-a-project", h1: "Start a project", says: "within one business day", title: "Start a project | Workspace" },
];

describe("public site pages", () => {
  it("serves every page on the bare domain with one h1, en-GB, its title and description, the shared layout, and shared-cache headers", async () => {
    for (const p of PAGES) {
      const res = await exports.default.fetch(`${BARE}${p.path}`);
      expect(res.status, p.path).toBe(200);
      expect(res.headers.get("Cache-Control"), p.path).toMatch(/^public, max-age=\d+, s-maxage=\d+$/);
      expect(res.headers.get("Vary"), p.path).toContain("Cookie");
      expect(res.headers.getSetCookie(), p.path).toEqual([]);
      const doc = parseHtml(await res.text());
      expect(textsOf(doc, "h1"), p.path).toEqual([p.h1]);
      expect(attr(one(doc, "html"), "lang")).toBe("en-GB");
      expect(doc.title, p.path).toContain(p.title);
      expect(attr(one(doc, 'meta[name="description"]'), "content")?.length, p.path).toBeGreaterThan(50);
      expect(pageText(doc), p.path).toContain(p.says);
      // The shared layout: the navigation and the footer on every page.
      const nav = one(doc, 'nav[aria-label="Main"]');
      expect(hrefs(nav)).toEqual(expect.arrayContaining(["/login", "/start-a-project", "mailto:hello@workspace.test"]));
      expect(hrefs(one(doc, "footer"))).toEqual(expect.arrayContaining(["/vision", "/help", "/terms", "/privacy", "/login", "/portal/login"]));
    }
  });

  it("/ has its anchors, the navigation bar and six FAQ questions that open without JavaScript", async () => {
    const doc = await page(await exports.default.fetch(`${BARE}/`));
    for (const id of ["top", "industries", "process", "about"]) expect(doc.getElementById(id), id).not.toBeNull();
    const nav = one(doc, 'nav[aria-label="Main"]');
    const labelled = all(nav, "a").map((a) => [a.textContent?.trim(), a.getAttribute("href")]);
    expect(labelled).toEqual(
      expect.arrayContaining([
        ["Home", "#top"],
        ["Industries", "#industries"],
        ["Process", "#process"],
        ["About", "#about"],
        ["Contact", "mailto:hello@workspace.test"],
        ["Log in", "/login"],
        ["Start a project", "/start-a-project"],
      ]),
    );
    const questions = all(doc, "details");
    expect(questions).toHaveLength(6);
    expect(questions.map((d) => d.querySelector("summary")?.textContent?.trim())).toEqual(FAQ.map((f) => f.question));
    const answers = questions.map((d) => d.textContent ?? "").join(" ");
    for (const statement of [
      "7–10 business days",
      "Billing is per module",
      "JSON or as a PostgreSQL export",
      "within 24 hours of the export",
      "within one business day",
    ]) {
      expect(answers).toContain(statement);
    }
  });

  it("gives a visitor who sends a cookie a private copy, never a shared one", async () => {
    const res = await exports.default.fetch(new Request(`${BARE}/terms`, { headers: { Cookie: "theme=dark" } }));
    expect(res.status).toBe(200);
    expect(res.headers.get("Cache-Control")).toBe("private, no-store");
  });

  it("has no marketing pages on a tenant host, whose / still sends a visitor to sign in", async () => {
    const t = await createTenant();
    for (const path of ["/vision", "/help", "/terms", "/privacy", "/start-a-project"]) {
      const res = await exports.default.fetch(`${t.origin}${path}`);
      expect(res.status, path).toBe(404);
      expect(res.headers.get("Cache-Control"), path).toBe("private, no-store");
    }
    const home = await exports.default.fetch(new Request(`${t.origin}/`, { redirect: "manual" }));
    expect(home.status).toBe(302);
    expect(home.headers.get("Location")).toBe("/login");
    // A request posted to a tenant host is refused and stores nothing.
    const fields = validFields();
    const posted = await request(fields, newIp(), t.origin);
    expect(posted.status).toBe(404);
    expect(await storedFor(fields.email)).toEqual([]);
  });

  it("refuses to guess the public addresses when they are not configured", () => {
    expect(() => contactEmail({})).toThrow(ConfigurationError);
    expect(() => salesEmail({ SALES_EMAIL: "not an address" })).toThrow(ConfigurationError);
    expect(salesEmail(env)).toBe(SALES);
  });
});

describe("Start a project", () => {
  it("stores a request and e-mails it to the sales address through the queue, once even when sent again", async () => {
    const fields = validFields();
    const res = await request(fields, newIp());
    expect(res.status).toBe(200);
    expect(res.headers.get("Cache-Control")).toBe("no-store");
    expect(pageText(await page(res))).toContain(PROJECT_REQUEST_THANKS);

    const [row, ...more] = await storedFor(fields.email);
    expect(more).toEqual([]);
    expect(row).toMatchObject({ name: fields.name, company: fields.company, message: fields.message });
    const [outbox] = await outboxFor(fields.email);
    expect(outbox.id).toBe(row.outboxId);
    expect(outbox.tenantId).toBeNull();

    // Delivered as the EMAIL consumer does (the claim makes a second delivery send nothing).
    await handleEmailBatch(
      createMessageBatch("cis-workspace-email", [{ id: uid("m"), timestamp: new Date(), attempts: 1, body: { outboxId: outbox.id } }]),
      env,
    );
    const mail = await poll(async () =>
      (await getDb(env).select().from(devMailbox).where(eq(devMailbox.toAddress, SALES))).find((m) => m.text.includes(fields.email)),
    );
    expect(mail.subject).toBe(`New project request from ${fields.name} (${fields.company})`);
    expect(mail.text).toContain(fields.message);

    // The same request again (a retry after a failure, a double click without JavaScript): one row, one e-mail.
    const again = await request(fields, newIp());
    expect(again.status).toBe(200);
    expect(await storedFor(fields.email)).toHaveLength(1);
    expect(await outboxFor(fields.email)).toHaveLength(1);
  });

  it("shows each field's message next to it, keeps the input and stores nothing", async () => {
    const email = "not-an-email";
    const res = await request({ name: "", email, company: "C".repeat(101), message: "M".repeat(2001) }, newIp());
    expect(res.status).toBe(400);
    expect(res.headers.get("Cache-Control")).toBe("no-store");
    const doc = await page(res);
    expect(fieldMessage(doc, "name")).toBe("Enter your name");
    expect(fieldMessage(doc, "email")).toBe("Enter an email address in the correct format, like name@company.co.uk");
    expect(fieldMessage(doc, "company")).toBe("Company must be 100 characters or less");
    expect(fieldMessage(doc, "message")).toBe("Message must be 2000 characters or less");
    expect(isInvalid(doc, "email")).toBe(true);
    expect(valueOf(doc, "email")).toBe(email);
    expect(valueOf(doc, "message")).toBe("M".repeat(2001));
    expect(await storedFor(email)).toEqual([]);

    const missing = await page(await request({}, newIp()));
    expect(fieldMessage(missing, "email")).toBe("Enter your email address");
  });

  it("answers a filled honeypot like a success and stores or sends nothing", async () => {
    const fields = validFields({ website: "https://cheap-links.example" });
    const res = await request(fields, newIp());
    expect(res.status).toBe(200);
    expect(pageText(await page(res))).toContain(PROJECT_REQUEST_THANKS);
    expect(await storedFor(fields.email)).toEqual([]);
    expect(await outboxFor(fields.email)).toEqual([]);
  });

  it("limits requests per client address, counting before anything is stored", async () => {
    const ip = newIp();
    for (let i = 0; i < PROJECT_REQUEST_IP_LIMIT; i++) expect((await request(validFields(), ip)).status).toBe(200);
    const over = validFields();
    const res = await request(over, ip);
    expect(res.status).toBe(429);
    const doc = await page(res);
    expect(alerts(doc).join(" ")).toMatch(/Too many requests from your network\. Please try again in \d+ minutes?\./);
    expect(valueOf(doc, "email")).toBe(over.email);
    expect(await storedFor(over.email)).toEqual([]);
    // A robot filling the honeypot is counted too, and another address is unaffected.
    expect((await request(validFields({ website: "x" }), ip)).status).toBe(429);
    expect((await request(validFields(), newIp())).status).toBe(200);
  });

  it("says it could not send the request (try again) and stores nothing when the request cannot be sent", async () => {
    const fields = validFields();
    const context = new RouterContextProvider();
    // Production without a sales address: the request is refused, never e-mailed to nobody.
    context.set(cloudflareContext, { env: { ...env, SALES_EMAIL: "" }, ctx: createExecutionContext(), nonce: "n" });
    context.set(tenantContext, null);
    const form = new FormData();
    for (const [k, v] of Object.entries(fields)) form.set(k, v);
    const req = new Request(`${BARE}/start-a-project`, { method: "POST", body: form, headers: { "CF-Connecting-IP": newIp() } });
    const result = await projectRequestAction({ request: req, context, params: {}, url: new URL(req.url), pattern: "/start-a-project" });
    expect(result).toMatchObject({ init: { status: 503 }, data: { status: "error", result: { error: { "": [COULD_NOT_SEND] } } } });
    expect(await storedFor(fields.email)).toEqual([]);
  });
});
