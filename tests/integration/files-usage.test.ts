import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { USAGE_RECALC_AUDIT, USAGE_RECALC_JOB } from "~/features/files/file-constants";
import { USAGE_RECALC_PAGES_PER_SLICE, usageRecalculateJob } from "~/features/files/usage-recalculation.server";
import { JobContinuation, type JobContext } from "~/features/platform/jobs/registry.server";
import { createUser } from "../factories";
import { withPageKey } from "../factories/submission-keys";
import { filesStaff, uploadOk } from "../factories/files";
import { visit } from "../factories/html";
import { signedIn } from "../factories/sessions";
import { count } from "./auth-helpers";
import { location } from "./http";
import { poll } from "./queue-helpers";

type UsageRow = { used_bytes: number; file_count: number; category_bytes: string; last_calculated: number | null };

async function usageRow(tenantId: string): Promise<UsageRow | null> {
  return env.DB.prepare("SELECT used_bytes, file_count, category_bytes, last_calculated FROM storage_usage WHERE tenant_id = ?")
    .bind(tenantId)
    .first<UsageRow>();
}

/** Makes the running totals wrong, as a failed R2 delete or a hand-made object would over time. */
async function driftUsage(tenantId: string) {
  await env.DB.prepare("UPDATE storage_usage SET used_bytes = 999999, file_count = 42, category_bytes = '{}' WHERE tenant_id = ?").bind(tenantId).run();
}

let seq = 0;
function jobContext(tenantId: string, bucket: R2Bucket = env.FILES): JobContext {
  return {
    env: { ...env, FILES: bucket } as Env,
    jobId: `usage-test-${++seq}`,
    tenantId,
    performedBy: "user-x",
    checkpoint: null,
    async progress() {},
  };
}

describe("full usage recalculation", () => {
  it("rewrites used bytes, file count and categories from what storage holds, for this tenant only, and audits it", async () => {
    // Recalculating needs files.manage_all, which only the admin bundle holds.
    const { t, b } = await filesStaff("admin");
    await uploadOk(b, t, "notes.txt", "hello world");
    await uploadOk(b, t, "report.pdf", "%PDF-1.4 tiny", {}, "application/pdf");
    // Left in storage by a delete whose R2 step failed: the totals never knew about it.
    await env.FILES.put(`tenants/${t.id}/files/orphan-file/v1/original/photo.png`, new Uint8Array(500), { httpMetadata: { contentType: "image/png" } });
    // Another tenant's object and this tenant's non-file objects are not this meter's business.
    await env.FILES.put(`tenants/other-${t.id}/files/x/v1/original/big.bin`, new Uint8Array(7000));
    await env.FILES.put(`tenants/${t.id}/cis/statements/s.pdf`, new Uint8Array(3000));
    await driftUsage(t.id);

    const res = await b.post(`${t.origin}/files/overview`, await withPageKey(b, `${t.origin}/files/overview`, { intent: "recalculate-usage" }));
    expect(res.status).toBe(302);
    expect(location(res)).toBe("/files/overview");
    const done = await poll(async () => {
      const row = await usageRow(t.id);
      return row?.last_calculated ? row : null;
    });
    expect(done.used_bytes).toBe(11 + 13 + 500);
    expect(done.file_count).toBe(3);
    expect(JSON.parse(done.category_bytes)).toEqual({ documents: 11, pdf: 13, images: 500 });
    expect(await count("audit_events", "tenant_id = ? AND action = ?", t.id, USAGE_RECALC_AUDIT)).toBe(1);

    // The job row is marked done after the totals are written; wait for it before reading the page.
    await poll(async () => (await count("jobs", "tenant_id = ? AND type = ? AND status = 'done'", t.id, USAGE_RECALC_JOB)) === 1);
    const { doc } = await visit(b, `${t.origin}/files/overview`);
    expect(doc.querySelector("[data-testid='storage-meter']")?.textContent).toContain("524 B");
    expect(doc.querySelector("[data-testid='usage-calculated']")?.textContent).not.toContain("N/A");
    expect(doc.querySelector("[data-testid='usage-recalculating']")).toBeNull();
  });

  it("walks storage in slices, carrying the totals in the checkpoint, and a redelivery of the last slice audits nothing twice", async () => {
    const { t } = await filesStaff("lead");
    const objects = USAGE_RECALC_PAGES_PER_SLICE + 3;
    for (let i = 0; i < objects; i++) {
      // Two objects per file id for the first pair: a file's versions count as one file.
      const fileId = i < 2 ? "f-shared" : `f-${String(i).padStart(3, "0")}`;
      await env.FILES.put(`tenants/${t.id}/files/${fileId}/v${i + 1}/original/n${i}.txt`, "x".repeat(i + 1), { httpMetadata: { contentType: "text/plain" } });
    }
    // One object per list page, so a slice of USAGE_RECALC_PAGES_PER_SLICE pages cannot finish the walk.
    const onePerPage = new Proxy(env.FILES, {
      get(target, prop) {
        if (prop === "list") return (opts: R2ListOptions) => target.list({ ...opts, limit: 1 });
        const value = Reflect.get(target, prop);
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
    const input = usageRecalculateJob.input.parse({ actorEmail: "lead@example.test" });
    const ctx = jobContext(t.id, onePerPage);
    const first = await usageRecalculateJob.run(input, ctx);
    expect(first).toBeInstanceOf(JobContinuation);
    expect((await usageRow(t.id))?.last_calculated ?? null).toBeNull();

    ctx.checkpoint = (first as JobContinuation).checkpoint;
    const result = await usageRecalculateJob.run(input, ctx);
    const expectedBytes = (objects * (objects + 1)) / 2;
    expect(result).toMatchObject({ usedBytes: expectedBytes, fileCount: objects - 1, objects });
    expect((await usageRow(t.id))?.used_bytes).toBe(expectedBytes);

    // The consumer crashed before marking the job done: the same slice runs again.
    await driftUsage(t.id);
    expect(await usageRecalculateJob.run(input, ctx)).toMatchObject({ usedBytes: expectedBytes, objects });
    expect(await count("audit_events", "tenant_id = ? AND action = ? AND target_id = ?", t.id, USAGE_RECALC_AUDIT, ctx.jobId)).toBe(1);
  });

  it("is refused on the server to anyone who does not manage all files, and a second click while one runs starts nothing", async () => {
    const { t, b } = await filesStaff("admin");
    const member = await createUser(t, { role: "standard" });
    const mb = await signedIn(t, member);
    const page = await visit(mb, `${t.origin}/files/overview`);
    expect(page.doc.querySelector("button[type='submit']")?.textContent ?? "").not.toContain("Recalculate usage");
    expect((await mb.post(`${t.origin}/files/overview`, { intent: "recalculate-usage" })).status).toBe(403);
    expect(await count("jobs", "tenant_id = ? AND type = ?", t.id, USAGE_RECALC_JOB)).toBe(0);

    // A job still pending (its delivery not yet come) counts as running.
    await env.DB.prepare(
      "INSERT INTO jobs (id, tenant_id, type, inputs, status, progress, idempotency_key, performed_by, created_at, updated_at) VALUES (?, ?, ?, '{}', 'pending', 0, ?, NULL, ?, ?)",
    )
      .bind(`pending-${t.id}`, t.id, USAGE_RECALC_JOB, `${USAGE_RECALC_JOB}:after:none`, Date.now(), Date.now())
      .run();
    const again = await b.post(`${t.origin}/files/overview`, await withPageKey(b, `${t.origin}/files/overview`, { intent: "recalculate-usage" }));
    expect(again.status).toBe(302);
    expect(await count("jobs", "tenant_id = ? AND type = ?", t.id, USAGE_RECALC_JOB)).toBe(1);
    const { doc } = await visit(b, `${t.origin}/files/overview`);
    expect(doc.querySelector("[data-testid='usage-recalculating']")?.textContent).toContain("Recalculating storage usage...");
    expect(doc.querySelector("noscript")?.innerHTML).toContain("refresh");
  });
});
