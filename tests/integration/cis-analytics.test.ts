import { describe, expect, it } from "vitest";
import { createTenant, createUser } from "../factories";
import { seedSub } from "../factories/cis";
import { page, pageText, textsOf } from "../factories/html";
import { signIn } from "./auth-helpers";

describe("CIS analytics", () => {
  it("shows real figures of this tenant's active subcontractors only", async () => {
    const t = await createTenant({ modules: ["cis"] });
    const other = await createTenant({ modules: ["cis"] });
    const admin = await createUser(t, { role: "admin" });
    const otherAdmin = await createUser(other, { role: "admin" });
    const actor = { id: admin.id, email: admin.email, name: "A" };
    const make = (
      name: string,
      utr: string,
      type: "individual" | "company",
      status: "gross" | "standard" | "higher",
      extra: Record<string, string> = {},
      archived = false,
    ) => seedSub(t, { name, utr, type, verificationStatus: status, ...extra }, { actor, archived });
    await make("Gross Co", "1000000001", "company", "gross", { verificationMethod: "online", verifiedDate: "2026-05-01", email: "g@example.test" });
    await make("Std One", "1000000002", "individual", "standard");
    await make("Std Gone", "1000000003", "individual", "standard", {}, true);
    await make("High Co", "1000000004", "company", "higher");
    await seedSub(
      other,
      { name: "Elsewhere", utr: "1000000005", type: "company", verificationStatus: "gross" },
      { actor: { id: otherAdmin.id, email: otherAdmin.email, name: "B" } },
    );

    const b = await signIn(t, await createUser(t, { role: "standard" }));
    const res = await b.get(`${t.origin}/cis/analytics`);
    expect(res.status).toBe(200);
    const doc = await page(res);
    const row = (key: string) => textsOf(doc, `[data-row="${key}"] > td`)[1];
    expect(row("gross")).toBe("1");
    expect(row("standard")).toBe("1");
    expect(row("higher")).toBe("1");
    expect(row("company")).toBe("2");
    expect(row("individual")).toBe("1");
    expect(pageText(doc)).toContain("1 of 3 active subcontractors have an e-mail address");
    expect(pageText(doc)).toContain("1 (33%)");
  });

  it("is 404 when the CIS module is off and asks signed-out visitors to sign in", async () => {
    const off = await createTenant();
    const u = await createUser(off, { role: "admin" });
    const b = await signIn(off, u);
    expect((await b.get(`${off.origin}/cis/analytics`)).status).toBe(404);
    const on = await createTenant({ modules: ["cis"] });
    const { Browser } = await import("./http");
    expect((await new Browser().get(`${on.origin}/cis/analytics`)).status).toBe(302);
  });
});
