import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import { z } from "zod";
import { getDb } from "~/db/client.server";
import { cisInvoices } from "~/db/schema";
import { defineJob } from "~/features/platform/index.server";

/** One job per invoice, whoever approves it and however often. */
export function statementJobKey(invoiceId: string): string {
  return `cis.invoice.statement:${invoiceId}`;
}

/**
 * Queued when an invoice with a deduction is approved. The approval's own batch already marks the
 * invoice as needing a payment and deduction statement, so nothing the law depends on waits for
 * this job: it only re-asserts the flag (a no-op for invoices approved since), and stays so that
 * messages queued before the approval set it still complete. Running it again changes nothing
 * (the first request time is kept), and an invoice cancelled or deleted since is left alone.
 */
export const statementsGenerateJob = defineJob({
  type: "statements.generate",
  input: z.object({ invoiceId: z.string().min(1) }),
  async run(input, ctx) {
    const res = await getDb(ctx.env)
      .update(cisInvoices)
      .set({
        statementRequired: true,
        statementRequestedAt: sql`coalesce(${cisInvoices.statementRequestedAt}, ${Date.now()})`,
        statementRequestedBy: sql`coalesce(${cisInvoices.statementRequestedBy}, ${ctx.performedBy})`,
      })
      .where(
        and(
          eq(cisInvoices.tenantId, ctx.tenantId),
          eq(cisInvoices.id, input.invoiceId),
          inArray(cisInvoices.status, ["approved", "paid"]),
          isNull(cisInvoices.deletedAt),
        ),
      )
      .returning({ id: cisInvoices.id });
    await ctx.progress(100);
    return { invoiceId: input.invoiceId, flagged: res.length > 0 };
  },
});
