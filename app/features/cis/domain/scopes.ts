import { keptPerIsolate } from "~/utils/kept";
import type { ScopeInfo } from "~/features/auth";

/** Every CIS scope: coarse (read, write, approve, import, export, manage) and fine (area.action). */
export const CIS_SCOPES = [
  "cis.read",
  "cis.write",
  "cis.approve",
  "cis.submit",
  "cis.export",
  "cis.import",
  "cis.manage",
  "cis.settings.read",
  "cis.settings.write",
  "cis.pii.unmask",
  "cis.sub.read",
  "cis.sub.write",
  "cis.sub.verify",
  "cis.inv.read",
  "cis.inv.write",
  "cis.inv.approve",
  "cis.inv.pay",
  "cis.stmt.issue",
  "cis.ret.compile",
  "cis.ret.submit",
  "cis.audit.read",
  "cis.io.import",
  "cis.io.export",
  "cis.jobs.run",
  "cis.portal.invite",
] as const;

export type CisScope = (typeof CIS_SCOPES)[number];

/** What the role permissions page shows beside each CIS scope: a name and one line on what it allows. */
export const CIS_SCOPE_INFO: Readonly<Record<CisScope, ScopeInfo>> = {
  "cis.read": { name: "View CIS", description: "See subcontractors, invoices, CIS settings and the CIS audit trail." },
  "cis.write": {
    name: "Work in CIS",
    description: "Add and edit subcontractors and invoices, verify subcontractors, mark invoices paid, issue statements and compile returns.",
  },
  "cis.approve": { name: "Approve in CIS", description: "Approve invoices so that they can be paid (includes Approve invoices)." },
  "cis.submit": { name: "Submit to HMRC", description: "Send compiled monthly returns to HMRC (includes Submit returns)." },
  "cis.export": { name: "Export from CIS", description: "Download invoices, returns and analytics as files (includes Export records)." },
  "cis.import": { name: "Import into CIS", description: "Upload subcontractors and invoices from CSV files (includes Import records)." },
  "cis.manage": {
    name: "Manage CIS",
    description: "Everything in CIS, including settings, role permissions, the HMRC gateway and revealing tax identifiers.",
  },
  "cis.settings.read": { name: "View CIS settings", description: "Read the CIS settings; opening the settings page needs Change CIS settings." },
  "cis.settings.write": { name: "Change CIS settings", description: "Edit the contractor's details, HMRC references and statement options." },
  "cis.pii.unmask": {
    name: "Reveal tax identifiers",
    description: "Show a subcontractor's full UTR and National Insurance number instead of the masked form.",
  },
  "cis.sub.read": { name: "View subcontractors", description: "See subcontractors, their details and verification status." },
  "cis.sub.write": { name: "Edit subcontractors", description: "Add, edit, archive and reactivate subcontractors." },
  "cis.sub.verify": { name: "Verify subcontractors", description: "Verify subcontractors with HMRC to find their deduction rate." },
  "cis.inv.read": { name: "View invoices", description: "See invoices and the deductions on them." },
  "cis.inv.write": { name: "Edit invoices", description: "Create, edit, cancel and delete invoices." },
  "cis.inv.approve": { name: "Approve invoices", description: "Approve invoices so that they can be paid." },
  "cis.inv.pay": { name: "Mark invoices paid", description: "Record an invoice's payment, which puts it in that tax month's return." },
  "cis.stmt.issue": {
    name: "Issue statements",
    description: "Generate payment and deduction statements and send them to subcontractors.",
  },
  "cis.ret.compile": { name: "Compile returns", description: "Build the monthly CIS return from the month's payments." },
  "cis.ret.submit": { name: "Submit returns", description: "Send a compiled monthly return to HMRC." },
  "cis.audit.read": { name: "View the CIS audit trail", description: "Read who did what in CIS; kept for a CIS audit page, which no page needs yet." },
  "cis.io.import": { name: "Import records", description: "Upload subcontractors and invoices from CSV files." },
  "cis.io.export": { name: "Export records", description: "Download invoices, returns and analytics as files." },
  "cis.jobs.run": { name: "Run CIS jobs", description: "Start CIS background work by hand; kept for a jobs page, which no page needs yet." },
  "cis.portal.invite": { name: "Invite to the portal", description: "Send subcontractors a sign-in link to their portal." },
};

/**
 * What each coarse scope stands for, and no more: coarse write does not imply read, and nothing below manage grants
 * settings write, PII unmasking, jobs or portal invites.
 */
export const COARSE_SCOPE_GRANTS: Readonly<Record<string, readonly CisScope[]>> = {
  "cis.read": ["cis.settings.read", "cis.sub.read", "cis.inv.read", "cis.audit.read"],
  "cis.write": ["cis.sub.write", "cis.inv.write", "cis.sub.verify", "cis.inv.pay", "cis.stmt.issue", "cis.ret.compile"],
  "cis.approve": ["cis.inv.approve"],
  "cis.submit": ["cis.ret.submit"],
  "cis.export": ["cis.io.export"],
  "cis.import": ["cis.io.import"],
};

/** Scopes that grant every CIS scope. */
export const CIS_FULL_ACCESS_SCOPES = ["cis.manage", "cis.*", "*"] as const;

/** The held scopes plus everything they imply. Non-CIS scopes pass through untouched. */
export function expandCisScopes(scopes: readonly string[]): Set<string> {
  const expanded = new Set<string>();
  for (const raw of scopes) {
    const scope = raw.trim();
    if (!scope) continue;
    expanded.add(scope);
    if ((CIS_FULL_ACCESS_SCOPES as readonly string[]).includes(scope)) {
      for (const s of CIS_SCOPES) expanded.add(s);
      continue;
    }
    for (const implied of COARSE_SCOPE_GRANTS[scope] ?? []) expanded.add(implied);
  }
  return expanded;
}

// A page asks whether its person may do this or that a dozen times, always with the same list of
// scopes (the session's), and people share a handful of role bundles: each list is expanded once
// per isolate, found by its text. At most 256 kept.
const expandedOf = keptPerIsolate(256, (key: string) => expandCisScopes(JSON.parse(key) as string[]));

/** Whether someone holding `held` may act under `wanted`. */
export function cisScopeGrants(held: readonly string[], wanted: string): boolean {
  return expandedOf(JSON.stringify(held)).has(wanted);
}

export function isCisScope(scope: string): scope is CisScope {
  return (CIS_SCOPES as readonly string[]).includes(scope);
}

/** What the composition root registers with platform auth for CIS. */
export const CIS_SCOPE_REGISTRATION = {
  prefix: "cis.",
  scopes: CIS_SCOPES,
  info: CIS_SCOPE_INFO,
  grants: cisScopeGrants,
  deniedAuditAction: "cis.permission.denied",
} as const;
