import { maskEmail } from "~/features/cis/index.server";
import { portalHomeData } from "~/features/cis/index.server";
import { formatPence } from "~/features/cis";
import { taxMonthFromLabel } from "~/features/cis";
import { formatDate, formatDateTime } from "~/utils/dates";
import { moduleOn } from "~/features/auth/index.server";
import { statusLabel } from "~/features/files";
import { TableScroll } from "~/components/ui/table";
import { PortalErrorBoundary, PortalShell } from "../components/portal-shell";
import { requirePortalModule } from "../portal-auth.server";
import { requirePortalSession } from "../portal-session.server";
import { PortalInvoiceTable } from "../components/portal-invoices";
import { PortalTableHead } from "../components/portal-table";
import { portalInvoiceItem } from "../portal-invoices-view.server";
import type { Route } from "./+types/home";

const TYPE_LABELS = { individual: "Individual", company: "Company", partnership: "Partnership" } as const;
const STATUS_LABELS = { gross: "Gross", standard: "Standard", higher: "Higher" } as const;

/**
 * The signed-in subcontractor's own page. The subcontractor comes from the portal session only;
 * identifiers leave the server masked.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { env, ctx, tenant } = requirePortalModule(context);
  const { subcontractor: s } = await requirePortalSession(env, ctx, request, tenant.id);
  // Contractor name and statements in one D1 round trip.
  const { contractorName, statements, recentInvoices, signatureRequests } = await portalHomeData(env, tenant, s.id);
  return {
    contractorName,
    me: {
      name: s.name,
      type: TYPE_LABELS[s.type],
      utrMasked: s.utrMasked,
      identifier: s.type === "individual" ? { label: "National Insurance Number", value: s.ninoMasked } : { label: "Company Number", value: s.companyNumber },
      verificationStatus: STATUS_LABELS[s.verificationStatus],
      verificationRate: s.verificationRate,
      verifiedDate: formatDate(s.verifiedDate),
      emailMasked: s.email ? maskEmail(s.email) : null,
    },
    invoices: recentInvoices.map(portalInvoiceItem),
    // Signature requests live in Files: without that module their pages are not there.
    signatures: moduleOn(tenant, "files")
      ? signatureRequests.map((r) => ({ id: r.id, fileName: r.fileName, status: statusLabel(r), pending: r.status === "pending", createdAt: r.createdAt }))
      : [],
    statements: statements.map((st) => ({
      id: st.id,
      period: taxMonthFromLabel(st.taxMonth).displayLabel,
      invoiceCount: st.invoiceCount,
      gross: formatPence(st.grossP),
      materials: formatPence(st.materialsP),
      cisDeduction: formatPence(st.cisDeductionP),
      issued: st.issuedAt === null ? "N/A" : formatDate(st.issuedAt),
    })),
  };
}

export default function PortalHome({ loaderData }: Route.ComponentProps) {
  const { me, contractorName } = loaderData;
  return (
    <PortalShell contractorName={contractorName} signedIn>
      <h1 className="text-2xl font-bold" data-testid="portal-subcontractor">
        {me.name}
      </h1>
      <p className="mt-1 text-sm opacity-70">{`Your details as held by ${contractorName}`}</p>

      <section aria-labelledby="details-heading" className="mt-6 rounded-brand border border-line bg-elevated p-5">
        <h2 id="details-heading" className="text-lg font-semibold">
          Your details
        </h2>
        <dl className="mt-4 grid gap-x-6 gap-y-3 text-sm sm:grid-cols-2">
          <Item label="Name" value={me.name} />
          <Item label="Type" value={me.type} />
          <Item label="UTR" value={me.utrMasked} />
          <Item label={me.identifier.label} value={me.identifier.value} />
          <Item label="Verification" value={`${me.verificationStatus} (${me.verificationRate}%)`} />
          <Item label="Verified" value={me.verifiedDate} />
          <Item label="Contact e-mail" value={me.emailMasked} />
        </dl>
        <p className="mt-4 text-xs opacity-70">{`Identifiers are shown masked. If something is wrong, contact ${contractorName}.`}</p>
      </section>

      <SignaturesSection signatures={loaderData.signatures} />

      <section aria-labelledby="invoices-heading" className="mt-6 rounded-brand border border-line bg-elevated p-5">
        <div className="flex flex-wrap items-center justify-between gap-3">
          <h2 id="invoices-heading" className="text-lg font-semibold">
            Invoices
          </h2>
          <p className="flex gap-4 text-sm">
            <a href="/portal/invoices" className="underline">
              All your invoices
            </a>
            <a href="/portal/invoices/new" className="underline">
              Submit an invoice
            </a>
          </p>
        </div>
        {loaderData.invoices.length === 0 ? (
          <p className="mt-3 text-sm opacity-80">No invoices yet</p>
        ) : (
          <PortalInvoiceTable invoices={loaderData.invoices} caption="Your latest invoices" />
        )}
      </section>

      <StatementsSection statements={loaderData.statements} />
    </PortalShell>
  );
}

type HomeData = Route.ComponentProps["loaderData"];

function SignaturesSection({ signatures }: { signatures: HomeData["signatures"] }) {
  if (signatures.length === 0) return null;
  return (
    <section aria-labelledby="signatures-heading" className="mt-6 rounded-brand border border-line bg-elevated p-5">
      <h2 id="signatures-heading" className="text-lg font-semibold">
        Documents to sign
      </h2>
      <ul className="mt-3 space-y-2 text-sm">
        {signatures.map((r) => (
          <li key={r.id} className="flex flex-wrap items-baseline justify-between gap-2">
            <a href={`/portal/signatures/${r.id}`} className="font-medium underline">
              {r.pending ? `Review and sign ${r.fileName}` : r.fileName}
            </a>
            <span className="opacity-70">{`${r.status} · asked ${formatDateTime(r.createdAt)}`}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}

function StatementsSection({ statements }: { statements: HomeData["statements"] }) {
  return (
    <section aria-labelledby="statements-heading" className="mt-6 rounded-brand border border-line bg-elevated p-5">
      <h2 id="statements-heading" className="text-lg font-semibold">
        Statements
      </h2>
      {statements.length === 0 ? (
        <p className="mt-3 text-sm opacity-80">No statements yet</p>
      ) : (
        <TableScroll captionId="statements-caption" className="mt-3 overflow-x-auto">
          <table className="w-full text-left text-sm" data-testid="portal-statements">
            <caption id="statements-caption" className="sr-only">
              Your CIS payment and deduction statements
            </caption>
            <PortalTableHead
              columns={[
                { label: "Tax month" },
                { label: "CIS deducted", numeric: true },
                { label: "Gross", numeric: true },
                { label: "Materials", numeric: true },
                { label: "Invoices", numeric: true },
                { label: "Issued" },
              ]}
              linkColumn="Download"
            />
            <tbody>
              {statements.map((st) => (
                <tr key={st.id} className="border-t border-line" data-statement-id={st.id}>
                  <td className="py-2 pr-4">{st.period}</td>
                  <td className="py-2 pr-4 text-right">{st.cisDeduction}</td>
                  <td className="py-2 pr-4 text-right">{st.gross}</td>
                  <td className="py-2 pr-4 text-right">{st.materials}</td>
                  <td className="py-2 pr-4 text-right">{st.invoiceCount}</td>
                  <td className="py-2 pr-4">{st.issued}</td>
                  <td className="py-2">
                    <a href={`/portal/statements/${st.id}.pdf`} download className="underline">
                      {`Download PDF`}
                      <span className="sr-only">{` for ${st.period}`}</span>
                    </a>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
    </section>
  );
}

function Item({ label, value }: { label: string; value: string | null }) {
  return (
    <div>
      <dt className="font-medium opacity-70">{label}</dt>
      <dd className="mt-0.5">{value || "N/A"}</dd>
    </div>
  );
}

export function meta({ loaderData }: Route.MetaArgs) {
  return [{ title: loaderData ? `Portal · ${loaderData.contractorName}` : "Subcontractor portal" }];
}

export function ErrorBoundary() {
  return <PortalErrorBoundary />;
}
