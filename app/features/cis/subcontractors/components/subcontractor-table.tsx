import { StatCards } from "~/components/ui/stat-cards";
import { SelectableTHead, SelectRowCell } from "~/components/ui/row-selection";
import { Table } from "~/components/ui/table";
import { useRowDelegation } from "~/components/ui/row-links";
import type { SubcontractorListItem } from "../subcontractors.server";
import { prefetchInvitePanel, useInviteDialog } from "../../portal-invites/components/invite-to-portal-button";
import { inviteHref } from "../../portal-invites/components/invite-links";
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

const ARCHIVE_FORM = "subcontractor-archive";

/**
 * The subcontractor table. Row checkboxes belong to the bulk form by its id, and each row's
 * Archive button to one archive form beside the table (forms cannot nest). 'Select all' posts
 * the page's ids, so it works without JavaScript too.
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
  // One invite dialog for the whole table: a row's 'Invite to Portal' is a plain link to the invite
  // page (what happens without JavaScript) carrying its subcontractor's id in data-dialog.
  const invite = useInviteDialog();
  const delegate = useRowDelegation(invite.open);
  // Pointing at or focusing the table starts loading the invite form, for someone who may invite.
  const prefetch = perms.canInvite ? prefetchInvitePanel : undefined;
  return (
    <>
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
        <tbody className="rows" onClick={delegate.onClick} onMouseOver={prefetch} onFocus={prefetch}>
          {rows.map((r) => (
            <tr key={r.id} data-row={r.id}>
              {perms.canWrite ? (
                <SelectRowCell bare id={r.id} checked={selected.has(r.id)} onToggle={onToggle} formId={bulkFormId} label={`Select ${r.name}`} />
              ) : null}
              <th scope="row">
                <a href={`/cis/subcontractors/${r.id}`} className="row-link">
                  {r.name}
                </a>
              </th>
              <td>{TYPE_LABELS[r.type]}</td>
              <td className="font-mono text-xs">
                <div>{r.utrMasked ?? "N/A"}</div>
                {r.utrInvalid ? (
                  <div className="font-sans font-medium text-danger" data-utr-invalid>
                    UTR fails HMRC&rsquo;s check: correct it
                  </div>
                ) : null}
                {r.ninoMasked ? <div className="opacity-70">{r.ninoMasked}</div> : null}
              </td>
              <td>
                {r.publicBody ? (
                  <div className="text-xs font-medium" data-public-body>
                    Public body
                  </div>
                ) : null}
                <div className="font-medium">{`${r.verificationRate}%`}</div>
                <div className="cell-note">
                  {`${STATUS_LABELS[r.verificationStatus]}${r.verificationMethod ? ` · ${METHOD_LABELS[r.verificationMethod]}` : ""}`}
                </div>
              </td>
              <td className="text-xs">
                <div>{r.emailMasked || "N/A"}</div>
                {r.phoneMasked ? <div className="opacity-70">{r.phoneMasked}</div> : null}
              </td>
              <td>
                <StatusBadge active={r.active} />
              </td>
              <td>
                <div className="row-acts">
                  <a href={`/cis/subcontractors/${r.id}`}>View Details</a>
                  {perms.canWrite ? <a href={`/cis/subcontractors/${r.id}/edit`}>Edit</a> : null}
                  {perms.canWrite && r.active ? (
                    <button
                      form={ARCHIVE_FORM}
                      name="ids"
                      value={r.id}
                      data-confirm={`Archive ${r.name}? It can be made active again from its form.`}
                      className="text-danger"
                    >
                      Archive
                    </button>
                  ) : null}
                  {perms.canInvite && r.hasEmail && r.active ? (
                    <a href={inviteHref(r.id)} data-dialog={r.id} aria-haspopup="dialog">
                      Invite to Portal
                    </a>
                  ) : null}
                </div>
              </td>
            </tr>
          ))}
        </tbody>
      </Table>
      {/* The rows' Archive buttons post this one form (their `form` attribute) with their row's id. */}
      {perms.canWrite ? (
        <form id={ARCHIVE_FORM} method="post" onSubmit={delegate.onSubmit}>
          <input type="hidden" name="intent" value="archive" />
          <input type="hidden" name="confirmed" value="" />
        </form>
      ) : null}
      {invite.dialog}
    </>
  );
}
