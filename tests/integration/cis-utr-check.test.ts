import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { encryptPii, maskUtr } from "~/features/cis/pii.server";
import { runUtrCheckBackfill } from "~/features/cis/subcontractors/utr-check.server";
import type { TestTenant } from "../factories";
import { cisStaff, seedSub, subForm } from "../factories/cis";
import { all, page } from "../factories/html";

async function flagOf(id: string) {
  const row = await env.DB.prepare("SELECT utr_invalid FROM cis_subcontractors WHERE id = ?").bind(id).first<{ utr_invalid: number | null }>();
  return row?.utr_invalid ?? null;
}

/** A row as it stood before the flag existed: this UTR encrypted, no flag. */
async function legacy(t: TestTenant, id: string, utr: string) {
  const enc = await encryptPii(env.PII_KEYS, utr, { tenantId: t.id, table: "cis_subcontractors", recordId: id, field: "utr" });
  await env.DB.prepare("UPDATE cis_subcontractors SET utr_enc = ?, utr_masked = ?, utr_invalid = NULL WHERE tenant_id = ? AND id = ?")
    .bind(enc, maskUtr(utr), t.id, id)
    .run();
}

/** Runs the backfill until it has nothing left (other tests' rows included), at most `max` times. */
async function drain(max = 50) {
  for (let i = 0; i < max; i++) if (!(await runUtrCheckBackfill(env)).more) return;
}

describe("UTRs failing HMRC's check digit are flagged, not rejected", () => {
  it("every write stores the flag: a new subcontractor's valid UTR is checked at once", async () => {
    const { t } = await cisStaff("admin", { settings: {} });
    const sub = await seedSub(t);
    expect(await flagOf(sub.id)).toBe(0);
  });

  it("the backfill checks older rows a slice at a time, flags the invalid ones for the list, and a rerun changes nothing", async () => {
    const { t, b } = await cisStaff("admin", { settings: {} });
    const typo = await seedSub(t, { name: "Typo Builder" });
    const fine = await seedSub(t, { name: "Fine Builder" });
    // Rows other tests left unchecked are checked first, so the slices below see only these two.
    await drain();
    await legacy(t, typo.id, "1234567890");
    await legacy(t, fine.id, "2234567890");
    // One row per run: the first says there is more.
    const first = await runUtrCheckBackfill(env, { limit: 1 });
    expect(first).toMatchObject({ checked: 1, more: true });
    await drain();
    expect(await flagOf(typo.id)).toBe(1);
    expect(await flagOf(fine.id)).toBe(0);
    expect(await runUtrCheckBackfill(env)).toMatchObject({ checked: 0, flagged: 0, more: false });

    const list = await page(await b.get(`${t.origin}/cis/subcontractors`));
    expect(all(list, `[data-row="${typo.id}"] [data-utr-invalid]`).map((e) => e.textContent)).toEqual(["UTR fails HMRC’s check: correct it"]);
    expect(all(list, `[data-row="${fine.id}"] [data-utr-invalid]`)).toHaveLength(0);

    // The subcontractor's own page says it too; a sound UTR's page does not.
    const detail = await page(await b.get(`${t.origin}/cis/subcontractors/${typo.id}`));
    expect(all(detail, "[data-utr-invalid]").map((e) => e.textContent)).toEqual(["UTR fails HMRC’s check: correct it"]);
    const fineDetail = await page(await b.get(`${t.origin}/cis/subcontractors/${fine.id}`));
    expect(all(fineDetail, "[data-utr-invalid]")).toHaveLength(0);
    // The list's filter keeps only the flagged rows, and says which filter is set.
    const flagged = await page(await b.get(`${t.origin}/cis/subcontractors?utr=invalid`));
    expect(all(flagged, "[data-row]").map((r) => r.getAttribute("data-row"))).toEqual([typo.id]);
    expect((flagged.querySelector('select[name="utr"] option[selected]') as HTMLOptionElement | null)?.value).toBe("invalid");
    const unknown = await page(await b.get(`${t.origin}/cis/subcontractors?utr=nonsense`));
    expect(all(unknown, "[data-row]")).toHaveLength(2);

    // Corrected on the form: the flag goes with the new UTR.
    const saved = await b.post(`${t.origin}/cis/subcontractors/${typo.id}/edit`, subForm({ name: "Typo Builder", utr: "5334567890" }));
    expect(saved.status).toBe(302);
    expect(await flagOf(typo.id)).toBe(0);
    const none = await page(await b.get(`${t.origin}/cis/subcontractors?utr=invalid`));
    expect(all(none, "[data-row]")).toHaveLength(0);
  });
});
