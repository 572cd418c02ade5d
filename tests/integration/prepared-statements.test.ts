import { env } from "cloudflare:workers";
import { and, eq, sql, type SQLWrapper } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { globalDb, type Db } from "~/db/client.server";
import { countingD1 } from "~/db/instrument";
import { preparedStatement, type Placeholders } from "~/db/prepared.server";
import { tenantModules, tenants } from "~/db/schema";
import { tenantBySlugStatements } from "~/features/platform/index.server";
import { invoiceListItem, invoiceListQueries, listInvoices, type InvoiceListQuery } from "~/features/cis/invoices/queries.server";
import { INVOICE_PERIODS, INVOICE_STATUS_FILTERS } from "~/features/cis/invoices/invoice-codes";
import { listSubcontractors, subcontractorFilter, STATUS_FILTERS, UTR_FILTERS, type ListQuery } from "~/features/cis/subcontractors/subcontractors.server";
import { cisSubcontractors } from "~/db/schema";
import { asc, count } from "drizzle-orm";
import { createTenant } from "../factories";
import { seedSub } from "../factories/cis";
import { seedInvoice } from "../factories/returns";
import { compileMonthlyReturn, returnsPageData } from "~/features/cis/returns/returns.server";
import { taxMonthFromLabel } from "~/features/cis/domain";
import { getDashboardData } from "~/features/cis/dashboard/dashboard.server";
import { loadStatementsPage } from "~/features/cis/statements/statements-page.server";
import { cisStaff } from "../factories/cis";

describe("statements prepared once per database", () => {
  it("answers each call with its own values' rows, alone, in a batch and at the same time", async () => {
    const a = await createTenant({ modules: ["cis"] });
    const b = await createTenant({ modules: ["cis", "files"] });
    const db = globalDb(env);
    const bySlug = preparedStatement((d, p: Placeholders<{ slug: string }>) =>
      d.select({ id: tenants.id, slug: tenants.slug }).from(tenants).where(eq(tenants.slug, p.slug)),
    );
    expect(await bySlug(db, { slug: a.slug })).toEqual([{ id: a.id, slug: a.slug }]);
    expect(await bySlug(db, { slug: b.slug })).toEqual([{ id: b.id, slug: b.slug }]);
    expect(await bySlug(db, { slug: "no-such-tenant" })).toEqual([]);
    // Beside an ordinary query in one batch, and two calls of the same statement in it.
    const [rowsA, plain, rowsB] = await db.batch([
      bySlug(db, { slug: a.slug }),
      db
        .select({ one: sql<number>`1` })
        .from(tenants)
        .limit(1),
      bySlug(db, { slug: b.slug }),
    ]);
    expect(rowsA).toEqual([{ id: a.id, slug: a.slug }]);
    expect(plain).toEqual([{ one: 1 }]);
    expect(rowsB).toEqual([{ id: b.id, slug: b.slug }]);
    const together = await Promise.all([a, b, a, b, a, b].map((t) => bySlug(db, { slug: t.slug })));
    together.forEach((rows, i) => expect(rows).toEqual([{ id: [a, b][i % 2]!.id, slug: [a, b][i % 2]!.slug }]));
  });

  it("maps rows as the query built afresh does (the tenant and its modules)", async () => {
    const t = await createTenant({ modules: ["cis", "files"] });
    const db = globalDb(env);
    const fresh = await db.select().from(tenants).where(eq(tenants.slug, t.slug)).limit(1);
    const [tenantRows, moduleRows] = await db.batch([...tenantBySlugStatements(db, t.slug)]);
    expect(tenantRows).toEqual(fresh);
    expect(tenantRows[0]!.branding).toEqual(fresh[0]!.branding);
    expect(moduleRows.map((m) => m.id).sort()).toEqual(["cis", "files"]);
    // The second call reuses what the first built and still answers for its own slug.
    const other = await createTenant({ modules: ["cis"] });
    const [otherRows, otherModules] = await db.batch([...tenantBySlugStatements(db, other.slug)]);
    expect(otherRows.map((r) => r.id)).toEqual([other.id]);
    expect(otherModules.map((m) => m.id)).toEqual(["cis"]);
  });

  it("maps rows as drizzle does: nested objects, booleans, JSON, SQL columns and a left join that found nothing", async () => {
    const t = await createTenant({ modules: ["cis"] });
    await globalDb(env)
      .update(tenantModules)
      .set({ config: { colour: "teal", n: 2 } })
      .where(and(eq(tenantModules.tenantId, t.id), eq(tenantModules.moduleId, "cis")));
    const build = (d: Db, slug: SQLWrapper | string, moduleId: SQLWrapper | string) =>
      d
        .select({
          t: { id: tenants.id, slug: tenants.slug, branding: tenants.branding },
          m: { moduleId: tenantModules.moduleId, enabled: tenantModules.enabled, config: tenantModules.config },
          shout: sql<string>`upper(${tenants.slug})`,
          twice: sql<number>`2 * length(${tenants.slug})`.mapWith(Number),
        })
        .from(tenants)
        .leftJoin(tenantModules, and(eq(tenantModules.tenantId, tenants.id), sql`${tenantModules.moduleId} = ${moduleId}`))
        .where(sql`${tenants.slug} = ${slug}`);
    const stmt = preparedStatement((d: Db, p: Placeholders<{ slug: string; moduleId: string }>) => build(d, p.slug, p.moduleId));
    const db = globalDb(env);
    for (const moduleId of ["cis", "no-such-module"]) {
      const fresh = await build(db, t.slug, moduleId);
      expect(fresh).toHaveLength(1);
      expect(await stmt(db, { slug: t.slug, moduleId })).toEqual(fresh);
      const [inBatch] = await db.batch([stmt(db, { slug: t.slug, moduleId })]);
      expect(inBatch).toEqual(fresh);
    }
    const [withCis] = await stmt(db, { slug: t.slug, moduleId: "cis" });
    expect(withCis!.m).toEqual({ moduleId: "cis", enabled: true, config: { colour: "teal", n: 2 } });
    expect(withCis!.shout).toBe(t.slug.toUpperCase());
    expect(withCis!.twice).toBe(2 * t.slug.length);
    const [withoutFiles] = await stmt(db, { slug: t.slug, moduleId: "no-such-module" });
    expect(withoutFiles!.m).toBeNull();
    expect(withoutFiles!.t.id).toBe(t.id);
  });

  it("builds once per database and shape, not once per call", async () => {
    const t = await createTenant();
    let builds = 0;
    const stmt = preparedStatement(
      (d: Db, p: Placeholders<{ slug: string; upper: boolean }>) => {
        builds += 1;
        return d.select({ slug: tenants.slug }).from(tenants).where(eq(tenants.slug, p.slug));
      },
      (v) => (v.upper ? "upper" : "lower"),
    );
    const db = globalDb(env);
    for (let i = 0; i < 5; i++) expect(await stmt(db, { slug: t.slug, upper: false })).toEqual([{ slug: t.slug }]);
    expect(builds).toBe(1);
    await stmt(db, { slug: t.slug, upper: true });
    expect(builds).toBe(2);
    // Another binding (a test's counting wrapper) gets its own drizzle instance and its own statement, sent through it.
    const counter = countingD1(env.DB);
    expect(await stmt(globalDb({ ...env, DB: counter.db }), { slug: t.slug, upper: false })).toEqual([{ slug: t.slug }]);
    expect(builds).toBe(3);
    expect(counter.queries()).toBe(1);
  });

  it("refuses a call that leaves a placeholder without a value", async () => {
    const stmt = preparedStatement((d: Db, p: Placeholders<{ slug: string }>) => d.select({ id: tenants.id }).from(tenants).where(eq(tenants.slug, p.slug)));
    const db = globalDb(env);
    await stmt(db, { slug: "x" });
    expect(() => stmt(db, {} as { slug: string })).toThrow(/No value for placeholder "slug"/);
  });

  it("the invoice list's prepared statements answer every filter, page and tenant as the statements built afresh", { timeout: 120_000 }, async () => {
    const now = new Date("2026-06-15T12:00:00Z");
    const a = await createTenant({ modules: ["cis"] });
    const b = await createTenant({ modules: ["cis"] });
    for (const t of [a, b]) {
      const sub = await seedSub(t, { name: `Prepared ${t.slug} Roofing` });
      const other = await seedSub(t, { name: `Prepared ${t.slug} Groundworks` });
      const months = ["2026-04-10", "2026-05-12", "2026-06-08", "2025-12-01", "2025-07-20"];
      for (let i = 0; i < 60; i++) {
        const s = i % 3 === 0 ? other : sub;
        await seedInvoice(t, {
          subcontractorId: s.id,
          subcontractorName: s.name,
          status: (["draft", "approved", "paid"] as const)[i % 3],
          paymentDate: months[i % months.length],
        });
      }
    }
    const db = globalDb(env);
    const views: InvoiceListQuery[] = [];
    for (const status of INVOICE_STATUS_FILTERS)
      for (const period of INVOICE_PERIODS) for (const q of ["", "roofing"]) for (const page of [1, 2]) views.push({ status, period, q, page });
    for (const view of views) {
      for (const t of [a, b]) {
        const [rows, [{ total }], [stats]] = await db.batch([...invoiceListQueries(db, t.id, view, now)]);
        const listed = await listInvoices(env, t.id, view, now);
        const label = `${t.slug} ${JSON.stringify(view)}`;
        expect(listed.rows, label).toEqual(rows.map(invoiceListItem));
        expect(listed.total, label).toBe(total);
        expect(listed.stats.total, label).toBe(Number(stats!.total));
        expect(listed.stats.pendingStatements, label).toBe(Number(stats!.pendingStatements));
      }
    }
    // Each tenant sees only its own invoices through the shared statements.
    const [firstA, firstB] = await Promise.all([a, b].map((t) => listInvoices(env, t.id, { status: "all", period: "all", q: "", page: 1 }, now)));
    expect(firstA!.total).toBe(60);
    expect(firstA!.rows.every((r) => r.subcontractorName.includes(a.slug))).toBe(true);
    expect(firstB!.rows.every((r) => r.subcontractorName.includes(b.slug))).toBe(true);
  });

  it("the subcontractor list's prepared statements answer every filter, page and tenant as a fresh count and page", { timeout: 120_000 }, async () => {
    const a = await createTenant({ modules: ["cis"] });
    const b = await createTenant({ modules: ["cis"] });
    for (const t of [a, b]) {
      for (let i = 0; i < 40; i++) {
        const type = (["individual", "company", "partnership"] as const)[i % 3];
        await seedSub(
          t,
          {
            name: `Prepared ${t.slug} ${String(i).padStart(2, "0")}`,
            type,
            ...(type === "company" ? { companyNumber: `PC${String(i).padStart(6, "0")}` } : {}),
          },
          { active: i % 4 !== 0 },
        );
      }
      await env.DB.prepare("UPDATE cis_subcontractors SET utr_invalid = 1 WHERE tenant_id = ? AND name LIKE '%5'").bind(t.id).run();
    }
    const db = globalDb(env);
    for (const status of STATUS_FILTERS)
      for (const utr of UTR_FILTERS)
        for (const type of ["all", "individual", "company"] as const)
          for (const page of [1, 2]) {
            for (const t of [a, b]) {
              const view: ListQuery = { q: "", status, utr, type, page };
              const where = await subcontractorFilter(env, t.id, view);
              const ids = await db
                .select({ id: cisSubcontractors.id })
                .from(cisSubcontractors)
                .where(where)
                .orderBy(asc(cisSubcontractors.nameLower), asc(cisSubcontractors.id))
                .limit(25)
                .offset((page - 1) * 25);
              const [{ total }] = await db.select({ total: count() }).from(cisSubcontractors).where(where);
              const listed = await listSubcontractors(env, t.id, view);
              const label = `${t.slug} ${JSON.stringify(view)}`;
              expect(
                listed.rows.map((r) => r.id),
                label,
              ).toEqual(ids.map((r) => r.id));
              expect(listed.total, label).toBe(total);
            }
          }
    const all = await listSubcontractors(env, a.id, { q: "", status: "all", utr: "all", type: "all", page: 1 });
    expect(all.total).toBe(40);
    expect(all.summary.total).toBe(40);
    expect(all.rows.every((r) => r.name.includes(a.slug))).toBe(true);
  });

  it("the returns page's prepared statements read each tenant's own returns, lines and months, also at the same time", { timeout: 60_000 }, async () => {
    const seeder = { id: "seed-prepared-returns", email: "seed@example.test", name: "Seeder" };
    const a = await createTenant({ modules: ["cis"] });
    const b = await createTenant({ modules: ["cis"] });
    const seeded = async (t: typeof a, names: string[]) => {
      for (const name of names) {
        const sub = await seedSub(t, { name });
        await seedInvoice(t, { subcontractorId: sub.id, subcontractorName: name, statementRequired: true, paymentDate: "2026-01-10" });
      }
      await compileMonthlyReturn(env, t.id, "2026-01", seeder);
    };
    await seeded(a, ["Ann Roofing", "Bob Bricks"]);
    await seeded(b, ["Cat Carpentry"]);
    const month = taxMonthFromLabel("2026-01");
    const now = new Date("2026-03-01T12:00:00Z");
    const [pageA, pageB, againA] = await Promise.all([
      returnsPageData(env, a.id, month, now),
      returnsPageData(env, b.id, month, now),
      returnsPageData(env, a.id, month, now),
    ]);
    expect(againA).toEqual(pageA);
    for (const [page, t, names] of [
      [pageA, a, ["Ann Roofing", "Bob Bricks"]],
      [pageB, b, ["Cat Carpentry"]],
    ] as const) {
      expect(page.monthReturns.map((r) => [r.tenantId, r.taxMonth])).toEqual([[t.id, "2026-01"]]);
      expect(page.lines.map((l) => [l.tenantId, l.returnId, l.name])).toEqual(names.map((n) => [t.id, page.monthReturns[0]!.id, n]));
      expect(page.history.map((r) => r.id)).toEqual([page.monthReturns[0]!.id]);
      expect(Object.values(page.historyLines).flat().length).toBe(names.length);
      expect(page.paymentsInMonth).toBe(names.length);
      // Statements were never issued and the subcontractors have no e-mail address.
      expect(Object.keys(page.hasEmail).sort()).toEqual(page.lines.map((l) => l.subcontractorId).sort());
      // The tenants started today (their first invoice): no month before it is due.
      expect(page.overdue).toEqual([]);
      expect(page.notices).toEqual([]);
    }
  });

  it("the statements page's prepared statements read each tenant's own month, filter and page, also at the same time", { timeout: 60_000 }, async () => {
    const a = await createTenant({ modules: ["cis"] });
    const b = await createTenant({ modules: ["cis"] });
    const seeded = async (t: typeof a, name: string, paymentDate: string) => {
      const sub = await seedSub(t, { name });
      const inv = await seedInvoice(t, { subcontractorId: sub.id, subcontractorName: name, statementRequired: true, paymentDate });
      return { sub, number: inv.invoiceNumber };
    };
    const ann = await seeded(a, "Ann Roofing", "2026-01-10");
    const bob = await seeded(a, "Bob Bricks", "2026-01-12");
    const dan = await seeded(a, "Dan Drains", "2026-02-10");
    const cat = await seeded(b, "Cat Carpentry", "2026-01-10");
    const [janA, janB, febA, generatedA, linkedA, janAgain] = await Promise.all([
      loadStatementsPage(env, a.id, "2026-01"),
      loadStatementsPage(env, b.id, "2026-01"),
      loadStatementsPage(env, a.id, "2026-02"),
      loadStatementsPage(env, a.id, "2026-01", { filter: "generated", page: 1, sub: null }),
      loadStatementsPage(env, a.id, "2026-01", { filter: "all", page: 7, sub: bob.sub.id }),
      loadStatementsPage(env, a.id, "2026-01"),
    ]);
    const shown = (page: typeof janA) => page.rows.map((r) => [r.name, r.invoices.map((i) => i.invoiceNumber)]);
    expect(shown(janA)).toEqual([
      ["Ann Roofing", [ann.number]],
      ["Bob Bricks", [bob.number]],
    ]);
    expect(janAgain).toEqual(janA);
    expect(shown(janB)).toEqual([["Cat Carpentry", [cat.number]]]);
    expect(shown(febA)).toEqual([["Dan Drains", [dan.number]]]);
    expect(shown(generatedA)).toEqual([]);
    expect(generatedA.counts).toEqual({ total: 2, pending: 2, generated: 0, issued: 0 });
    // The linked subcontractor's page, not the page asked for (there is one page).
    expect(linkedA.page).toBe(1);
    expect(shown(linkedA)).toEqual(shown(janA));
  });

  it("the dashboard's activity is one statement per set of actions a viewer may see: each viewer gets their own", async () => {
    const { t, u } = await cisStaff("admin", { settings: {} });
    await seedSub(t, { name: "Seen By Some Ltd" }, { actor: { id: u.id, email: u.email, name: "Alice" } });
    const now = new Date();
    const read = (scopes: string[]) => getDashboardData(env, t.id, { now, viewer: { tenantId: t.id, scopes } });
    const activity = async (scopes: string[]) => {
      const data = await read(scopes);
      if (!data.active) throw new Error("the settings are active");
      return data.activity.map((a) => a.text);
    };
    const subReader = await activity(["cis.sub.read"]);
    expect(subReader.some((text) => text.includes("Seen By Some Ltd"))).toBe(true);
    // The same tenant and database straight after: a viewer of invoices only sees none of it.
    expect(await activity(["cis.inv.read"])).toEqual([]);
    expect(await activity(["cis.sub.read"])).toEqual(subReader);
  });
});
