import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import worker from "../../workers/app";
import { createTenant, createUser } from "../factories";
import { pageText, parseHtml, shownText } from "../factories/html";
import { signedIn } from "../factories/sessions";

const SQL_TEXT = "D1_ERROR: near SELECT * FROM users WHERE password='hunter2'";

/** A D1 binding that fails every statement the way a broken query does, carrying its SQL. */
const brokenDb = new Proxy(env.DB, {
  get(target, prop) {
    if (prop === "prepare" || prop === "batch" || prop === "exec") {
      return () => {
        throw new Error(SQL_TEXT);
      };
    }
    return Reflect.get(target, prop);
  },
});

async function fetchBroken(url: string, vars: Partial<Record<"APP_ENV" | "APP_DOMAIN", string>> = {}) {
  const ctx = createExecutionContext();
  const res = await worker.fetch(new Request(url) as Parameters<typeof worker.fetch>[0], { ...env, ...vars, DB: brokenDb } as Env, ctx);
  await waitOnExecutionContext(ctx);
  return res;
}

describe("internal errors", () => {
  afterEach(() => vi.restoreAllMocks());

  it("show a generic page with a reference, never the SQL, and log the detail under that reference", async () => {
    const logged: unknown[][] = [];
    vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => {
      logged.push(args);
    });
    const t = await createTenant();
    const res = await fetchBroken(`${t.origin}/welcome`);
    expect(res.status).toBe(500);
    const html = await res.text();
    const htmlText = pageText(parseHtml(html));
    expect(html).not.toContain("D1_ERROR");
    expect(html).not.toContain("password");
    expect(html).not.toContain("hunter2");
    expect(htmlText).toContain("Something went wrong");
    const ref = html.match(/Reference: ([A-Z0-9]{6,})/)?.[1];
    expect(ref).toBeTruthy();
    const line = logged.find((args) => args.some((a) => typeof a === "string" && a.includes(ref ?? "?")));
    expect(line, JSON.stringify(logged.map((l) => l.map(String)))).toBeTruthy();
    expect(line?.map((a) => (a instanceof Error ? a.message : String(a))).join(" ")).toContain("D1_ERROR");
  });

  it("stay hidden with APP_ENV=development on a host that is not local", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    const t = await createTenant();
    const res = await fetchBroken(`http://${t.slug}.example.com/welcome`, { APP_ENV: "development", APP_DOMAIN: "example.com" });
    expect(res.status).toBe(500);
    const html = await res.text();
    const htmlText = pageText(parseHtml(html));
    expect(html).not.toContain("D1_ERROR");
    expect(htmlText).toMatch(/Reference: [A-Z0-9]{6,}/);
  });

  it("show the detail to a developer only in local development", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    const t = await createTenant();
    const res = await fetchBroken(`${t.origin}/welcome`, { APP_ENV: "development" });
    expect(res.status).toBe(500);
    expect(await shownText(res)).toContain("D1_ERROR");
  });
});

describe("errors a page catches itself", () => {
  afterEach(() => vi.restoreAllMocks());

  it("the subcontractor list shows a reference, not the failed query", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    const t = await createTenant({ modules: ["cis"] });
    const b = await signedIn(t, await createUser(t, { role: "admin" }));
    const failingSubcontractors = new Proxy(env.DB, {
      get(target, prop) {
        if (prop === "prepare") {
          return (sql: string) => {
            if (sql.includes("cis_subcontractors")) throw new Error(`${SQL_TEXT} ${sql}`);
            return target.prepare(sql);
          };
        }
        return Reflect.get(target, prop);
      },
    });
    const ctx = createExecutionContext();
    const res = await worker.fetch(
      new Request(`${t.origin}/cis/subcontractors`, { headers: { Cookie: b.cookieHeader(t.host) } }) as Parameters<typeof worker.fetch>[0],
      { ...env, DB: failingSubcontractors } as Env,
      ctx,
    );
    await waitOnExecutionContext(ctx);
    const html = await res.text();
    const htmlText = pageText(parseHtml(html));
    expect(htmlText).toContain("Error loading subcontractors");
    expect(htmlText).toMatch(/Reference: [A-Z0-9]{6,}/);
    expect(html).not.toContain("D1_ERROR");
    expect(html).not.toContain("cis_subcontractors");
  });
});

describe("deliberate error pages", () => {
  it("an unknown workspace says so, from its typed code", async () => {
    const res = await worker.fetch(new Request("http://no-such-tenant-abc.localhost/") as Parameters<typeof worker.fetch>[0], env, createExecutionContext());
    expect(res.status).toBe(404);
    const html = await res.text();
    const htmlText = pageText(parseHtml(html));
    expect(htmlText).toContain("Workspace not found");
    expect(htmlText).toContain("There is no workspace at this address. Check the link you followed.");
    expect(html).not.toContain("Reference:");
  });

  it("a missing page keeps its own words", async () => {
    const res = await worker.fetch(new Request("http://localhost/no-such-page") as Parameters<typeof worker.fetch>[0], env, createExecutionContext());
    expect(res.status).toBe(404);
    const html = await res.text();
    const htmlText = pageText(parseHtml(html));
    expect(htmlText).toContain("Page not found");
    expect(htmlText).toContain("The page you asked for does not exist or has moved.");
  });
});
