import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "~/db/client.server";
import { cisInvoices } from "~/db/schema";
import { listInvoices } from "~/features/cis/invoices/queries.server";
import { createTenant, createUser } from "../factories";
import { seedSub } from "../factories/cis";
import { seedInvoice } from "../factories/returns";

// Queries the tenancy check (ADR 0051) found comparing tenant_id with itself or leaving it out.
describe("tenant conditions the tenancy check found", () => {
  it("never names another tenant's user as the one a portal invoice's link was shown to", async () => {
    const mine = await createTenant();
    const other = await createTenant();
    const stranger = await createUser(other);
    const sub = await seedSub(mine, { name: "Link Builder" });
    const inv = await seedInvoice(mine, { subcontractorId: sub.id, status: "draft" });
    // A row pointing at a user of another workspace (as restored or imported data could).
    await getDb(env).update(cisInvoices).set({ source: "portal", portalLinkRevealedBy: stranger.id }).where(eq(cisInvoices.id, inv.id));
    const list = await listInvoices(env, mine.id, { q: "", status: "all", period: "all", page: 1 });
    const row = list.rows.find((r) => r.id === inv.id);
    expect(row?.linkShownTo).toBe("a former user");
  });
});
