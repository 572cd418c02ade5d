import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { archiveSubcontractors, BULK_LIMIT, deleteSubcontractors } from "~/features/cis/subcontractors/subcontractors.server";
import { cisTenant, seedSub } from "../factories/cis";
import { count } from "./auth-helpers";

const actor = { id: "bulk-tester", email: "bulk@example.test", name: "Bulk Tester" };

describe("bulk actions at the limit", () => {
  it("archives and deletes as many subcontractors as the limit allows in one go (D1 binds at most 100 parameters a statement)", async () => {
    const t = await cisTenant();
    const ids: string[] = [];
    for (let i = 0; i < BULK_LIMIT * 2; i++) ids.push((await seedSub(t, { name: `Limit Builder ${String(i).padStart(3, "0")}` })).id);
    const archived = await archiveSubcontractors(env, t.id, ids.slice(0, BULK_LIMIT), actor);
    expect(archived.failed).toEqual([]);
    expect(archived.succeeded).toHaveLength(BULK_LIMIT);
    expect(await count("cis_subcontractors", "tenant_id = ? AND active = 0", t.id)).toBe(BULK_LIMIT);
    const deleted = await deleteSubcontractors(env, t.id, ids.slice(BULK_LIMIT), actor);
    expect(deleted.failed).toEqual([]);
    expect(deleted.succeeded).toHaveLength(BULK_LIMIT);
    expect(await count("cis_subcontractors", "tenant_id = ? AND deleted_at IS NOT NULL", t.id)).toBe(BULK_LIMIT);
  });
});
