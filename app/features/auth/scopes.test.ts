import { describe, expect, it } from "vitest";
import { CIS_SCOPE_REGISTRATION } from "~/features/cis/domain/scopes";
import { DEFAULT_ROLE_BUNDLES } from "./default-bundles";
import { can, createScopeRegistry, deniedAuditAction, scopeGrants, scopeInfo } from "./scopes";

describe("scope registry", () => {
  it("does not grant a scope of a feature nobody registered, whatever is held", () => {
    const registry = createScopeRegistry();
    expect(registry.grants(["cis.read"], "cis.read")).toBe(false);
    expect(registry.grants(["cis.*"], "cis.sub.read")).toBe(false);
    expect(registry.grants(["*"], "cis.manage")).toBe(false);
    // The platform's own scopes need no registration.
    expect(registry.grants(["users.view"], "users.view")).toBe(true);
  });

  it("grants a registered feature's scopes exactly, by wildcard, and through its coarse-to-fine implications", () => {
    const registry = createScopeRegistry();
    registry.register(CIS_SCOPE_REGISTRATION);
    expect(registry.grants(["cis.sub.read"], "cis.sub.read")).toBe(true);
    expect(registry.grants(["cis.*"], "cis.inv.approve")).toBe(true);
    expect(registry.grants(["*"], "cis.pii.unmask")).toBe(true);
    expect(registry.grants(["cis.read"], "cis.sub.read")).toBe(true);
    expect(registry.grants(["cis.read"], "cis.sub.write")).toBe(false);
    expect(registry.grants(["cis.write"], "cis.stmt.issue")).toBe(true);
    expect(registry.grants(["cis.manage"], "cis.inv.approve")).toBe(true);
    expect(registry.grants(["cis.approve"], "cis.inv.pay")).toBe(false);
  });

  it("refuses a name the owning feature does not define, even to '*'", () => {
    const registry = createScopeRegistry();
    registry.register(CIS_SCOPE_REGISTRATION);
    expect(registry.grants(["*"], "cis.sub.raed")).toBe(false);
    expect(registry.grants(["*"], "nosuch.scope")).toBe(false);
  });

  it("matches platform families and wildcards, and nothing that merely shares a prefix", () => {
    const registry = createScopeRegistry();
    expect(registry.grants(["files.*"], "files.upload")).toBe(true);
    expect(registry.grants(["files.*"], "filesystem.x")).toBe(false);
    expect(registry.grants(["files.*"], "files.signatures.sign")).toBe(true);
    expect(registry.grants(["files.view"], "files.upload")).toBe(false);
  });

  it("refuses a registration whose scopes stray outside its prefix or that claims a platform family", () => {
    const registry = createScopeRegistry();
    expect(() => registry.register({ prefix: "hr.", scopes: ["hr.read", "cis.read"], info: {} })).toThrow(/outside hr\./);
    expect(() => registry.register({ prefix: "files.", scopes: ["files.x"], info: {} })).toThrow(/platform/);
  });

  it("refuses a registration that leaves a scope without a name or description", () => {
    const registry = createScopeRegistry();
    const named = { name: "Read HR records", description: "See the HR records." };
    expect(() => registry.register({ prefix: "hr.", scopes: ["hr.read", "hr.write"], info: { "hr.read": named } })).toThrow(
      "Scopes without a name and description: hr.write",
    );
    expect(() => registry.register({ prefix: "hr.", scopes: ["hr.read"], info: { "hr.read": { name: "Read HR records", description: " " } } })).toThrow(
      "Scopes without a name and description: hr.read",
    );
    registry.register({ prefix: "hr.", scopes: ["hr.read"], info: { "hr.read": named } });
    expect(registry.info("hr.read")).toEqual(named);
    expect(registry.info("hr.nosuch")).toBeNull();
  });

  it("names the audit action of a refusal by the scope's owner", () => {
    const registry = createScopeRegistry();
    registry.register(CIS_SCOPE_REGISTRATION);
    expect(registry.deniedAuditAction("cis.sub.write")).toBe("cis.permission.denied");
    expect(registry.deniedAuditAction("users.manage")).toBe("auth.scope.denied");
  });
});

describe("the application's registry (app/scopes.ts)", () => {
  it("has CIS registered once the composition root is loaded", async () => {
    await import("~/scopes");
    expect(scopeGrants(["cis.read"], "cis.sub.read")).toBe(true);
    expect(can({ tenantId: "t", scopes: ["cis.manage"] }, "cis.inv.approve")).toBe(true);
    expect(deniedAuditAction("cis.manage")).toBe("cis.permission.denied");
  });

  it("gives every registered scope, and every scope a default role holds, a name and a one-line description", async () => {
    const { FEATURE_SCOPES } = await import("~/scopes");
    const registry = createScopeRegistry();
    for (const registration of FEATURE_SCOPES) registry.register(registration);
    const scopes = new Set([...registry.known(), ...Object.values(DEFAULT_ROLE_BUNDLES).flat()]);
    expect(scopes.size).toBeGreaterThan(60);
    const names = new Map<string, string>();
    for (const scope of scopes) {
      const info = registry.info(scope);
      expect(info, scope).not.toBeNull();
      expect(info!.name, scope).toMatch(/^[A-Z][^\n]*[^.]$/);
      expect(info!.description, scope).toMatch(/^[A-Z][^\n]*\.$/);
      expect(info!.name, scope).not.toBe(scope);
      // Two permissions with one name could not be told apart on the roles page.
      expect(names.get(info!.name), `${scope} and ${names.get(info!.name)}`).toBeUndefined();
      names.set(info!.name, scope);
      // The application's registry answers the same.
      expect(scopeInfo(scope)).toEqual(info);
    }
  });

  it("lets only system. scopes pass without a tenant", () => {
    expect(can({ tenantId: null, scopes: ["*"] }, "notes.view")).toBe(false);
    expect(can({ tenantId: null, scopes: ["system.tenants.modules"] }, "system.tenants.modules")).toBe(true);
    expect(can({ tenantId: null, scopes: ["system.superadmin"] }, "system.tenants.modules")).toBe(false);
  });

  it("types scope names: a typo does not compile", () => {
    const user = { tenantId: "t", scopes: ["cis.read"] };
    expect(can(user, "cis.sub.read")).toBe(true);
    // @ts-expect-error misspelt CIS scope
    expect(can(user, "cis.sub.raed")).toBe(false);
    // @ts-expect-error misspelt platform scope
    expect(can(user, "user.view")).toBe(false);
  });
});
