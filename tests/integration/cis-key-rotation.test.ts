import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { readGatewayCredentials, saveGatewayCredentials } from "~/features/cis/hmrc/credentials.server";
import { describeRotation, rotatePiiKeys } from "~/features/cis/key-rotation.server";
import { decryptPii, encryptPii, maskUtr } from "~/features/cis/pii.server";
import { createTenant, type TestTenant } from "../factories";
import { seedSub } from "../factories/cis";

// The test environment encrypts with key 1 (vitest.config.ts); key 2 is the new one.
const KEY1 = env.PII_KEYS;
const KEY2 = "2:ZmVkY2JhOTg3NjU0MzIxMGZlZGNiYTk4NzY1NDMyMTA=";
const BOTH = `${KEY1},${KEY2}`;
const actor = { id: "rotator", email: "rotator@example.test", name: "Rotator" };

type SubRow = { id: string; tenant_id: string; utr_enc: string | null; nino_enc: string | null; utr_hash: string | null };

async function seedTenant(): Promise<{ t: TestTenant; plain: Map<string, { utr: string; nino: string | null }>; settingsUtr: string }> {
  const t = await createTenant({ modules: ["cis"] });
  const plain = new Map<string, { utr: string; nino: string | null }>();
  const people = [
    { name: "Ann Individual", type: "individual", utr: "9010101010", nino: "AB123456C" },
    { name: "Ben Individual", type: "individual", utr: "7020202020", nino: "CE654321A" },
    { name: "Co Ltd", type: "company", utr: "5030303030", nino: null },
    { name: "Dee Partners", type: "partnership", utr: "3040404040", nino: null },
    { name: "Eve Individual", type: "individual", utr: "1050505050", nino: null },
  ] as const;
  for (const p of people) {
    const sub = await seedSub(t, { ...p, nino: p.nino ?? undefined }, { actor });
    plain.set(sub.id, { utr: p.utr, nino: p.nino });
  }
  const settingsUtr = "4090909090";
  const now = Date.now();
  await env.DB.prepare(
    "INSERT INTO cis_settings (tenant_id, active, company_name, utr_enc, utr_masked, created_at, updated_at) VALUES (?, 1, 'Rotation Ltd', ?, ?, ?, ?)",
  )
    .bind(t.id, await encryptPii(KEY1, settingsUtr, { tenantId: t.id, table: "cis_settings", recordId: t.id, field: "utr" }), maskUtr(settingsUtr), now, now)
    .run();
  return { t, plain, settingsUtr };
}

async function rowsOf(t: TestTenant) {
  return (
    await env.DB.prepare("SELECT id, tenant_id, utr_enc, nino_enc, utr_hash FROM cis_subcontractors WHERE tenant_id = ? ORDER BY id").bind(t.id).all<SubRow>()
  ).results;
}
async function settingsOf(t: TestTenant) {
  return (await env.DB.prepare("SELECT utr_enc FROM cis_settings WHERE tenant_id = ?").bind(t.id).first<{ utr_enc: string }>())?.utr_enc as string;
}
const subCtx = (r: SubRow, field: "utr" | "nino") => ({ tenantId: r.tenant_id, table: "cis_subcontractors", recordId: r.id, field });

describe("PII key rotation", () => {
  it("re-encrypts every identifier with the newest key, keeps the plaintext and hashes, and a second run changes nothing", async () => {
    const { t, plain, settingsUtr } = await seedTenant();
    const before = await rowsOf(t);
    expect(before.every((r) => r.utr_enc?.startsWith("v1."))).toBe(true);
    const settingsBefore = await settingsOf(t);
    expect(settingsBefore.startsWith("v1.")).toBe(true);

    // A small batch size forces several pages.
    const report = await rotatePiiKeys({ DB: env.DB, PII_KEYS: BOTH }, { batchSize: 2 });
    expect(report.currentVersion).toBe(2);
    expect(report.failures).toEqual([]);
    // Other test files' tenants may share the database: count at least ours.
    expect(report.subcontractors.utr).toBeGreaterThanOrEqual(5);
    expect(report.subcontractors.nino).toBeGreaterThanOrEqual(2);
    expect(report.settings.utr).toBeGreaterThanOrEqual(1);

    const after = await rowsOf(t);
    for (const r of after) {
      const want = plain.get(r.id)!;
      expect(r.utr_enc?.startsWith("v2.")).toBe(true);
      expect(await decryptPii(BOTH, r.utr_enc!, subCtx(r, "utr"))).toBe(want.utr);
      // Under key 1 alone the new value no longer opens: it really moved.
      await expect(decryptPii(KEY1, r.utr_enc!, subCtx(r, "utr"))).rejects.toThrow();
      if (want.nino) {
        expect(r.nino_enc?.startsWith("v2.")).toBe(true);
        expect(await decryptPii(BOTH, r.nino_enc!, subCtx(r, "nino"))).toBe(want.nino);
      } else expect(r.nino_enc).toBeNull();
      // The search hash uses PII_HMAC_KEY, not the rotated keys.
      expect(r.utr_hash).toBe(before.find((b) => b.id === r.id)?.utr_hash);
    }
    const settingsAfter = await settingsOf(t);
    expect(settingsAfter.startsWith("v2.")).toBe(true);
    expect(await decryptPii(BOTH, settingsAfter, { tenantId: t.id, table: "cis_settings", recordId: t.id, field: "utr" })).toBe(settingsUtr);

    const second = await rotatePiiKeys({ DB: env.DB, PII_KEYS: BOTH }, { batchSize: 2 });
    expect(second.subcontractors).toEqual({ scanned: 0, updatedRows: 0, utr: 0, nino: 0 });
    expect(second.settings).toEqual({ scanned: 0, updatedRows: 0, utr: 0, gateway: 0 });
    expect(second.statementDocuments).toEqual({ scanned: 0, updatedRows: 0 });
    expect(await rowsOf(t)).toEqual(after);
    expect(await settingsOf(t)).toBe(settingsAfter);
    expect(describeRotation(second)).toContain("Nothing to do");
  });

  it("a dry run writes nothing; an unreadable value is reported, left alone, and does not stop the rest", async () => {
    const { t, plain } = await seedTenant();
    const dry = await rotatePiiKeys({ DB: env.DB, PII_KEYS: BOTH }, { dryRun: true });
    expect(dry.subcontractors.utr).toBeGreaterThanOrEqual(5);
    expect((await rowsOf(t)).every((r) => r.utr_enc?.startsWith("v1."))).toBe(true);

    // A value copied from another row fails its binding (AAD) check.
    const [first, second] = await rowsOf(t);
    await env.DB.prepare("UPDATE cis_subcontractors SET utr_enc = ? WHERE id = ?").bind(second.utr_enc, first.id).run();
    const report = await rotatePiiKeys({ DB: env.DB, PII_KEYS: BOTH }, { batchSize: 3 });
    expect(report.failures).toContainEqual({ table: "cis_subcontractors", id: first.id, field: "utr", error: "Failed to decrypt sensitive data" });
    expect(describeRotation(report)).toContain("could not be re-encrypted");
    const after = await rowsOf(t);
    expect(after.find((r) => r.id === first.id)?.utr_enc).toBe(second.utr_enc);
    for (const r of after.filter((r) => r.id !== first.id)) {
      expect(r.utr_enc?.startsWith("v2.")).toBe(true);
      expect(await decryptPii(BOTH, r.utr_enc!, subCtx(r, "utr"))).toBe(plain.get(r.id)!.utr);
    }
  });

  it("the app reads rotated values: revealing a UTR after rotation gives the original", async () => {
    const { t, plain } = await seedTenant();
    await rotatePiiKeys({ DB: env.DB, PII_KEYS: BOTH });
    const { revealIdentifier } = await import("~/features/cis/subcontractors/subcontractors.server");
    const [id, want] = [...plain.entries()][0];
    expect(await revealIdentifier({ ...env, PII_KEYS: BOTH }, t.id, id, "utr", actor, null)).toBe(want.utr);
  });

  it("re-encrypts the Government Gateway credentials too, and the gateway reads them with the new key alone", async () => {
    const { t } = await seedTenant();
    await saveGatewayCredentials(
      env,
      t.id,
      { senderId: "ROTATE123", password: "rotate-Secret-77" },
      { id: "setup", email: "setup@example.test", name: "Test Actor", ip: null },
    );
    const before = await env.DB.prepare("SELECT gateway_sender_id_enc AS s, gateway_password_enc AS p FROM cis_settings WHERE tenant_id = ?")
      .bind(t.id)
      .first<{ s: string; p: string }>();
    expect(before?.s.startsWith("v1.")).toBe(true);
    const report = await rotatePiiKeys({ DB: env.DB, PII_KEYS: BOTH });
    // Other tests leave unreadable values behind on purpose: none of them is this tenant's.
    expect(report.failures.filter((f) => f.id === t.id)).toEqual([]);
    expect(report.settings.gateway).toBeGreaterThanOrEqual(2);
    // Key 1 retired: only key 2 left, and the credentials still read back.
    const read = await readGatewayCredentials({ ...env, PII_KEYS: KEY2 }, t.id);
    expect(read).toMatchObject({ ok: true, credentials: { senderId: "ROTATE123", password: "rotate-Secret-77" } });
  });
});

describe("PII key rotation: frozen statements", () => {
  it("re-encrypts the UTR a statement document keeps, bound to its own row", async () => {
    const t = await createTenant({ modules: ["cis"] });
    const rows: { id: string; utr: string }[] = [];
    for (const [i, utr] of ["1060606060", "8070707070", "6080808080"].entries()) {
      const id = `rot-stmt-${t.id}-${i}`;
      const ctx = { tenantId: t.id, table: "cis_statement_documents", recordId: id, field: "utr" };
      await env.DB.prepare("INSERT INTO cis_statement_documents (tenant_id, statement_id, document, utr_enc, created_at) VALUES (?, ?, '{}', ?, 0)")
        .bind(t.id, id, await encryptPii(KEY1, utr, ctx))
        .run();
      rows.push({ id, utr });
    }
    const report = await rotatePiiKeys({ DB: env.DB, PII_KEYS: BOTH }, { batchSize: 2 });
    // Earlier tests of this file leave a deliberately unreadable subcontractor value behind.
    expect(report.failures.filter((f) => f.table === "cis_statement_documents")).toEqual([]);
    expect(report.statementDocuments.updatedRows).toBeGreaterThanOrEqual(3);
    for (const r of rows) {
      const stored = await env.DB.prepare("SELECT utr_enc FROM cis_statement_documents WHERE statement_id = ?").bind(r.id).first<{ utr_enc: string }>();
      expect(stored?.utr_enc.startsWith("v2.")).toBe(true);
      expect(await decryptPii(BOTH, stored!.utr_enc, { tenantId: t.id, table: "cis_statement_documents", recordId: r.id, field: "utr" })).toBe(r.utr);
    }
    expect(describeRotation(report)).toContain("cis_statement_documents");
  });
});
