import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import { forTenant } from "~/db/tenancy";
import { z } from "zod";
import { dbFor } from "~/db/client.server";
import { cisInvoices } from "~/db/schema";
import { defineJob } from "~/features/platform/index.server";

/** One job per invoice, whoever approves it and however often. */
export function statementJobKey(invoiceId: string): string {
  return `cis.invoice.statement:${invoiceId}`;
}

/**
 * No longer queued: the approval's own batch marks the invoice as needing a payment and
 * deduction statement, and the payment puts it on its tax month's pending statement. The job
 * stays only so that messages queued by earlier approvals still complete: it re-asserts the flag
 * (a no-op for invoices approved since). Running it again changes nothing (the first request
 * time is kept), and an invoice cancelled or deleted since is left alone.
 */
export const statementsGenerateJob = defineJob({
  type: "statements.generate",
  input: z.object({ invoiceId: z.string().min(1) }),
  async run(input, ctx) {
    const res = await dbFor(ctx.env, ctx.tenantId)
      .update(cisInvoices)
      .set({
        statementRequired: true,
        statementRequestedAt: sql`coalesce(${cisInvoices.statementRequestedAt}, ${Date.now()})`,
        statementRequestedBy: sql`coalesce(${cisInvoices.statementRequestedBy}, ${ctx.performedBy})`,
      })
      .where(
        and(
          forTenant(cisInvoices, ctx.tenantId),
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
