import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { getDb } from "~/db/client.server";
import { platformAdmins, type Role } from "~/db/schema";
import { hashPassword } from "~/features/auth/password.server";
import { newId } from "~/utils/ids";
import { createTenant, createUser, ensureCatalogue } from "../factories";
import { count, signIn, signInPlatform } from "./auth-helpers";
import { Browser, location } from "./http";

/**
 * One order of checks for every module's pages and actions: the module switched on where the
 * request is made (404, nothing audited, whoever asks), then a signed-in person (a redirect to
 * sign-in), then the scope (403 and exactly one audit entry naming that person), then the page.
 */

type Person = { b: Browser; id: string };
type Family = {
  name: string;
  /** The request the family's row makes, and what a person holding the scope gets. */
  method: "GET" | "POST";
  path: string;
  form?: Record<string, string>;
  ok: number;
  /** Where the module is off: its origin and the people signed in there (any scopes). */
  off: () => Promise<{ origin: string; people: Person[] }>;
  /** Where it is on: its origin, someone without the scope and someone with it. */
  on: () => Promise<{ origin: string; without: Person; holder: Person }>;
};

async function staff(modules: string[], bundles: Partial<Record<Role, string[]>>, roles: Role[]) {
  const t = await createTenant({ modules, bundles });
  const people: Person[] = [];
  for (const role of roles) {
    const u = await createUser(t, { role });
    people.push({ b: await signIn(t, u), id: u.id });
  }
  return { t, people };
}

/** Someone without the scope (standard, with the bundle given) and an admin (the default bundle). */
async function tenantFamily(modules: string[], standard: string[]) {
  const { t, people } = await staff(modules, { standard }, ["standard", "admin"]);
  return { origin: t.origin, without: people[0], holder: people[1] };
}

async function platformAdmin(scopes: string[]): Promise<Person> {
  const id = newId();
  const email = `guard-${id.slice(0, 8).toLowerCase()}@platform.test`;
  const password = "platform-admin-password";
  await getDb(env)
    .insert(platformAdmins)
    .values({ id, email, displayName: "Guard Admin", scopes, passwordHash: await hashPassword(env, password), createdAt: Date.now() });
  return { id, b: await signInPlatform(email, password) };
}

const FAMILIES: Family[] = [
  {
    name: "cis page",
    method: "GET",
    path: "/cis/subcontractors",
    ok: 200,
    off: async () => {
      const { t, people } = await staff(["files"], { standard: ["notes.view"] }, ["standard", "admin"]);
      return { origin: t.origin, people };
    },
    on: () => tenantFamily(["cis"], ["notes.view"]),
  },
  {
    name: "cis action",
    method: "POST",
    path: "/cis/subcontractors/export",
    form: {},
    ok: 302,
    off: async () => {
      const { t, people } = await staff([], { standard: ["cis.read"] }, ["standard", "admin"]);
      return { origin: t.origin, people };
    },
    on: () => tenantFamily(["cis"], ["cis.read"]),
  },
  {
    name: "files page",
    method: "GET",
    path: "/files/upload",
    ok: 200,
    off: async () => {
      const { t, people } = await staff(["cis"], { standard: ["files.view"] }, ["standard", "admin"]);
      return { origin: t.origin, people };
    },
    on: () => tenantFamily(["files"], ["files.view"]),
  },
  {
    name: "files area without files.view",
    method: "GET",
    path: "/files/all",
    ok: 200,
    off: async () => {
      const { t, people } = await staff(["cis"], { standard: ["users.view"] }, ["standard", "admin"]);
      return { origin: t.origin, people };
    },
    on: () => tenantFamily(["files"], ["users.view"]),
  },
  {
    name: "signatures page",
    method: "GET",
    path: "/files/signatures",
    ok: 200,
    off: async () => {
      const { t, people } = await staff(["cis"], { standard: ["files.view"] }, ["standard", "admin"]);
      return { origin: t.origin, people };
    },
    on: () => tenantFamily(["files"], ["files.view"]),
  },
  {
    name: "team page",
    method: "GET",
    path: "/settings/users",
    ok: 200,
    // Team belongs to every workspace: it is off only where there is no tenant (the bare domain).
    off: async () => ({ origin: "http://localhost", people: [] }),
    on: () => tenantFamily([], ["notes.view"]),
  },
  {
    name: "console",
    method: "GET",
    path: "/superadmin",
    ok: 200,
    // The console belongs to the bare domain: it is off on every tenant host.
    off: async () => {
      const { t, people } = await staff(["cis", "files"], {}, ["admin"]);
      return { origin: t.origin, people };
    },
    on: async () => {
      await ensureCatalogue();
      return { origin: "http://localhost", without: await platformAdmin(["system.tenants.create"]), holder: await platformAdmin(["system.superadmin"]) };
    },
  },
];

function send(b: Browser, f: Family, origin: string) {
  const url = `${origin}${f.path}`;
  return f.method === "GET" ? b.get(url) : b.post(url, f.form ?? {});
}

const auditsBy = (id: string) => count("audit_events", "actor_id = ?", id);

describe("one order of checks for every module", () => {
  for (const f of FAMILIES) {
    it(`${f.name}: module off → 404 unaudited; signed out → sign-in; no scope → 403 audited once; scope → ${f.ok}`, async () => {
      const off = await f.off();
      for (const who of [{ b: new Browser(), id: "" }, ...off.people]) {
        const before = who.id ? await auditsBy(who.id) : 0;
        const res = await send(who.b, f, off.origin);
        expect(res.status, `module off, ${who.id || "signed out"}`).toBe(404);
        if (who.id) expect(await auditsBy(who.id), "module off: nothing audited").toBe(before);
      }

      const on = await f.on();
      const anon = await send(new Browser(), f, on.origin);
      expect(anon.status, "signed out").toBe(302);
      expect(location(anon)).toBe(`/login?${new URLSearchParams({ redirectTo: f.path })}`);

      const before = await auditsBy(on.without.id);
      const refused = await send(on.without.b, f, on.origin);
      expect(refused.status, "without the scope").toBe(403);
      expect(await auditsBy(on.without.id), "one audit entry for the refusal").toBe(before + 1);
      const entry = await env.DB.prepare("SELECT action, target_id FROM audit_events WHERE actor_id = ? ORDER BY created_at DESC LIMIT 1")
        .bind(on.without.id)
        .first<{ action: string; target_id: string }>();
      expect(entry?.action).toMatch(/denied$/);
      expect(entry?.target_id).toBe(f.path);

      const held = await send(on.holder.b, f, on.origin);
      expect(held.status, "with the scope").toBe(f.ok);
      if (f.ok === 302) expect(location(held)).not.toContain("/login");
    });
  }
});
