import { expandCisScopes } from "./scopes";

export interface ScopeBundle {
  name: string;
  scopes: string[];
}

export interface ScopeChecklist {
  errors: string[];
  warnings: string[];
}

/**
 * The settings screen's Scope Checklist. Each bundle is
 * judged on its expanded scopes, so 'cis.write' counts as holding
 * cis.ret.compile and 'cis.manage' as holding everything.
 */
export function checkScopeBundles(bundles: readonly ScopeBundle[]): ScopeChecklist {
  const errors: string[] = [];
  const warnings: string[] = [];
  let anyoneWritesSettings = false;
  let anyoneSubmits = false;

  for (const bundle of bundles) {
    const has = expandCisScopes(bundle.scopes);
    const role = `Role '${bundle.name}'`;

    if (has.has("cis.ret.submit") && !has.has("cis.ret.compile")) {
      errors.push(`${role}: can submit returns (cis.ret.submit) but cannot compile them (cis.ret.compile)`);
    }
    if (has.has("cis.settings.write") && !has.has("cis.settings.read")) {
      errors.push(`${role}: can change settings (cis.settings.write) but cannot read them (cis.settings.read)`);
    }
    if (has.has("cis.inv.approve") && !has.has("cis.inv.read")) {
      errors.push(`${role}: can approve invoices (cis.inv.approve) but cannot read them (cis.inv.read)`);
    }

    if (has.has("cis.io.export")) {
      const missing = [
        has.has("cis.inv.read") ? null : "invoice read (cis.inv.read)",
        has.has("cis.ret.compile") ? null : "return compile (cis.ret.compile)",
      ].filter((s): s is string => s !== null);
      if (missing.length > 0) {
        warnings.push(`${role}: can export data (cis.io.export) without ${missing.join(" and ")}`);
      }
    }
    if (has.has("cis.inv.pay") && !has.has("cis.inv.read")) {
      warnings.push(`${role}: can mark invoices paid (cis.inv.pay) but cannot read them (cis.inv.read)`);
    }
    if (has.has("cis.jobs.run") && !has.has("cis.audit.read")) {
      warnings.push(`${role}: can run jobs (cis.jobs.run) but cannot read the audit log (cis.audit.read)`);
    }
    if (has.has("cis.inv.write") && has.has("cis.inv.approve")) {
      warnings.push(`${role}: can both write (cis.inv.write) and approve (cis.inv.approve) invoices; consider separating these duties`);
    }

    if (has.has("cis.settings.write") || has.has("cis.manage")) anyoneWritesSettings = true;
    if (has.has("cis.ret.submit")) anyoneSubmits = true;
  }

  if (!anyoneWritesSettings) {
    warnings.push("No role can change CIS settings (cis.settings.write or cis.manage)");
  }
  if (!anyoneSubmits) {
    warnings.push("No role can submit returns (cis.ret.submit)");
  }
  return { errors, warnings };
}
