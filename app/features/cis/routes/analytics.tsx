import { TBody, TD, TH, THead, TR, Table } from "~/components/ui/table";
import { currentTaxMonth } from "../domain";
import { subcontractorAnalytics } from "../analytics.server";
import { requireCis } from "../module.server";
import type { Route } from "./+types/analytics";

const STATUS_LABEL = { gross: "Gross (0%)", standard: "Standard (20%)", higher: "Higher (30%)" } as const;
const TYPE_LABEL = { individual: "Individual", company: "Company", partnership: "Partnership" } as const;

export async function loader({ request, context }: Route.LoaderArgs) {
  const { env, tenant } = await requireCis(request, context, "cis.read");
  const month = currentTaxMonth(new Date());
  const figures = await subcontractorAnalytics(env, tenant.id, month.start.getTime());
  return { month: month.displayLabel, ...figures };
}

function pct(n: number, of: number): string {
  return of === 0 ? "0%" : `${Math.round((n / of) * 100)}%`;
}

export default function CisAnalytics({ loaderData: d }: Route.ComponentProps) {
  return (
    <div className="space-y-6">
      <div>
        <h2 className="text-2xl font-bold">Analytics</h2>
        <p className="text-sm opacity-70">{`Active subcontractors, as they stand now. Tax month ${d.month}.`}</p>
      </div>
      <div className="grid gap-4 sm:grid-cols-3">
        <Card label="Active subcontractors" value={String(d.active)} />
        <Card label="Verified with HMRC" value={`${d.verified} (${pct(d.verified, d.active)})`} />
        <Card label="Added this tax month" value={String(d.addedThisTaxMonth)} />
      </div>
      <div className="grid gap-6 lg:grid-cols-2">
        <Breakdown
          title="By deduction rate"
          rows={d.byStatus.map((r) => ({ key: r.status, label: STATUS_LABEL[r.status], count: r.count }))}
          total={d.active}
        />
        <Breakdown title="By type" rows={d.byType.map((r) => ({ key: r.type, label: TYPE_LABEL[r.type], count: r.count }))} total={d.active} />
      </div>
      <section className="rounded-brand border border-line bg-elevated p-4" aria-labelledby="coverage-heading">
        <h3 id="coverage-heading" className="font-semibold">
          Portal readiness
        </h3>
        <p className="mt-1 text-sm">{`${d.withEmail} of ${d.active} active subcontractors have an e-mail address and can be invited to the portal.`}</p>
      </section>
      <p className="text-sm opacity-70">
        CIS deducted and gross by tax month and by subcontractor, statements on time and filing history appear here as invoices, statements and returns are
        recorded.
      </p>
    </div>
  );
}

function Card({ label, value }: { label: string; value: string }) {
  return (
    <div className="rounded-brand border border-line bg-elevated p-4">
      <p className="text-sm opacity-70">{label}</p>
      <p className="mt-1 text-2xl font-semibold">{value}</p>
    </div>
  );
}

function Breakdown({ title, rows, total }: { title: string; rows: { key: string; label: string; count: number }[]; total: number }) {
  return (
    <section className="rounded-brand border border-line bg-elevated p-4">
      <h3 className="font-semibold">{title}</h3>
      {total === 0 ? (
        <p className="mt-2 text-sm opacity-70">No active subcontractors yet.</p>
      ) : (
        <Table caption={title} density="compact" scrollClassName="mt-2 overflow-x-auto">
          <THead className="opacity-70">
            <TH>{title.replace(/^By /, "").replace(/^./, (c) => c.toUpperCase())}</TH>
            <TH className="text-right">Subcontractors</TH>
            <TH className="text-right">Share</TH>
          </THead>
          <TBody>
            {rows.map((r) => (
              <TR key={r.key} data-row={r.key}>
                <TD>{r.label}</TD>
                <TD className="text-right">{r.count}</TD>
                <TD className="text-right">{pct(r.count, total)}</TD>
              </TR>
            ))}
          </TBody>
        </Table>
      )}
    </section>
  );
}

export function meta() {
  return [{ title: "CIS Analytics" }];
}
