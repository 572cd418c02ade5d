/**
 * Recent Activity on the CIS dashboard: which audit entries it shows, who may see each, and the
 * sentence each becomes ("Alice Admin approved invoice HAR-202611-045"). Pure: the rows come from
 * activity.server.ts, already joined to the names they mention.
 */
import type { AuditAction } from "~/features/platform";
import type { CisScope } from "../domain/scopes";
import { isTaxMonthLabel, taxMonthFromLabel } from "../domain/tax-month";

/** How many entries the dashboard shows. */
export const RECENT_ACTIVITY_LIMIT = 10;

/**
 * The audit actions Recent Activity shows, each with the scope that lets the viewer see it: the
 * scope of the page its link opens, so an entry never names what its viewer could not read there.
 * Bulk entries are left out: each invoice of a bulk action has its own entry.
 */
export const ACTIVITY_SCOPES = {
  "cis.invoice.approved": "cis.inv.read",
  "cis.invoice.paid": "cis.inv.read",
  "cis.statement.generated": "cis.inv.read",
  "cis.statement.sent": "cis.inv.read",
  "cis.return.compiled": "cis.read",
  "cis.return.submitted": "cis.read",
  "cis.subcontractor.created": "cis.sub.read",
  "cis.subcontractor.verified": "cis.sub.read",
  "cis.settings.updated": "cis.settings.read",
} as const satisfies Partial<Record<AuditAction, CisScope>>;

export type ActivityAction = keyof typeof ACTIVITY_SCOPES;

/** The actions a viewer may see, given a scope check (auth's `can` for the signed-in user). */
export function visibleActivityActions(may: (scope: CisScope) => boolean): ActivityAction[] {
  return (Object.keys(ACTIVITY_SCOPES) as ActivityAction[]).filter((action) => may(ACTIVITY_SCOPES[action]));
}

/** One audit entry as the query returns it: the entry and the names of what it is about. */
export type ActivityRow = {
  id: string;
  action: string;
  at: number;
  targetId: string | null;
  /** The actor's display name now; null when the entry has no actor or the account is gone. */
  actorName: string | null;
  /** The actor's personal data has been erased. */
  actorErased: boolean;
  invoiceNumber: string | null;
  /** The subcontractor the entry is about: the invoice's, the statement's or the subcontractor itself. */
  subcontractorName: string | null;
  /** The subcontractor (or the invoice's subcontractor) is deleted: its page no longer opens. */
  subcontractorGone: boolean;
  /** The tax month 'YYYY-MM' of a statement or return entry. */
  taxMonth: string | null;
  /** A verification entry's status (gross, standard, higher). */
  verificationStatus: string | null;
};

/** A sentence: the actor, what they did, and the thing it was done to (a link when it has a page). */
export type ActivityItem = {
  id: string;
  actor: string;
  verb: string;
  object: { label: string; href: string | null } | null;
  /** Words after the object: the subcontractor, the rate. */
  rest: string;
  at: number;
};

const RATE_WORDS: Readonly<Record<string, string>> = {
  gross: "for gross payment (0%)",
  standard: "at the standard rate (20%)",
  higher: "at the higher rate (30%)",
};

function actorOf(row: ActivityRow): string {
  if (row.actorErased) return "A former user";
  return row.actorName ?? "The system";
}

function monthWords(taxMonth: string | null): string | null {
  return isTaxMonthLabel(taxMonth) ? taxMonthFromLabel(taxMonth).displayLabel : null;
}

/** The sentence of one row, or null for an action Recent Activity does not show. */
export function activitySentence(row: ActivityRow): ActivityItem | null {
  const base = { id: row.id, actor: actorOf(row), at: row.at };
  const sub = row.subcontractorName;
  const from = sub ? ` from ${sub}` : "";
  const month = monthWords(row.taxMonth);
  const statementsHref = row.taxMonth && isTaxMonthLabel(row.taxMonth) ? `/cis/statements?month=${row.taxMonth}` : "/cis/statements";
  const returnsHref = row.taxMonth && isTaxMonthLabel(row.taxMonth) ? `/cis/returns?month=${row.taxMonth}` : "/cis/returns";
  const invoice = { label: row.invoiceNumber ?? "an invoice", href: row.targetId && row.invoiceNumber ? `/cis/invoices/${row.targetId}` : null };
  const subcontractor = { label: sub ?? "a subcontractor", href: row.targetId && sub && !row.subcontractorGone ? `/cis/subcontractors/${row.targetId}` : null };
  switch (row.action as ActivityAction) {
    case "cis.invoice.approved":
      return { ...base, verb: "approved invoice", object: invoice, rest: from };
    case "cis.invoice.paid":
      return { ...base, verb: "recorded payment of invoice", object: invoice, rest: from };
    case "cis.statement.generated":
      return {
        ...base,
        verb: "generated the statement for",
        object: { label: sub ?? "a subcontractor", href: statementsHref },
        rest: month ? `, ${month}` : "",
      };
    case "cis.statement.sent":
      return { ...base, verb: "issued the statement for", object: { label: sub ?? "a subcontractor", href: statementsHref }, rest: month ? `, ${month}` : "" };
    case "cis.return.compiled":
      return { ...base, verb: "compiled the return for", object: { label: month ?? "a tax month", href: returnsHref }, rest: "" };
    case "cis.return.submitted":
      return { ...base, verb: "submitted the return for", object: { label: month ?? "a tax month", href: returnsHref }, rest: "" };
    case "cis.subcontractor.created":
      return { ...base, verb: "added subcontractor", object: subcontractor, rest: "" };
    case "cis.subcontractor.verified": {
      const rate = row.verificationStatus ? RATE_WORDS[row.verificationStatus] : undefined;
      return { ...base, verb: "verified", object: subcontractor, rest: rate ? ` ${rate}` : "" };
    }
    case "cis.settings.updated":
      return { ...base, verb: "updated the", object: { label: "CIS settings", href: null }, rest: "" };
    default:
      return null;
  }
}

/** The whole sentence as plain text (for a screen reader's summary and the tests). */
export function activityText(item: ActivityItem): string {
  return `${item.actor} ${item.verb}${item.object ? ` ${item.object.label}` : ""}${item.rest}`;
}
