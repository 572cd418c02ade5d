import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { buildCis300Message } from "~/features/cis/domain/xml/cis300";
import { newCorrelationId } from "~/features/cis/domain/xml/govtalk-envelope";
import { startSubmission } from "~/features/cis/hmrc/gateway.server";
import { startVerification } from "~/features/cis/hmrc/verification.server";
import { runCisImportCleanup, storeUpload } from "~/features/cis/subcontractors/import.server";
import { encryptPii } from "~/features/cis/pii.server";
import { utrPiiContext } from "~/features/cis/settings/settings.server";
import { createSubcontractor } from "~/features/cis/subcontractors/subcontractors.server";
import { createTenant, createUser } from "../factories";
import { newUtr, seedCisSettings, seedSub, subInput } from "../factories/cis";
import { count } from "./auth-helpers";
import { jobsRecorder, submissionRow, uniqueEmployerRef, withCredentials } from "./hmrc-helpers";
import { expectNoPlaintextAnywhere, newNino } from "./pii-scan";

const input = (name: string, utr: string) => subInput({ type: "company", name, utr });

describe("CIS data integrity", () => {
  it("never creates two live subcontractors with one UTR, even when two saves race", async () => {
    const t = await createTenant({ modules: ["cis"] });
    const u = await createUser(t, { role: "admin" });
    const actor = { id: u.id, email: u.email, name: "Racer" };
    const results = await Promise.all([
      createSubcontractor(env, t.id, input("Racing One Ltd", "7555544444"), actor, { canVerify: true }),
      createSubcontractor(env, t.id, input("Racing Two Ltd", "7555544444"), actor, { canVerify: true }),
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
    expect((await createSubcontractor(env, a.id, input("Shared Utr A", "8666655555"), { id: ua.id, email: ua.email, name: "A" }, { canVerify: true })).ok).toBe(
      true,
    );
    expect((await createSubcontractor(env, b.id, input("Shared Utr B", "8666655555"), { id: ub.id, email: ub.email, name: "B" }, { canVerify: true })).ok).toBe(
      true,
    );
  });

  it("deletes import uploads nobody committed once they expire", async () => {
    const t = await createTenant({ modules: ["cis"] });
    const u = await createUser(t, { role: "admin" });
    await storeUpload(env, t.id, u.id, "Name,Type,UTR\nX Ltd,company,5334567890\n", "x.csv");
    const before = await env.FILES.list({ prefix: `tenants/${t.id}/imports/` });
    expect(before.objects).toHaveLength(1);
    await runCisImportCleanup(env, Date.now());
    expect((await env.FILES.list({ prefix: `tenants/${t.id}/imports/` })).objects).toHaveLength(1);
    await runCisImportCleanup(env, Date.now() + 2 * 60 * 60 * 1000);
    expect((await env.FILES.list({ prefix: `tenants/${t.id}/imports/` })).objects).toHaveLength(0);
  });

  it("leaves no UTR or NINO in plain text in any table or column after a verification and a CIS300 through the fake gateway", async () => {
    const t = await createTenant({ modules: ["cis"] });
    const u = await createUser(t, { role: "admin" });
    const actor = { id: u.id, email: u.email, name: "Test Actor" };
    const contractorUtr = newUtr();
    const employerRef = uniqueEmployerRef();
    await seedCisSettings(t);
    await env.DB.prepare("UPDATE cis_settings SET utr_enc = ?, employer_ref = ? WHERE tenant_id = ?")
      .bind(await encryptPii(env.PII_KEYS, contractorUtr, utrPiiContext(t.id)), employerRef, t.id)
      .run();
    await withCredentials(t);
    const nino = newNino();
    const person = await seedSub(t, { type: "individual", name: "Ivy Scanned", nino });
    const company = await seedSub(t, { type: "company", name: "Scanned Builders Ltd" });
    const q = jobsRecorder();

    // Online verification: the request carries both UTRs and the NINO, HMRC's answer echoes them.
    const verification = await startVerification(q.env, t.id, [person.id, company.id], actor);
    if (!verification.ok) throw new Error(verification.code);
    await q.deliver(q.of("hmrc.send")[0]);
    await q.deliver(q.of("hmrc.poll")[0]);
    expect((await submissionRow(t.id, verification.submissionId)).status).toBe("accepted");
    expect(await count("cis_subcontractors", "tenant_id = ? AND verification_method = 'online'", t.id)).toBe(2);

    // A CIS300 naming both subcontractors.
    const message = await buildCis300Message({
      employerRef,
      accountsOfficeRef: "123PG00012345",
      contractorUtr,
      periodEnd: "2026-02-05",
      nil: false,
      lines: [
        { name: { fore: ["Ivy"], sur: "Scanned" }, utr: person.utr, nino, totalPaymentsP: 150_000, costOfMaterialsP: 30_000, totalDeductedP: 24_000 },
        { tradingName: "Scanned Builders Ltd", utr: company.utr, totalPaymentsP: 90_000, costOfMaterialsP: 0, totalDeductedP: 18_000 },
      ],
      declarations: { employmentStatus: true, verification: true },
      correlationId: newCorrelationId(),
      gatewayTimestamp: new Date(),
      product: { name: "CIS Workspace", version: "1.0" },
    });
    const submitted = await startSubmission(q.env, t.id, { subject: { kind: "cis300", returnId: "2025-12" }, message, actor });
    if (!submitted.ok) throw new Error(submitted.code);
    await q.deliver(q.of("hmrc.send")[1]);
    await q.deliver(q.of("hmrc.poll")[1]);
    expect((await submissionRow(t.id, submitted.submissionId)).status).toBe("accepted");

    await expectNoPlaintextAnywhere([person.utr, company.utr, contractorUtr, nino]);
  });
});
