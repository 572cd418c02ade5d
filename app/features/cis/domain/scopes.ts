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

/** Whether someone holding `held` may act under `wanted`. */
export function cisScopeGrants(held: readonly string[], wanted: string): boolean {
  return expandCisScopes(held).has(wanted);
}

export function isCisScope(scope: string): scope is CisScope {
  return (CIS_SCOPES as readonly string[]).includes(scope);
}

/** What the composition root registers with platform auth for CIS. */
export const CIS_SCOPE_REGISTRATION = {
  prefix: "cis.",
  scopes: CIS_SCOPES,
  grants: cisScopeGrants,
  deniedAuditAction: "cis.permission.denied",
} as const;
