import { createExecutionContext, createMessageBatch, waitOnExecutionContext } from "cloudflare:test";
import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { handleEmailBatch } from "~/features/platform/email/consumer.server";
import { queueEmail } from "~/features/platform/email/send.server";
import { createTenant, uid } from "../factories";
import { all, parseHtml, shownText } from "../factories/html";
import worker from "../../workers/app";

/** Queues and delivers one e-mail through the dev transport, as the EMAIL consumer does. */
async function sendMail(to: string, subject: string, message: string, tenantId: string | null = null) {
  const sent: unknown[] = [];
  const queue = {
    async send(b: unknown) {
      sent.push(b);
    },
  } as unknown as Queue;
  const { outboxId } = await queueEmail({ ...env, EMAIL: queue }, { tenantId, to, template: "platform.notice", data: { subject, message } });
  await handleEmailBatch(createMessageBatch("cis-workspace-email", [{ id: uid("m"), timestamp: new Date(), attempts: 1, body: sent[0] }]), env);
  return outboxId;
}

/** A request as the runtime hands it to fetch() (the handler's type expects incoming cf properties). */
const incoming = (url: string) => new Request(url) as Request<unknown, IncomingRequestCfProperties>;

/** The mails on the page as rendered: subject, recipient and body (line breaks kept), in page order. */
function mailsOnPage(html: string) {
  const doc = parseHtml(html);
  const pick = (id: string) => all(doc, `[data-testid="${id}"]`).map((el) => (el.textContent ?? "").trim());
  const subjects = pick("mail-subject");
  const to = pick("mail-to");
  const bodies = pick("mail-body");
  return subjects.map((subject, i) => ({ subject, to: to[i], body: bodies[i] }));
}

describe("/dev/mailbox", () => {
  it("lists delivered mail newest first with subject, recipient and body", async () => {
    const t = await createTenant();
    const to = `${uid("dev")}@example.test`;
    await sendMail(to, "First message", "Body of the first.", t.id);
    await new Promise((r) => setTimeout(r, 5));
    await sendMail(to, "Second message", "Body of the second.\nWith two lines.", t.id);

    const res = await exports.default.fetch(`http://localhost/dev/mailbox?to=${encodeURIComponent(to)}`);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(all(parseHtml(html), "h1").map((h) => h.textContent)).toContain("Development mailbox");
    expect(mailsOnPage(html)).toEqual([
      { subject: "Second message", to, body: "Body of the second.\nWith two lines." },
      { subject: "First message", to, body: "Body of the first." },
    ]);
  });

  it("shows only the filtered recipient's mail, and shows it as text", async () => {
    const mine = `${uid("mine")}@example.test`;
    const other = `${uid("other")}@example.test`;
    await sendMail(mine, "For me <b>bold</b>", "<script>alert(1)</script>");
    await sendMail(other, "Not for me", "Other body");
    const res = await exports.default.fetch(`http://localhost/dev/mailbox?to=${encodeURIComponent(mine.toUpperCase())}`);
    const html = await res.text();
    expect(mailsOnPage(html)).toEqual([{ subject: "For me <b>bold</b>", to: mine, body: "<script>alert(1)</script>" }]);
    // Mail content is escaped, never injected into the page.
    expect(html).not.toContain("<script>alert(1)</script>");
    expect(html).not.toContain("<b>bold</b>");
  });

  it("answers JSON for ?format=json, newest first", async () => {
    const to = `${uid("json")}@example.test`;
    await sendMail(to, "Older", "1");
    await new Promise((r) => setTimeout(r, 5));
    await sendMail(to, "Newer", "2");
    const res = await exports.default.fetch(`http://localhost/dev/mailbox?format=json&to=${encodeURIComponent(to)}`);
    expect(res.status).toBe(200);
    const { messages } = (await res.json()) as { messages: { subject: string; toAddress: string; text: string; html: string }[] };
    expect(messages.map((m) => [m.subject, m.toAddress, m.text])).toEqual([
      ["Newer", to, "2"],
      ["Older", to, "1"],
    ]);
    expect(messages[0].html).toContain("<p>2</p>");
  });

  it("does not exist in production", async () => {
    const to = `${uid("prod")}@example.test`;
    await sendMail(to, "Secret subject", "Secret body");
    const prodEnv = { ...env, APP_ENV: "production" };
    for (const path of [`/dev/mailbox?to=${encodeURIComponent(to)}`, `/dev/mailbox?format=json&to=${encodeURIComponent(to)}`]) {
      const ctx = createExecutionContext();
      const res = await worker.fetch(incoming(`http://localhost${path}`), prodEnv, ctx);
      await waitOnExecutionContext(ctx);
      expect(res.status).toBe(404);
      const body = await res.text();
      expect(body).not.toContain("Secret subject");
      expect(body).not.toContain(to);
      expect(body).not.toContain("Development mailbox");
    }
    // The same request outside production does show it (so the 404 above is the production switch).
    const ctx = createExecutionContext();
    const dev = await worker.fetch(incoming(`http://localhost/dev/mailbox?to=${encodeURIComponent(to)}`), env, ctx);
    expect(dev.status).toBe(200);
    expect(await shownText(dev)).toContain("Secret subject");
  });

  it("does not exist on a real domain, even with APP_ENV=development", async () => {
    const to = `${uid("real")}@example.test`;
    await sendMail(to, "Secret subject", "Secret body");
    for (const [vars, url] of [
      [{ APP_ENV: "development", APP_DOMAIN: "example.com" }, "http://example.com/dev/mailbox"],
      [{ APP_ENV: "development" }, "https://cis-workspace.example.workers.dev/dev/mailbox"],
      [{ APP_ENV: "test", APP_DOMAIN: "example.com" }, "http://example.com/dev/mailbox?format=json"],
    ] as const) {
      const ctx = createExecutionContext();
      const res = await worker.fetch(incoming(`${url}${url.includes("?") ? "&" : "?"}to=${encodeURIComponent(to)}`), { ...env, ...vars }, ctx);
      await waitOnExecutionContext(ctx);
      expect(res.status, url).toBe(404);
      expect(await res.text()).not.toContain("Secret subject");
    }
  });
});
