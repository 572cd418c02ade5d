import { StatCards } from "~/components/ui/stat-cards";
import { useMemo } from "react";
import { MarkupRows, selectCell } from "~/components/ui/markup-rows";
import { SelectableTHead } from "~/components/ui/row-selection";
import { Table } from "~/components/ui/table";
import { useRowDelegation } from "~/components/ui/row-links";
import type { SubcontractorListItem } from "../subcontractors.server";
import { prefetchInvitePanel, useInviteDialog } from "../../portal-invites/components/invite-to-portal-button";
import { inviteHref } from "../../portal-invites/components/invite-links";
import { markup, type Html } from "~/utils/markup";
import { BADGE_CLASS, METHOD_LABELS, STATUS_LABELS, TYPE_LABELS } from "./subcontractor-labels";

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

/** The page's rows as markup: a link to each subcontractor, the columns, and the actions this user may take. */
export function subcontractorRowsHtml(rows: readonly SubcontractorListItem[], perms: Perms, bulkFormId: string): Html {
  return markup`${rows.map((r) => {
    const detail = `/cis/subcontractors/${r.id}`;
    const method = r.verificationMethod ? ` \u00b7 ${METHOD_LABELS[r.verificationMethod]}` : "";
    const select = perms.canWrite ? selectCell(r.id, bulkFormId, `Select ${r.name}`) : null;
    const utrInvalid = r.utrInvalid
      ? markup`<div class="font-sans font-medium text-danger" data-utr-invalid>UTR fails HMRC&rsquo;s check: correct it</div>`
      : null;
    const nino = r.ninoMasked ? markup`<div class="opacity-70">${r.ninoMasked}</div>` : null;
    const publicBody = r.publicBody ? markup`<div class="text-xs font-medium" data-public-body>Public body</div>` : null;
    const phone = r.phoneMasked ? markup`<div class="opacity-70">${r.phoneMasked}</div>` : null;
    const edit = perms.canWrite ? markup`<a href="${detail}/edit">Edit</a>` : null;
    const archive =
      perms.canWrite && r.active
        ? markup`<button form="${ARCHIVE_FORM}" name="ids" value="${r.id}" data-confirm="${`Archive ${r.name}? It can be made active again from its form.`}" class="text-danger">Archive</button>`
        : null;
    const invite =
      perms.canInvite && r.hasEmail && r.active
        ? markup`<a href="${inviteHref(r.id)}" data-dialog="${r.id}" aria-haspopup="dialog">Invite to Portal</a>`
        : null;
    return markup`<tr data-row="${r.id}">${select}<th scope="row"><a href="${detail}" class="row-link">${r.name}</a></th><td>${TYPE_LABELS[r.type]}</td><td class="font-mono text-xs"><div>${r.utrMasked ?? "N/A"}</div>${utrInvalid}${nino}</td><td>${publicBody}<div class="font-medium">${r.verificationRate}%</div><div class="cell-note">${STATUS_LABELS[r.verificationStatus]}${method}</div></td><td class="text-xs"><div>${r.emailMasked || "N/A"}</div>${phone}</td><td><span class="${r.active ? BADGE_CLASS.active : BADGE_CLASS.archived}">${r.active ? "Active" : "Archived"}</span></td><td><div class="row-acts"><a href="${detail}">View Details</a>${edit}${archive}${invite}</div></td></tr>`;
  })}`;
}

/**
 * The subcontractor table. Row checkboxes belong to the bulk form by its id, and each row's
 * Archive button to one archive form beside the table (forms cannot nest). 'Select all' posts
 * the page's ids, so it works without JavaScript too.
 */
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
  // The rows are markup (subcontractorRowsHtml): the body's handlers do what Link and Form would (a list page renders 25 rows on every request).
  // One invite dialog for the whole table: a row's 'Invite to Portal' is a plain link to the invite
  // page (what happens without JavaScript) carrying its subcontractor's id in data-dialog.
  const invite = useInviteDialog();
  const delegate = useRowDelegation(invite.open);
  // Pointing at or focusing the table starts loading the invite form, for someone who may invite.
  const prefetch = perms.canInvite ? prefetchInvitePanel : undefined;
  const { canWrite, canInvite } = perms;
  const markup = useMemo(() => subcontractorRowsHtml(rows, { canWrite, canInvite }, bulkFormId), [rows, canWrite, canInvite, bulkFormId]);
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
        <MarkupRows
          rows={markup}
          selected={perms.canWrite ? selected : undefined}
          onToggle={perms.canWrite ? onToggle : undefined}
          onClick={delegate.onClick}
          onMouseOver={prefetch}
          onFocus={prefetch}
        />
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
