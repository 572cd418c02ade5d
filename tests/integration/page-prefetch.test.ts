import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { pagePrefetchFor, rememberTenantId } from "~/features/platform/index.server";
import { registerPagePrefetch } from "~/features/platform/page-prefetch.server";
import { CIS_PAGE_PREFETCH, INVOICE_LIST_PATH } from "~/features/cis/page-prefetch.server";
import { createTenant, createUser } from "../factories";
import { cisStaff, seedSub } from "../factories/cis";
import { seedInvoice } from "../factories/returns";
import { signedIn } from "../factories/sessions";
import { d1Queries } from "./d1-queries";

/** A tenant with one invoice whose number names it, and a signed-in admin. */
async function tenantWithInvoice(tag: string) {
  const { t, b } = await cisStaff("admin");
  const sub = await seedSub(t, { name: `${tag} Builders` });
  const inv = await seedInvoice(t, { subcontractorId: sub.id, subcontractorName: `${tag} Builders`, paymentDate: "2026-06-10" });
  return { t, b, number: inv.invoiceNumber };
}

describe("a list page's batch run with the middleware's (ADR 0082)", () => {
  it("prefetches only a GET of a registered page (its data request too), never an action's read", () => {
    expect(pagePrefetchFor("GET", "/cis/invoices")?.path).toBe("/cis/invoices");
    expect(pagePrefetchFor("GET", "/cis/invoices.data")?.path).toBe("/cis/invoices");
    expect(pagePrefetchFor("GET", "/cis/subcontractors")?.path).toBe("/cis/subcontractors");
    expect(pagePrefetchFor("POST", "/cis/invoices")).toBeNull();
    expect(pagePrefetchFor("HEAD", "/cis/invoices")).toBeNull();
    expect(pagePrefetchFor("GET", "/cis/invoices/new")).toBeNull();
    expect(pagePrefetchFor("GET", "/cis/invoices/")).toBeNull();
  });

  it("never shows another tenant's rows when the isolate's idea of the tenant's id is wrong: the batch checks it, and the loader reads for itself", async () => {
    const a = await tenantWithInvoice("Alpha");
    const other = await tenantWithInvoice("Bravo");
    // The attack: the isolate's hint for A's slug names B's tenant, so the page's statements read B's invoices.
    rememberTenantId(a.t.slug, other.t.id);
    const res = await a.b.get(`${a.t.origin}/cis/invoices`);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain(a.number);
    expect(html).not.toContain(other.number);
    expect(html).not.toContain("Bravo Builders");
    // The prefetch was thrown away and the list read on its own: two round trips. The hint is corrected.
    expect(d1Queries(res)).toBe(2);
    const again = await a.b.get(`${a.t.origin}/cis/invoices`);
    const againHtml = await again.text();
    expect(againHtml).toContain(a.number);
    expect(againHtml).not.toContain(other.number);
    expect(d1Queries(again)).toBe(1);
  });

  it("returns nothing it read before the guard: a tenant without CIS, or a person without the list's scope, gets no rows", async () => {
    // CIS switched off: the page's statements still ran (the path is registered), its guard refuses.
    const t = await createTenant({ modules: ["files"] });
    const sub = await seedSub(t, { name: "Hidden Builders" });
    const inv = await seedInvoice(t, { subcontractorId: sub.id, subcontractorName: "Hidden Builders" });
    const u = await createUser(t, { role: "admin" });
    const b = await signedIn(t, u);
    for (let i = 0; i < 2; i++) {
      const res = await b.get(`${t.origin}/cis/invoices`);
      expect(res.status).not.toBe(200);
      const body = await res.text();
      expect(body).not.toContain(inv.invoiceNumber);
      expect(body).not.toContain("Hidden Builders");
    }
    // A person whose role has no invoice read (only subcontractor read): 403, no rows, twice (warm).
    const staff = await cisStaff("standard");
    const s2 = await seedSub(staff.t, { name: "Scoped Builders" });
    const inv2 = await seedInvoice(staff.t, { subcontractorId: s2.id, subcontractorName: "Scoped Builders" });
    await env.DB.prepare("UPDATE role_bundles SET scopes = ? WHERE tenant_id = ? AND name = 'standard'")
      .bind(JSON.stringify(["cis.sub.read"]), staff.t.id)
      .run();
    for (let i = 0; i < 2; i++) {
      const res = await staff.b.get(`${staff.t.origin}/cis/invoices`);
      expect(res.status).toBe(403);
      expect(await res.text()).not.toContain(inv2.invoiceNumber);
    }
  });

  it("the returns page: a malformed month prefetches nothing and still answers 400; a good one rides along", async () => {
    const a = await tenantWithInvoice("Echo");
    await a.b.get(`${a.t.origin}/cis/invoices`);
    for (let i = 0; i < 2; i++) {
      const bad = await a.b.get(`${a.t.origin}/cis/returns?month=not-a-month`);
      expect(bad.status).toBe(400);
      expect(d1Queries(bad)).toBe(1);
    }
    const good = await a.b.get(`${a.t.origin}/cis/returns?month=2026-03`);
    expect(good.status).toBe(200);
    expect(d1Queries(good)).toBe(1);
  });

  it("serves the list's data request in one round trip too", async () => {
    const a = await tenantWithInvoice("Charlie");
    await a.b.get(`${a.t.origin}/cis/invoices`);
    const data = await a.b.get(`${a.t.origin}/cis/invoices.data?status=all`);
    expect(data.status).toBe(200);
    expect(await data.text()).toContain(a.number);
    expect(d1Queries(data)).toBe(1);
  });

  it("never costs the page itself: when the page's statements fail, the middleware reads without them and the list reads on its own", async () => {
    const a = await tenantWithInvoice("Delta");
    await a.b.get(`${a.t.origin}/cis/invoices`);
    registerPagePrefetch({ path: INVOICE_LIST_PATH, statements: (_env, db) => [db.select({ n: sql<number>`count(*)` }).from(sql`no_such_table`)] });
    try {
      const res = await a.b.get(`${a.t.origin}/cis/invoices`);
      expect(res.status).toBe(200);
      expect(await res.text()).toContain(a.number);
      // The failed batch, the middleware's own again, then the list's.
      expect(d1Queries(res)).toBe(3);
    } finally {
      for (const p of CIS_PAGE_PREFETCH) registerPagePrefetch(p);
    }
    const after = await a.b.get(`${a.t.origin}/cis/invoices`);
    expect(d1Queries(after)).toBe(1);
  });
});
