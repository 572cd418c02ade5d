import type { ReactNode } from "react";
import { Form } from "react-router";
import { buttonClass } from "~/components/ui/button";
import { EmptyRow, TBody, TD, TH, THead, TR, Table } from "~/components/ui/table";
import { can } from "~/features/auth";
import { formatDate, formatDateTime } from "~/utils/dates";
import { formatPence } from "../domain/money";
import { FILING_LABELS, materialsShare } from "../analytics/analytics-codes";
import { cisAnalytics } from "../analytics/analytics.server";
import { BarChart, compactPounds, HorizontalBarChart, shortMonth } from "../analytics/components/analytics-charts";
import { requireModule } from "~/features/auth/index.server";
import type { Route } from "./+types/analytics";

const STATUS_LABEL = { gross: "Gross (0%)", standard: "Standard (20%)", higher: "Higher (30%)" } as const;
const TYPE_LABEL = { individual: "Individual", company: "Company", partnership: "Partnership" } as const;

export async function loader({ request, context }: Route.LoaderArgs) {
  const { env, tenant, user } = await requireModule(request, context, { module: "cis", scope: "cis.read" });
  const figures = await cisAnalytics(env, tenant.id);
  return { ...figures, canExport: can(user, "cis.io.export") && can(user, "cis.inv.read") };
}

function pct(n: number, of: number): string {
  return of === 0 ? "0%" : `${Math.round((n / of) * 100)}%`;
}

const countAxis = (n: number) => (Number.isInteger(n) ? String(n) : "");

export default function CisAnalytics({ loaderData: d }: Route.ComponentProps) {
  const statementsTotal = d.months.reduce((a, m) => a + m.statements.onTime + m.statements.late + m.statements.notIssued, 0);
  const onTime = d.months.reduce((a, m) => a + m.statements.onTime, 0);
  return (
    <div className="space-y-6">
      <div>
        <h2 className="text-2xl font-bold">Analytics</h2>
        <p className="text-sm opacity-70">{`Paid invoices, statements and returns of the last 12 tax months, up to ${d.currentMonth}.`}</p>
      </div>
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        <Card id="gross" label="Gross paid (12 months)" value={formatPence(d.totals.grossP)} />
        <Card id="cis" label="CIS deducted (12 months)" value={formatPence(d.totals.cisP)} />
        <Card id="materials" label="Materials share" value={materialsShare(d.totals.materialsP, d.totals.grossP)} />
        <Card id="statements" label="Statements issued on time" value={statementsTotal === 0 ? "N/A" : `${onTime} of ${statementsTotal}`} />
      </div>
      <ByMonthPanel d={d} />
      <BySubcontractorPanel d={d} />
      <StatementsPanel d={d} total={statementsTotal} onTime={onTime} />
      <FilingPanel d={d} />
      <SubcontractorBase s={d.subcontractors} />
    </div>
  );
}

type Data = Route.ComponentProps["loaderData"];

/** Gross and CIS deducted by tax month: chart and table. */
function ByMonthPanel({ d }: { d: Data }) {
  const hasPayments = d.totals.invoices > 0;
  return (
    <Panel id="by-month" title="Gross and CIS deducted by tax month">
      {hasPayments ? (
        <BarChart
          id="by-month-chart"
          title={`Gross paid and CIS deducted by tax month, last 12 tax months: ${formatPence(d.totals.grossP)} gross, ${formatPence(d.totals.cisP)} CIS deducted`}
          categories={d.months.map((m) => shortMonth(m.label))}
          series={[
            { key: "gross", label: "Gross", className: "fill-accent" },
            { key: "cis", label: "CIS deducted", className: "fill-danger" },
          ]}
          values={[d.months.map((m) => m.grossP), d.months.map((m) => m.cisP)]}
          format={formatPence}
          axisFormat={compactPounds}
        />
      ) : (
        <p className="text-sm opacity-70">No paid invoices in the last 12 tax months.</p>
      )}
      <Table caption="Gross, materials and CIS deducted by tax month" density="compact" scrollClassName="mt-2 overflow-x-auto">
        <THead className="opacity-70">
          <TH>Tax month</TH>
          <TH className="text-right">Invoices</TH>
          <TH className="text-right">Gross</TH>
          <TH className="text-right">Materials</TH>
          <TH className="text-right">Materials share</TH>
          <TH className="text-right">CIS deducted</TH>
        </THead>
        <TBody>
          {d.months.map((m) => (
            <TR key={m.label} data-month={m.label}>
              <TD>{m.displayLabel}</TD>
              <TD className="text-right">{m.invoices}</TD>
              <TD className="text-right">{formatPence(m.grossP)}</TD>
              <TD className="text-right">{formatPence(m.materialsP)}</TD>
              <TD className="text-right">{materialsShare(m.materialsP, m.grossP)}</TD>
              <TD className="text-right">{formatPence(m.cisP)}</TD>
            </TR>
          ))}
        </TBody>
      </Table>
    </Panel>
  );
}

/** The ten subcontractors with the most CIS deducted, with the CSV export of all of them. */
function BySubcontractorPanel({ d }: { d: Data }) {
  const hasPayments = d.totals.invoices > 0;
  return (
    <Panel
      id="by-subcontractor"
      title="Top 10 subcontractors by CIS deducted"
      action={
        d.canExport && hasPayments ? (
          <Form method="post" action="/cis/analytics/subcontractors.csv" reloadDocument>
            <button type="submit" className={buttonClass("secondary")}>
              Export CSV (all subcontractors)
            </button>
          </Form>
        ) : null
      }
    >
      {hasPayments ? (
        <HorizontalBarChart
          id="by-subcontractor-chart"
          title={`CIS deducted by subcontractor, top ${d.topSubcontractors.length}, last 12 tax months`}
          rows={d.topSubcontractors.map((r) => ({ key: r.subcontractorId, label: r.name, value: r.cisP }))}
          format={formatPence}
          className="fill-danger"
        />
      ) : null}
      <Table caption="Top 10 subcontractors by CIS deducted, last 12 tax months" density="compact" scrollClassName="mt-2 overflow-x-auto">
        <THead className="opacity-70">
          <TH>Subcontractor</TH>
          <TH className="text-right">Invoices</TH>
          <TH className="text-right">Gross</TH>
          <TH className="text-right">Materials share</TH>
          <TH className="text-right">CIS deducted</TH>
        </THead>
        <TBody>
          {d.topSubcontractors.length === 0 ? (
            <EmptyRow colSpan={5}>No subcontractors paid in the last 12 tax months.</EmptyRow>
          ) : (
            d.topSubcontractors.map((r) => (
              <TR key={r.subcontractorId} data-subcontractor={r.subcontractorId}>
                <TD>{r.name}</TD>
                <TD className="text-right">{r.invoices}</TD>
                <TD className="text-right">{formatPence(r.grossP)}</TD>
                <TD className="text-right">{materialsShare(r.materialsP, r.grossP)}</TD>
                <TD className="text-right">{formatPence(r.cisP)}</TD>
              </TR>
            ))
          )}
        </TBody>
      </Table>
    </Panel>
  );
}

/** Statements issued on time, late or not at all, by tax month. */
function StatementsPanel({ d, total, onTime }: { d: Data; total: number; onTime: number }) {
  return (
    <Panel id="statements" title="Statements issued on time">
      <p className="text-sm opacity-70">A statement is on time when it is issued by the 19th after its tax month ends.</p>
      {total > 0 ? (
        <BarChart
          id="statements-chart"
          title={`Statements by tax month: ${onTime} of ${total} issued on time`}
          categories={d.months.map((m) => shortMonth(m.label))}
          series={[
            { key: "on-time", label: "On time", className: "fill-success" },
            { key: "late", label: "Late", className: "fill-danger" },
            { key: "not-issued", label: "Not issued", className: "fill-line" },
          ]}
          values={[d.months.map((m) => m.statements.onTime), d.months.map((m) => m.statements.late), d.months.map((m) => m.statements.notIssued)]}
          format={String}
          axisFormat={countAxis}
          stacked
        />
      ) : (
        <p className="text-sm opacity-70">No statements generated in the last 12 tax months.</p>
      )}
      <Table caption="Statements by tax month: issued on time, late, not issued" density="compact" scrollClassName="mt-2 overflow-x-auto">
        <THead className="opacity-70">
          <TH>Tax month</TH>
          <TH className="text-right">On time</TH>
          <TH className="text-right">Late</TH>
          <TH className="text-right">Not issued</TH>
        </THead>
        <TBody>
          {d.months.map((m) => (
            <TR key={m.label} data-statements={m.label}>
              <TD>{m.displayLabel}</TD>
              <TD className="text-right">{m.statements.onTime}</TD>
              <TD className="text-right">{m.statements.late}</TD>
              <TD className="text-right">{m.statements.notIssued}</TD>
            </TR>
          ))}
        </TBody>
      </Table>
    </Panel>
  );
}

/** Each month's return against its filing deadline. */
function FilingPanel({ d }: { d: Data }) {
  const filed = d.months.filter((m) => m.filing.state === "on_time" || m.filing.state === "late");
  return (
    <Panel id="filing" title="Filing history">
      <p className="text-sm opacity-70">
        {`${filed.filter((m) => m.filing.state === "on_time").length} of ${filed.length} returns filed were on time. A return is due by the 19th after its tax month ends.`}
      </p>
      <Table caption="Monthly return filing by tax month" density="compact" scrollClassName="mt-2 overflow-x-auto">
        <THead className="opacity-70">
          <TH>Tax month</TH>
          <TH>Filing deadline</TH>
          <TH>Submitted</TH>
          <TH>Filing</TH>
        </THead>
        <TBody>
          {d.months.map((m) => (
            <TR key={m.label} data-filing={m.label}>
              <TD>{m.displayLabel}</TD>
              <TD>{formatDate(m.filing.deadline)}</TD>
              <TD>{formatDateTime(m.filing.submittedAt)}</TD>
              <TD>
                <span className={m.filing.state === "late" || m.filing.state === "not_filed" ? "font-semibold text-danger" : ""}>
                  {FILING_LABELS[m.filing.state]}
                </span>
              </TD>
            </TR>
          ))}
        </TBody>
      </Table>
    </Panel>
  );
}

/** The subcontractor base as it stands: counts, breakdowns and portal readiness. */
function SubcontractorBase({ s }: { s: Data["subcontractors"] }) {
  return (
    <>
      <div className="grid gap-4 sm:grid-cols-3">
        <Card id="active" label="Active subcontractors" value={String(s.active)} />
        <Card id="verified" label="Verified with HMRC" value={`${s.verified} (${pct(s.verified, s.active)})`} />
        <Card id="added" label="Added this tax month" value={String(s.addedThisTaxMonth)} />
      </div>
      <div className="grid gap-6 lg:grid-cols-2">
        <Breakdown
          title="By deduction rate"
          rows={s.byStatus.map((r) => ({ key: r.status, label: STATUS_LABEL[r.status], count: r.count }))}
          total={s.active}
        />
        <Breakdown title="By type" rows={s.byType.map((r) => ({ key: r.type, label: TYPE_LABEL[r.type], count: r.count }))} total={s.active} />
      </div>
      <section className="rounded-brand border border-line bg-elevated p-4" aria-labelledby="coverage-heading">
        <h3 id="coverage-heading" className="font-semibold">
          Portal readiness
        </h3>
        <p className="mt-1 text-sm">{`${s.withEmail} of ${s.active} active subcontractors have an e-mail address and can be invited to the portal.`}</p>
      </section>
    </>
  );
}

function Panel({ id, title, action, children }: { id: string; title: string; action?: ReactNode; children: ReactNode }) {
  return (
    <section className="rounded-brand border border-line bg-elevated p-4" aria-labelledby={`${id}-heading`} data-panel={id}>
      <div className="mb-2 flex flex-wrap items-center justify-between gap-2">
        <h3 id={`${id}-heading`} className="font-semibold">
          {title}
        </h3>
        {action}
      </div>
      <div className="space-y-2">{children}</div>
    </section>
  );
}

function Card({ id, label, value }: { id: string; label: string; value: string }) {
  return (
    <div className="rounded-brand border border-line bg-elevated p-4" data-card={id}>
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
