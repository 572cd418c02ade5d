import { StatCards } from "~/components/ui/stat-cards";
import { SelectableTHead, SelectRowCell } from "~/components/ui/row-selection";
import { Form, Link } from "react-router";
import { TBody, TD, TH, TR, Table } from "~/components/ui/table";
import type { SubcontractorListItem } from "../subcontractors.server";
import { InviteToPortalButton } from "../../portal-invites/components/invite-to-portal-button";
import { confirmThenSubmit } from "~/components/ui/confirm-then-submit";

export const TYPE_LABELS = { individual: "Individual", company: "Company", partnership: "Partnership" } as const;
export const STATUS_LABELS = { gross: "Gross", standard: "Standard", higher: "Higher" } as const;
export const METHOD_LABELS = { online: "Online", phone: "Phone", letter: "Letter" } as const;

export function SummaryCards({ summary }: { summary: { total: number; active: number; gross: number; standard: number } }) {
  const cards = [
    { label: "Total", value: summary.total },
    { label: "Active", value: summary.active },
    { label: "Gross (0%)", value: summary.gross },
    { label: "Standard (20%)", value: summary.standard },
  ];
  return <StatCards cards={cards} />;
}

export function StatusBadge({ active }: { active: boolean }) {
  return (
    <span className={`rounded-full px-2 py-0.5 text-xs font-medium ${active ? "bg-success/15" : "bg-surface opacity-80"}`}>
      {active ? "Active" : "Archived"}
    </span>
  );
}

type Perms = { canWrite: boolean; canInvite: boolean };

/**
 * The subcontractor table. Row checkboxes belong to the bulk form by its id (forms cannot nest,
 * and each row carries its own Archive form). 'Select all' posts the page's ids, so it works
 * without JavaScript too.
 */
// eslint-disable-next-line max-lines-per-function -- one table: the header and the row share the column choices and sort state
export function SubcontractorTable({
  rows,
  perms,
  bulkFormId,
  selected,
  onToggle,
  onToggleAll,
}: {
  rows: SubcontractorListItem[];
  perms: Perms;
  bulkFormId: string;
  selected: Set<string>;
  onToggle: (id: string, on: boolean) => void;
  onToggleAll: (on: boolean) => void;
}) {
  return (
    <Table caption="Subcontractors" scrollClassName="overflow-x-auto rounded-brand border border-line">
      <SelectableTHead
        selectable={perms.canWrite}
        rowIds={rows.map((r) => r.id)}
        selected={selected}
        onToggleAll={onToggleAll}
        formId={bulkFormId}
        selectAllLabel="Select all subcontractors on this page"
        columns={["Subcontractor", "Type", "UTR / NINO", "Verification", "Contact", "Status", "Actions"]}
      />
      <TBody>
        {rows.map((r) => (
          <TR key={r.id} data-row={r.id}>
            {perms.canWrite ? (
              <SelectRowCell id={r.id} checked={selected.has(r.id)} onToggle={onToggle} formId={bulkFormId} label={`Select ${r.name}`} />
            ) : null}
            <TH scope="row">
              <Link to={`/cis/subcontractors/${r.id}`} className="text-accent-ink underline-offset-2 hover:underline">
                {r.name}
              </Link>
            </TH>
            <TD>{TYPE_LABELS[r.type]}</TD>
            <TD className="font-mono text-xs">
              <div>{r.utrMasked ?? "N/A"}</div>
              {r.utrInvalid ? (
                <div className="font-sans font-medium text-danger" data-utr-invalid>
                  UTR fails HMRC&rsquo;s check: correct it
                </div>
              ) : null}
              {r.ninoMasked ? <div className="opacity-70">{r.ninoMasked}</div> : null}
            </TD>
            <TD>
              {r.publicBody ? (
                <div className="text-xs font-medium" data-public-body>
                  Public body
                </div>
              ) : null}
              <div className="font-medium">{`${r.verificationRate}%`}</div>
              <div className="text-xs opacity-70">
                {`${STATUS_LABELS[r.verificationStatus]}${r.verificationMethod ? ` · ${METHOD_LABELS[r.verificationMethod]}` : ""}`}
              </div>
            </TD>
            <TD className="text-xs">
              <div>{r.emailMasked || "N/A"}</div>
              {r.phoneMasked ? <div className="opacity-70">{r.phoneMasked}</div> : null}
            </TD>
            <TD>
              <StatusBadge active={r.active} />
            </TD>
            <TD>
              <div className="flex flex-wrap items-center gap-2">
                <Link to={`/cis/subcontractors/${r.id}`} className="underline">
                  View Details
                </Link>
                {perms.canWrite ? (
                  <Link to={`/cis/subcontractors/${r.id}/edit`} className="underline">
                    Edit
                  </Link>
                ) : null}
                {perms.canWrite && r.active ? (
                  <Form method="post" onSubmit={confirmThenSubmit(() => `Archive ${r.name}? It can be made active again from its form.`)}>
                    <input type="hidden" name="intent" value="archive" />
                    <input type="hidden" name="ids" value={r.id} />
                    <input type="hidden" name="confirmed" value="" />
                    <button type="submit" className="underline text-danger">
                      Archive
                    </button>
                  </Form>
                ) : null}
                {perms.canInvite && r.hasEmail && r.active ? <InviteToPortalButton subcontractorId={r.id} className="underline" /> : null}
              </div>
            </TD>
          </TR>
        ))}
      </TBody>
    </Table>
  );
}
