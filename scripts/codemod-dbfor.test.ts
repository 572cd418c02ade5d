import { describe, expect, it } from "vitest";
import { convertSource } from "./codemod-dbfor.mjs";

const HEAD = `import { getDb, type Db } from "~/db/client.server";
import { auditEvents, authThrottle, cisInvoices, tenants, users, HMRC_IN_FLIGHT_STATUSES } from "~/db/schema";
`;

function convert(body: string) {
  return convertSource("app/features/x/x.server.ts", HEAD + body);
}

describe("codemod-dbfor", () => {
  it("gives a function working for one tenant that tenant's database", () => {
    const { text, report } = convert(`export async function list(env: Env, tenantId: string) {
  return getDb(env).select().from(cisInvoices).where(eq(cisInvoices.tenantId, tenantId));
}`);
    expect(report).toEqual([expect.objectContaining({ kind: "dbFor", tenant: "tenantId" })]);
    expect(text).toContain("dbFor(env, tenantId).select()");
    expect(text).toContain('import { dbFor, type Db } from "~/db/client.server";');
  });

  it("finds the tenant in a destructured parameter, a parameter's field, or a const declared before the call", () => {
    const cases = [
      ["export async function a(env: Env, { tenantId, id }: { tenantId: string; id: string }) { return getDb(env).select().from(users); }", "tenantId"],
      [
        "export async function b(env: Env, opts: { tenantId: string }) { return getDb(env).select().from(users).where(eq(users.tenantId, opts.tenantId)); }",
        "opts.tenantId",
      ],
      [
        "export async function c(env: Env, tenant: { id: string }) { return getDb(env).select().from(users).where(eq(users.tenantId, tenant.id)); }",
        "tenant.id",
      ],
      ["export async function d(env: Env, input: { tenantId: string }) { const { tenantId } = input; return getDb(env).select().from(users); }", "tenantId"],
    ] as const;
    for (const [body, tenant] of cases) expect(convert(body).report).toEqual([expect.objectContaining({ kind: "dbFor", tenant })]);
  });

  it("moves a function that only touches global tables to the platform's database", () => {
    const { text, report } = convert(`export async function locked(env: Env, key: string) {
  return getDb(env).select().from(authThrottle).where(eq(authThrottle.key, key));
}`);
    expect(report).toEqual([expect.objectContaining({ kind: "globalDb" })]);
    expect(text).toContain("globalDb(env).select()");
  });

  it("leaves what needs a person: cross-tenant sweeps, an optional tenant, mixed batches, writes of the tenants row", () => {
    const sweep = convert(
      `export async function purge(env: Env, before: number) { return getDb(env).delete(auditEvents).where(lt(auditEvents.createdAt, before)); }`,
    );
    expect(sweep.report).toEqual([expect.objectContaining({ kind: "left", reason: expect.stringContaining("needs fanOut") })]);
    expect(sweep.text).toBe(
      HEAD + `export async function purge(env: Env, before: number) { return getDb(env).delete(auditEvents).where(lt(auditEvents.createdAt, before)); }`,
    );
    const optional = convert(`export async function resume(env: Env, tenantId?: string) { return getDb(env).select().from(cisInvoices); }`);
    expect(optional.report).toEqual([expect.objectContaining({ kind: "left" })]);
    const mixed = convert(
      `export async function lock(env: Env, tenantId: string) { const db = getDb(env); return db.batch([db.select().from(authThrottle), db.select().from(users)]); }`,
    );
    expect(mixed.report).toEqual([expect.objectContaining({ kind: "left", reason: expect.stringContaining("mixes global-only") })]);
    const rename = convert(`export async function rename(env: Env, tenantId: string) { return getDb(env).update(tenants).set({ name: "x" }); }`);
    expect(rename.report).toEqual([expect.objectContaining({ kind: "left", reason: expect.stringContaining("write both by hand") })]);
  });

  it("does not take a schema constant for a table", () => {
    const { report } = convert(
      `export async function statuses(env: Env, tenantId: string) { return getDb(env).select().from(cisInvoices).where(inArray(cisInvoices.status, HMRC_IN_FLIGHT_STATUSES)); }`,
    );
    expect(report).toEqual([expect.objectContaining({ kind: "dbFor" })]);
  });

  it("keeps getDb imported while a call is left, and changes nothing on a second run", () => {
    const first = convert(`export async function one(env: Env, tenantId: string) { return getDb(env).select().from(users); }
export async function all(env: Env) { return getDb(env).select().from(users); }`);
    expect(first.text).toContain('import { dbFor, getDb, type Db } from "~/db/client.server";');
    const second = convertSource("app/features/x/x.server.ts", first.text);
    expect(second.text).toBe(first.text);
    expect(second.report.map((r) => r.kind)).toEqual(["left"]);
  });
});
