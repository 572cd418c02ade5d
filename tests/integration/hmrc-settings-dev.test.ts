import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env, exports } from "cloudflare:workers";
import { formatInTimeZone } from "date-fns-tz";
import { describe, expect, it } from "vitest";
import { readGatewayCredentials } from "~/features/cis/hmrc/credentials.server";
import { handleFakeTransactionEngine } from "~/features/cis/hmrc/fake-te.server";
import { startSubmission } from "~/features/cis/hmrc/gateway.server";
import worker from "../../workers/app";
import successSample from "../../third_party/hmrc/responses/return-success.xml?raw";
import { cisStaff } from "../factories/cis";
import { all, describedBy, page, pageText, parseHtml, textOf, valueOf } from "../factories/html";
import { count } from "./auth-helpers";
import { cis300Message, fakeMessages, GATEWAY_PASSWORD, jobsRecorder, submissionRow, withCredentials } from "./hmrc-helpers";

const SENDER = "GGUSER0042";
const PASSWORD = "correct-Horse-battery-7713";

async function settingsRow(tenantId: string) {
  return env.DB.prepare("SELECT gateway_sender_id_enc, gateway_password_enc FROM cis_settings WHERE tenant_id = ?")
    .bind(tenantId)
    .first<{ gateway_sender_id_enc: string | null; gateway_password_enc: string | null }>();
}

describe("Government Gateway credentials in CIS settings", () => {
  it("are saved encrypted, shown only as Saved, and can be replaced and cleared (cis.manage)", async () => {
    const { t, b } = await cisStaff("admin", { settings: {} });
    const before = await page(await b.get(`${t.origin}/cis/settings`));
    expect(textOf(before, '[data-testid="gateway-status"]')).toBe("Not set");

    const saved = await b.post(`${t.origin}/cis/settings`, { intent: "gateway", senderId: SENDER, password: PASSWORD });
    expect(saved.status).toBe(302);
    const raw = await settingsRow(t.id);
    expect(raw?.gateway_sender_id_enc).toBeTruthy();
    expect(raw?.gateway_password_enc).toBeTruthy();
    expect(raw?.gateway_password_enc).not.toContain(PASSWORD);
    expect(raw?.gateway_sender_id_enc).not.toContain(SENDER);
    expect(await readGatewayCredentials(env, t.id)).toEqual({ ok: true, credentials: { senderId: SENDER, password: PASSWORD } });

    const res = await b.get(`${t.origin}/cis/settings`);
    const html = await res.text();
    expect(html).not.toContain(PASSWORD);
    expect(html).not.toContain(SENDER);
    const doc = parseHtml(html);
    expect(textOf(doc, '[data-testid="gateway-status"]')).toBe("Saved");
    expect(valueOf(doc, "password")).toBeFalsy();
    expect(await count("audit_events", "tenant_id = ? AND action = 'cis.settings.updated' AND payload LIKE '%gatewayCredentials%'", t.id)).toBe(1);
    expect(await readGatewayCredentials(env, t.id)).toMatchObject({ ok: true });
    expect(await count("audit_events", "tenant_id = ? AND payload LIKE ?", t.id, `%${PASSWORD}%`)).toBe(0);

    const replaced = await b.post(`${t.origin}/cis/settings`, { intent: "gateway", senderId: "GGUSER0043", password: "another-Password-1" });
    expect(replaced.status).toBe(302);
    expect(await readGatewayCredentials(env, t.id)).toEqual({ ok: true, credentials: { senderId: "GGUSER0043", password: "another-Password-1" } });

    const cleared = await b.post(`${t.origin}/cis/settings`, { intent: "gateway-clear" });
    expect(cleared.status).toBe(302);
    expect(await settingsRow(t.id)).toEqual({ gateway_sender_id_enc: null, gateway_password_enc: null });
    expect(textOf(await page(await b.get(`${t.origin}/cis/settings`)), '[data-testid="gateway-status"]')).toBe("Not set");
  });

  it("a missing password is reported next to its field, the user ID kept, nothing stored", async () => {
    const { t, b } = await cisStaff("admin", { settings: {} });
    const res = await b.post(`${t.origin}/cis/settings`, { intent: "gateway", senderId: SENDER, password: "" });
    expect(res.status).toBe(400);
    const doc = await page(res);
    expect(describedBy(doc, "password")).toContain("Enter your Government Gateway password");
    expect(valueOf(doc, "senderId")).toBe(SENDER);
    expect(await settingsRow(t.id)).toEqual({ gateway_sender_id_enc: null, gateway_password_enc: null });
  });

  it("without cis.manage: no panel, and a POST is refused with 403 and an audited denial", async () => {
    const { t, u, b } = await cisStaff("manager", { settings: {} });
    const doc = await page(await b.get(`${t.origin}/cis/settings`));
    expect(doc.querySelector('[data-testid="gateway-status"]')).toBeNull();
    const res = await b.post(`${t.origin}/cis/settings`, { intent: "gateway", senderId: SENDER, password: PASSWORD });
    expect(res.status).toBe(403);
    expect((await b.post(`${t.origin}/cis/settings`, { intent: "gateway-clear" })).status).toBe(403);
    expect(await count("audit_events", "tenant_id = ? AND action = 'cis.permission.denied' AND actor_id = ?", t.id, u.id)).toBe(2);
    expect(await settingsRow(t.id)).toEqual({ gateway_sender_id_enc: null, gateway_password_enc: null });
  });
});

/** A request as the runtime hands it to fetch(). */
const incoming = (url: string, init?: RequestInit) => new Request(url, init) as Request<unknown, IncomingRequestCfProperties>;

describe("/dev/hmrc", () => {
  it("lists what the fake received and answered, with the password blanked", async () => {
    const { t } = await cisStaff("admin", { settings: {} });
    await withCredentials(t);
    const q = jobsRecorder();
    const msg = await cis300Message();
    const started = await startSubmission(q.env, t.id, {
      subject: { kind: "cis300", returnId: "ret-dev" },
      message: msg,
      actor: { id: "x", email: "x@example.test", name: "Test Actor" },
    });
    if (!started.ok) throw new Error("not started");
    await q.deliver(q.of("hmrc.send")[0]);
    const { correlationId } = await submissionRow(t.id, started.submissionId);

    const res = await exports.default.fetch("http://localhost/dev/hmrc");
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).not.toContain(GATEWAY_PASSWORD);
    const doc = parseHtml(html);
    expect(pageText(doc)).toContain("Development HMRC Transaction Engine");
    const entry = all(doc, '[data-testid="hmrc-message"]').find((el) => el.querySelector('[data-testid="hmrc-correlation"]')?.textContent === correlationId);
    expect(entry?.querySelector('[data-testid="hmrc-outcome"]')?.textContent).toBe("accepted");
    expect(entry?.querySelector('[data-testid="hmrc-request"]')?.textContent).toContain("<Value>********</Value>");
    expect(entry?.querySelector('[data-testid="hmrc-response"]')?.textContent).toContain("<Qualifier>acknowledgement</Qualifier>");
  });

  it("an accepted return's receipt names the time the fake received it (London, HMRC's format), otherwise HMRC's sample answer", async () => {
    const { t } = await cisStaff("admin", { settings: {} });
    await withCredentials(t);
    const q = jobsRecorder();
    const started = await startSubmission(q.env, t.id, {
      subject: { kind: "cis300", returnId: "ret-receipt" },
      message: await cis300Message(),
      actor: { id: "x", email: "x@example.test", name: "Test Actor" },
    });
    if (!started.ok) throw new Error("not started");
    await q.deliver(q.of("hmrc.send")[0]);
    const { correlationId } = await submissionRow(t.id, started.submissionId);
    const [received] = await fakeMessages(correlationId!);
    const final = received!.finalResponseXml!;
    const at = new Date(received!.createdAt);
    const time = formatInTimeZone(at, "Europe/London", "HH.mm");
    const day = formatInTimeZone(at, "Europe/London", "dd/MM/yyyy");
    const stamp = formatInTimeZone(at, "Europe/London", "yyyy-MM-dd'T'HH:mm:ss.SSS");
    expect(final).not.toContain("06/04/2017");
    expect(final).not.toContain("2017-04-06");
    expect(final).toMatch(new RegExp(`document ref: [^ ]+ at ${time.replace(".", "\\.")} on ${day}\\. The associated IRmark was: [A-Z2-7]{32}\\.`));
    expect(final).toContain(`<AcceptedTime>${stamp}</AcceptedTime>`);
    expect(final).toContain(`<GatewayTimestamp>${stamp}</GatewayTimestamp>`);
    // Structurally HMRC's sample: the same elements in the same order.
    const shape = (xml: string) => [...xml.matchAll(/<\/?([A-Za-z]+)[ >]/g)].map((m) => m[0]).join("");
    expect(shape(final)).toBe(shape(successSample));
  });

  it("switches an employer reference to business errors from the page", async () => {
    const res = await exports.default.fetch(
      new Request("http://localhost/dev/hmrc", {
        method: "POST",
        headers: { Origin: "http://localhost" },
        body: new URLSearchParams({ employerRef: "999/DEV0001", mode: "business_error" }),
      }),
    );
    expect(res.status).toBe(200);
    expect(pageText(await page(res))).toContain("999/DEV0001: Business error");
  });

  it("says how to write an employer reference it cannot read", async () => {
    const res = await exports.default.fetch(
      new Request("http://localhost/dev/hmrc", {
        method: "POST",
        headers: { Origin: "http://localhost" },
        body: new URLSearchParams({ employerRef: "DEV0001", mode: "business_error" }),
      }),
    );
    expect(res.status).toBe(400);
    expect(pageText(await page(res))).toContain("Enter an employer reference in the correct format, like 123/AB12345");
  });

  it("answers over HTTP too: a message without credentials gets 1046", async () => {
    const msg = await cis300Message();
    const res = await exports.default.fetch(
      new Request("http://localhost/dev/hmrc/submission", {
        method: "POST",
        headers: { Origin: "http://localhost", "Content-Type": "text/xml" },
        body: msg.xml,
      }),
    );
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).toContain("<Number>1046</Number>");
    const correlationId = /<CorrelationID>([^<]+)<\/CorrelationID>/.exec(msg.xml)![1];
    expect((await fakeMessages(correlationId)).map((m) => m.outcome)).toEqual(["authentication_failure"]);
  });

  it("does not exist outside development: the page, the endpoints and the handler answer 404", async () => {
    const prod = { ...env, APP_ENV: "production" };
    const msg = await cis300Message();
    for (const [method, path] of [
      ["GET", "/dev/hmrc"],
      ["POST", "/dev/hmrc"],
      ["POST", "/dev/hmrc/submission"],
      ["POST", "/dev/hmrc/poll"],
    ] as const) {
      const ctx = createExecutionContext();
      const init: RequestInit = method === "POST" ? { method, headers: { Origin: "http://localhost" }, body: msg.xml } : {};
      const res = await worker.fetch(incoming(`http://localhost${path}`, init), prod, ctx);
      await waitOnExecutionContext(ctx);
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(await res.text()).not.toContain("Transaction Engine");
    }
    const real = await worker.fetch(
      incoming("http://example.com/dev/hmrc"),
      { ...env, APP_ENV: "development", APP_DOMAIN: "example.com" },
      createExecutionContext(),
    );
    expect(real.status).toBe(404);
    const direct = await handleFakeTransactionEngine(prod as Env, new Request("http://localhost/dev/hmrc/submission", { method: "POST", body: msg.xml }));
    expect(direct.status).toBe(404);
  });
});
