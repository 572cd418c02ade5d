import { env } from "cloudflare:workers";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "~/db/client.server";
import { countingD1 } from "~/db/instrument";
import { auditEvents, cisStatementDocuments, cisStatements, cisSubcontractors } from "~/db/schema";
import { invoiceSchema } from "~/features/cis/domain";
import { approveInvoice, markInvoicePaid } from "~/features/cis/invoices/transitions.server";
import { createInvoice } from "~/features/cis/invoices/form.server";
import { statementsGenerateAllJob } from "~/features/cis/statements/jobs.server";
import { statementsPerSlice } from "~/features/cis/statements/slice-budget";
import { generateStatement } from "~/features/cis/statements/statements.server";
import { JOB_DEFINITIONS } from "~/features/platform/jobs/definitions.server";
import { JobContinuation, type JobContext } from "~/features/platform/jobs/registry.server";
import type { TestTenant } from "../factories";
import { cisTenant, seedSub } from "../factories/cis";
import { quietEnv } from "../factories/queues";

/** Statements per slice when none renders a PDF (these tenants have no employer reference). */
const GENERATE_ALL_SLICE = statementsPerSlice(0);

const MONTH = "2026-03";
const ACTOR = { id: "user-batch", email: "batch@example.test", name: "Batch" };

let seq = 0;
async function pendingInvoice(t: TestTenant, subId: string) {
  seq += 1;
  const e = quietEnv();
  const res = await createInvoice(
    e,
    t.id,
    invoiceSchema.parse({ subcontractorId: subId, invoiceNumber: `BJ-${seq}`, invoiceDate: "2026-03-12", grossP: 50_000, materialsP: 0, vatRate: 20 }),
    ACTOR,
  );
  if (!res.ok) throw new Error(res.code);
  expect((await approveInvoice(e, t.id, res.id, ACTOR)).ok).toBe(true);
  expect((await markInvoicePaid(e, t.id, res.id, ACTOR, { paymentDate: "2026-03-12" })).ok).toBe(true);
  return res.id;
}

/** A run of the job as the consumer makes it, recording the progress it reports. */
function context(tenantId: string, onProgress: (pct: number) => Promise<void> = async () => {}) {
  const progress: number[] = [];
  const ctx: JobContext = {
    env,
    jobId: `test-${++seq}`,
    tenantId,
    performedBy: ACTOR.id,
    checkpoint: null,
    async progress(pct) {
      progress.push(pct);
      await onProgress(pct);
    },
  };
  return { ctx, progress };
}

const input = { taxMonth: MONTH, actorEmail: ACTOR.email };

async function count(table: typeof cisStatements | typeof auditEvents, tenantId: string) {
  if (table === cisStatements) return (await getDb(env).select().from(cisStatements).where(eq(cisStatements.tenantId, tenantId))).length;
  return (
    await getDb(env)
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.tenantId, tenantId), eq(auditEvents.action, "cis.statement.generated")))
  ).length;
}

describe("statements.generate-all job", () => {
  it("is registered with the JOBS consumer and refuses an invalid month", () => {
    expect(JOB_DEFINITIONS["statements.generate-all"]).toBe(statementsGenerateAllJob);
    expect(statementsGenerateAllJob.input.safeParse({ taxMonth: "2026-13", actorEmail: ACTOR.email }).success).toBe(false);
    expect(statementsGenerateAllJob.input.safeParse({ taxMonth: MONTH }).success).toBe(false);
  });

  it("generates every pending subcontractor's statement, reporting rising progress below 100, and a rerun generates and audits nothing twice", async () => {
    const t = await cisTenant();
    for (const name of ["Mike Masonry", "November Nails", "Oscar Oak", "Papa Paving"]) await pendingInvoice(t, (await seedSub(t, { name })).id);
    const { ctx, progress } = context(t.id);
    const result = await statementsGenerateAllJob.run(statementsGenerateAllJob.input.parse(input), ctx);
    expect(result).toEqual({ taxMonth: MONTH, total: 4, generated: 4, failed: 0, skipped: 0 });
    // The slice's first statement alone (it measures what one costs), then the other three together.
    expect(progress).toEqual([25, 99]);
    expect(await count(cisStatements, t.id)).toBe(4);
    expect(await count(auditEvents, t.id)).toBe(4);

    // A redelivery (the first run crashed before 'done') finds nothing left to do.
    const again = context(t.id);
    expect(await statementsGenerateAllJob.run(statementsGenerateAllJob.input.parse(input), again.ctx)).toEqual({
      taxMonth: MONTH,
      total: 0,
      generated: 0,
      failed: 0,
      skipped: 0,
    });
    expect(again.progress).toEqual([]);
    expect(await count(cisStatements, t.id)).toBe(4);
    expect(await count(auditEvents, t.id)).toBe(4);
  });

  it("a rerun after a crash part-way generates only the rest", async () => {
    const t = await cisTenant();
    const subs: { id: string }[] = [];
    for (const name of ["Quebec Quarry", "Romeo Roofs", "Sierra Steel"]) {
      const s = await seedSub(t, { name });
      await pendingInvoice(t, s.id);
      subs.push(s);
    }
    // The crashed run had made the first statement.
    expect((await generateStatement(env, t.id, subs[0].id, MONTH, ACTOR)).ok).toBe(true);
    const { ctx } = context(t.id);
    expect(await statementsGenerateAllJob.run(statementsGenerateAllJob.input.parse(input), ctx)).toMatchObject({
      total: 2,
      generated: 2,
      failed: 0,
      skipped: 0,
    });
    expect(await count(cisStatements, t.id)).toBe(3);
    expect(await count(auditEvents, t.id)).toBe(3);
  });

  it("a statement someone else generated while the job ran counts as neither generated nor failed", async () => {
    const t = await cisTenant();
    const subs: { id: string }[] = [];
    for (const name of ["Tango Tiles", "Uniform Underpinning", "Victor Ventilation"]) {
      const s = await seedSub(t, { name });
      await pendingInvoice(t, s.id);
      subs.push(s);
    }
    // After the first statement, a person generates the last one from the page.
    let raced = false;
    const { ctx } = context(t.id, async () => {
      if (raced) return;
      raced = true;
      expect((await generateStatement(env, t.id, subs[2].id, MONTH, ACTOR)).ok).toBe(true);
    });
    expect(await statementsGenerateAllJob.run(statementsGenerateAllJob.input.parse(input), ctx)).toEqual({
      taxMonth: MONTH,
      total: 3,
      generated: 2,
      failed: 0,
      skipped: 1,
    });
    expect(await count(cisStatements, t.id)).toBe(3);
    expect(await count(auditEvents, t.id)).toBe(3);
  });

  it("works in slices: a continuation carries the counts and the failures, and the next slice does the rest without retrying a failure", async () => {
    const t = await cisTenant();
    // First by name, so it fails in the first slice; it stays pending, so only the checkpoint keeps it from being tried again.
    const gone = await seedSub(t, { name: "Aaron Absent" });
    await pendingInvoice(t, gone.id);
    await getDb(env).update(cisSubcontractors).set({ deletedAt: Date.now() }).where(eq(cisSubcontractors.id, gone.id));
    for (let i = 0; i < GENERATE_ALL_SLICE + 1; i++) await pendingInvoice(t, (await seedSub(t, { name: `Slice Builder ${String(i).padStart(2, "0")}` })).id);

    const first = context(t.id);
    const out = await statementsGenerateAllJob.run(statementsGenerateAllJob.input.parse(input), first.ctx);
    expect(out).toBeInstanceOf(JobContinuation);
    const checkpoint = (out as JobContinuation).checkpoint;
    expect(checkpoint).toEqual({ total: GENERATE_ALL_SLICE + 2, generated: GENERATE_ALL_SLICE - 1, failed: 1, skipped: 0, failedIds: [gone.id] });
    expect(first.progress.at(-1)).toBe(Math.floor((GENERATE_ALL_SLICE / (GENERATE_ALL_SLICE + 2)) * 100));
    expect(await count(cisStatements, t.id)).toBe(GENERATE_ALL_SLICE - 1);

    const second = context(t.id);
    second.ctx.checkpoint = checkpoint;
    expect(await statementsGenerateAllJob.run(statementsGenerateAllJob.input.parse(input), second.ctx)).toEqual({
      taxMonth: MONTH,
      total: GENERATE_ALL_SLICE + 2,
      generated: GENERATE_ALL_SLICE + 1,
      failed: 1,
      skipped: 0,
    });
    expect(await count(cisStatements, t.id)).toBe(GENERATE_ALL_SLICE + 1);
  });

  it("stores each new statement's PDF in R2 as it generates it; without the employer reference the statement still stands, its PDF waiting", async () => {
    const t = await cisTenant({ settings: {} });
    await pendingInvoice(t, (await seedSub(t, { name: "Yankee Yards" })).id);
    expect(await statementsGenerateAllJob.run(statementsGenerateAllJob.input.parse(input), context(t.id).ctx)).toMatchObject({ generated: 1 });
    const [made] = await getDb(env).select().from(cisStatements).where(eq(cisStatements.tenantId, t.id));
    expect(made.pdfKey).toBe(`tenants/${t.id}/cis/statements/${made.id}.pdf`);
    const pdf = await env.FILES.get(made.pdfKey!);
    expect(new TextDecoder().decode((await pdf!.arrayBuffer()).slice(0, 5))).toBe("%PDF-");

    const bare = await cisTenant();
    await pendingInvoice(bare, (await seedSub(bare, { name: "Zulu Zinc" })).id);
    expect(await statementsGenerateAllJob.run(statementsGenerateAllJob.input.parse(input), context(bare.id).ctx)).toMatchObject({ generated: 1, failed: 0 });
    const [waiting] = await getDb(env).select().from(cisStatements).where(eq(cisStatements.tenantId, bare.id));
    expect(waiting.pdfKey).toBeNull();
  });

  it("makes the statements after a slice's first together, two D1 round trips a group: each with its audit entry, its frozen document and its PDF", async () => {
    const t = await cisTenant({ settings: {} });
    const names = ["Alpha Asphalt", "Bravo Bricks", "Charlie Concrete", "Delta Drains", "Echo Electrics", "Foxtrot Fencing"];
    for (const name of names) await pendingInvoice(t, (await seedSub(t, { name })).id);
    const counter = countingD1(env.DB);
    const { ctx } = context(t.id);
    ctx.env = { ...env, DB: counter.db };
    expect(await statementsGenerateAllJob.run(statementsGenerateAllJob.input.parse(input), ctx)).toMatchObject({ generated: 6, failed: 0, skipped: 0 });
    // The targets, the first statement alone (generation, sources, freeze), then the other five
    // together (generation with their sources, freeze): one by one it was three a statement.
    expect(counter.queries()).toBe(1 + 3 + 2);
    const made = await getDb(env).select().from(cisStatements).where(eq(cisStatements.tenantId, t.id));
    expect(made.map((s) => s.subcontractorName).sort()).toEqual(names);
    expect(await count(auditEvents, t.id)).toBe(6);
    for (const st of made) {
      expect(st.pdfKey).toBe(`tenants/${t.id}/cis/statements/${st.id}.pdf`);
      const [doc] = await getDb(env).select().from(cisStatementDocuments).where(eq(cisStatementDocuments.statementId, st.id));
      expect(JSON.parse(doc.document).subcontractor.name).toBe(st.subcontractorName);
      expect(doc.utrEnc).toBeTruthy();
      const pdf = await env.FILES.get(st.pdfKey!);
      expect(new TextDecoder().decode((await pdf!.arrayBuffer()).slice(0, 5))).toBe("%PDF-");
    }
  });

  it("works on its own tenant only", async () => {
    const t = await cisTenant();
    const other = await cisTenant();
    await pendingInvoice(t, (await seedSub(t, { name: "Whiskey Walls" })).id);
    await pendingInvoice(other, (await seedSub(other, { name: "Xray Extensions" })).id);
    const { ctx } = context(t.id);
    expect(await statementsGenerateAllJob.run(statementsGenerateAllJob.input.parse(input), ctx)).toMatchObject({ total: 1, generated: 1 });
    expect(await count(cisStatements, other.id)).toBe(0);
  });
});
