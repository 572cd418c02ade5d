import { describe, expect, it } from "vitest";
import { checkScopeBundles } from "./scope-checklist";

const admin = { name: "admin", scopes: ["cis.manage"] };

describe("checkScopeBundles", () => {
  it("submit without compile is an error", () => {
    const r = checkScopeBundles([admin, { name: "manager", scopes: ["cis.ret.submit"] }]);
    expect(r.errors).toEqual(["Role 'manager': can submit returns (cis.ret.submit) but cannot compile them (cis.ret.compile)"]);
  });

  it("coarse write supplies compile", () => {
    const r = checkScopeBundles([admin, { name: "manager", scopes: ["cis.submit", "cis.write", "cis.read"] }]);
    expect(r.errors).toEqual([]);
  });

  it("settings write without read is an error", () => {
    const r = checkScopeBundles([
      { name: "ops", scopes: ["cis.settings.write"] },
      { name: "lead", scopes: ["cis.submit", "cis.write"] },
    ]);
    expect(r.errors).toEqual(["Role 'ops': can change settings (cis.settings.write) but cannot read them (cis.settings.read)"]);
  });

  it("approve without invoice read is an error", () => {
    const r = checkScopeBundles([admin, { name: "approver", scopes: ["cis.approve"] }]);
    expect(r.errors).toEqual(["Role 'approver': can approve invoices (cis.inv.approve) but cannot read them (cis.inv.read)"]);
    expect(checkScopeBundles([admin, { name: "approver", scopes: ["cis.approve", "cis.read"] }]).errors).toEqual([]);
  });

  it("export without invoice read and return compile is a warning naming what is missing", () => {
    expect(checkScopeBundles([admin, { name: "clerk", scopes: ["cis.export"] }]).warnings).toContain(
      "Role 'clerk': can export data (cis.io.export) without invoice read (cis.inv.read) and return compile (cis.ret.compile)",
    );
    expect(checkScopeBundles([admin, { name: "clerk", scopes: ["cis.io.export", "cis.inv.read"] }]).warnings).toContain(
      "Role 'clerk': can export data (cis.io.export) without return compile (cis.ret.compile)",
    );
    const ok = checkScopeBundles([admin, { name: "clerk", scopes: ["cis.io.export", "cis.inv.read", "cis.ret.compile"] }]);
    expect(ok.warnings.filter((w) => w.includes("clerk"))).toEqual([]);
  });

  it("pay without read is a warning", () => {
    expect(checkScopeBundles([admin, { name: "payer", scopes: ["cis.inv.pay"] }]).warnings).toContain(
      "Role 'payer': can mark invoices paid (cis.inv.pay) but cannot read them (cis.inv.read)",
    );
  });

  it("jobs without audit read is a warning", () => {
    expect(checkScopeBundles([admin, { name: "ops", scopes: ["cis.jobs.run"] }]).warnings).toContain(
      "Role 'ops': can run jobs (cis.jobs.run) but cannot read the audit log (cis.audit.read)",
    );
  });

  it("invoice write plus approve warns about separation of duties", () => {
    const r = checkScopeBundles([admin, { name: "lead", scopes: ["cis.write", "cis.approve", "cis.read"] }]);
    expect(r.warnings).toContain("Role 'lead': can both write (cis.inv.write) and approve (cis.inv.approve) invoices; consider separating these duties");
    expect(r.errors).toEqual([]);
  });

  it("warns when no role can change settings or submit returns", () => {
    const r = checkScopeBundles([{ name: "standard", scopes: ["cis.read"] }]);
    expect(r).toEqual({
      errors: [],
      warnings: ["No role can change CIS settings (cis.settings.write or cis.manage)", "No role can submit returns (cis.ret.submit)"],
    });
    expect(checkScopeBundles([]).warnings).toHaveLength(2);
  });

  it("a manager holding everything satisfies both global checks", () => {
    const r = checkScopeBundles([admin]);
    expect(r.errors).toEqual([]);
    expect(r.warnings).toEqual(["Role 'admin': can both write (cis.inv.write) and approve (cis.inv.approve) invoices; consider separating these duties"]);
  });

  it("wildcards count as everything", () => {
    expect(checkScopeBundles([{ name: "owner", scopes: ["*"] }]).warnings).not.toContain("No role can submit returns (cis.ret.submit)");
  });
});
