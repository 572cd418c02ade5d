import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { runCisImportCleanup, storeUpload } from "~/features/cis/import.server";
import { createSubcontractor } from "~/features/cis/subcontractors.server";
import { createTenant, createUser } from "../factories";
import { subInput } from "../factories/cis";
import { count } from "./auth-helpers";

const input = (name: string, utr: string) => subInput({ type: "company", name, utr });

describe("CIS data integrity", () => {
  it("never creates two live subcontractors with one UTR, even when two saves race", async () => {
    const t = await createTenant({ modules: ["cis"] });
    const u = await createUser(t, { role: "admin" });
    const actor = { id: u.id, email: u.email, name: "Racer" };
    const results = await Promise.all([
      createSubcontractor(env, t.id, input("Racing One Ltd", "5555544444"), actor, { canVerify: true }),
      createSubcontractor(env, t.id, input("Racing Two Ltd", "5555544444"), actor, { canVerify: true }),
    ]);
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    const refused = results.find((r) => !r.ok);
    expect(refused).toEqual({ ok: false, code: "duplicate_utr", field: "utr" });
    expect(await count("cis_subcontractors", "tenant_id = ?", t.id)).toBe(1);
    // The refused save wrote no audit entry either: change and audit land together or not at all.
    expect(await count("audit_events", "tenant_id = ? AND action = 'cis.subcontractor.created'", t.id)).toBe(1);
  });

  it("refuses a duplicate UTR hash at the database, but allows it once the first is deleted", async () => {
    const t = await createTenant({ modules: ["cis"] });
    const insert = (id: string) =>
      env.DB.prepare(
        "INSERT INTO cis_subcontractors (id, tenant_id, type, name, name_lower, utr_hash, created_at, updated_at) VALUES (?, ?, 'company', 'X', 'x', 'same-hash', 1, 1)",
      )
        .bind(id, t.id)
        .run();
    await insert(`${t.id}-a`);
    await expect(insert(`${t.id}-b`)).rejects.toThrow(/UNIQUE constraint failed/);
    await env.DB.prepare("UPDATE cis_subcontractors SET deleted_at = 2 WHERE id = ?").bind(`${t.id}-a`).run();
    await insert(`${t.id}-c`);
  });

  it("lets the same UTR exist in another tenant", async () => {
    const a = await createTenant({ modules: ["cis"] });
    const b = await createTenant({ modules: ["cis"] });
    const ua = await createUser(a, { role: "admin" });
    const ub = await createUser(b, { role: "admin" });
    expect((await createSubcontractor(env, a.id, input("Shared Utr A", "6666655555"), { id: ua.id, email: ua.email, name: "A" }, { canVerify: true })).ok).toBe(
      true,
    );
    expect((await createSubcontractor(env, b.id, input("Shared Utr B", "6666655555"), { id: ub.id, email: ub.email, name: "B" }, { canVerify: true })).ok).toBe(
      true,
    );
  });

  it("deletes import uploads nobody committed once they expire", async () => {
    const t = await createTenant({ modules: ["cis"] });
    const u = await createUser(t, { role: "admin" });
    await storeUpload(env, t.id, u.id, "Name,Type,UTR\nX Ltd,company,1234567890\n", "x.csv");
    const before = await env.FILES.list({ prefix: `tenants/${t.id}/imports/` });
    expect(before.objects).toHaveLength(1);
    await runCisImportCleanup(env, Date.now());
    expect((await env.FILES.list({ prefix: `tenants/${t.id}/imports/` })).objects).toHaveLength(1);
    await runCisImportCleanup(env, Date.now() + 2 * 60 * 60 * 1000);
    expect((await env.FILES.list({ prefix: `tenants/${t.id}/imports/` })).objects).toHaveLength(0);
  });
});
