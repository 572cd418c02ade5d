import { StatCards } from "~/components/ui/stat-cards";
import { SelectableTHead, SelectRowCell } from "~/components/ui/row-selection";
import { CELL_CLASS, ROW_CLASS, Table } from "~/components/ui/table";
import { useRowDelegation } from "~/components/ui/row-links";
import type { SubcontractorListItem } from "../subcontractors.server";
import { InviteToPortalButton } from "../../portal-invites/components/invite-to-portal-button";
import { METHOD_LABELS, StatusBadge, STATUS_LABELS, TYPE_LABELS } from "./subcontractor-labels";

export function SummaryCards({ summary }: { summary: { total: number; active: number; gross: number; standard: number } }) {
  const cards = [
    { label: "Total", value: summary.total },
    { label: "Active", value: summary.active },
    { label: "Gross (0%)", value: summary.gross },
    { label: "Standard (20%)", value: summary.standard },
  ];
  return <StatCards cards={cards} />;
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
  // Plain links, forms and cells per row: the body's handlers do what Link and Form would (a list page renders 25 rows on every request).
  const delegate = useRowDelegation();
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
      <tbody onClick={delegate.onClick} onSubmit={delegate.onSubmit}>
        {rows.map((r) => (
          <tr key={r.id} data-row={r.id} className={ROW_CLASS}>
            {perms.canWrite ? (
              <SelectRowCell id={r.id} checked={selected.has(r.id)} onToggle={onToggle} formId={bulkFormId} label={`Select ${r.name}`} />
            ) : null}
            <th scope="row" className={`${CELL_CLASS} font-medium`}>
              <a href={`/cis/subcontractors/${r.id}`} className="text-accent-ink underline-offset-2 hover:underline">
                {r.name}
              </a>
            </th>
            <td className={CELL_CLASS}>{TYPE_LABELS[r.type]}</td>
            <td className={`${CELL_CLASS} font-mono text-xs`}>
              <div>{r.utrMasked ?? "N/A"}</div>
              {r.utrInvalid ? (
                <div className="font-sans font-medium text-danger" data-utr-invalid>
                  UTR fails HMRC&rsquo;s check: correct it
                </div>
              ) : null}
              {r.ninoMasked ? <div className="opacity-70">{r.ninoMasked}</div> : null}
            </td>
            <td className={CELL_CLASS}>
              {r.publicBody ? (
                <div className="text-xs font-medium" data-public-body>
                  Public body
                </div>
              ) : null}
              <div className="font-medium">{`${r.verificationRate}%`}</div>
              <div className="text-xs opacity-70">
                {`${STATUS_LABELS[r.verificationStatus]}${r.verificationMethod ? ` · ${METHOD_LABELS[r.verificationMethod]}` : ""}`}
              </div>
            </td>
            <td className={`${CELL_CLASS} text-xs`}>
              <div>{r.emailMasked || "N/A"}</div>
              {r.phoneMasked ? <div className="opacity-70">{r.phoneMasked}</div> : null}
            </td>
            <td className={CELL_CLASS}>
              <StatusBadge active={r.active} />
            </td>
            <td className={CELL_CLASS}>
              <div className="flex flex-wrap items-center gap-2">
                <a href={`/cis/subcontractors/${r.id}`} className="underline">
                  View Details
                </a>
                {perms.canWrite ? (
                  <a href={`/cis/subcontractors/${r.id}/edit`} className="underline">
                    Edit
                  </a>
                ) : null}
                {perms.canWrite && r.active ? (
                  <form method="post" data-confirm={`Archive ${r.name}? It can be made active again from its form.`}>
                    <input type="hidden" name="intent" value="archive" />
                    <input type="hidden" name="ids" value={r.id} />
                    <input type="hidden" name="confirmed" value="" />
                    <button type="submit" className="underline text-danger">
                      Archive
                    </button>
                  </form>
                ) : null}
                {perms.canInvite && r.hasEmail && r.active ? <InviteToPortalButton subcontractorId={r.id} className="underline" /> : null}
              </div>
            </td>
          </tr>
        ))}
      </tbody>
    </Table>
  );
}
