import { describe, expect, it } from "vitest";
import { CIS_SCOPES, cisScopeGrants, expandCisScopes } from "./scopes";

describe("CIS_SCOPES", () => {
  it("lists every CIS scope once", () => {
    expect(CIS_SCOPES).toHaveLength(25);
    expect(new Set(CIS_SCOPES).size).toBe(25);
    expect(CIS_SCOPES).toContain("cis.portal.invite");
    expect(CIS_SCOPES).toContain("cis.pii.unmask");
  });
});

describe("expandCisScopes", () => {
  it.each(["cis.manage", "cis.*", "*"])("%s grants every CIS scope", (scope) => {
    const s = expandCisScopes([scope]);
    for (const c of CIS_SCOPES) expect(s.has(c)).toBe(true);
  });

  it("coarse read", () => {
    expect([...expandCisScopes(["cis.read"])].sort()).toEqual(["cis.audit.read", "cis.inv.read", "cis.read", "cis.settings.read", "cis.sub.read"].sort());
  });

  it("coarse write", () => {
    expect([...expandCisScopes(["cis.write"])].sort()).toEqual(
      ["cis.write", "cis.sub.write", "cis.inv.write", "cis.sub.verify", "cis.inv.pay", "cis.stmt.issue", "cis.ret.compile"].sort(),
    );
  });

  it.each([
    ["cis.approve", "cis.inv.approve"],
    ["cis.submit", "cis.ret.submit"],
    ["cis.export", "cis.io.export"],
    ["cis.import", "cis.io.import"],
  ])("%s grants %s", (coarse, fine) => {
    expect(cisScopeGrants([coarse], fine)).toBe(true);
  });

  it("grants nothing beyond the spec", () => {
    expect(cisScopeGrants(["cis.write"], "cis.settings.write")).toBe(false);
    expect(cisScopeGrants(["cis.write"], "cis.inv.read")).toBe(false);
    expect(cisScopeGrants(["cis.read"], "cis.pii.unmask")).toBe(false);
    expect(cisScopeGrants(["cis.approve"], "cis.inv.read")).toBe(false);
    expect(cisScopeGrants(["cis.inv.read"], "cis.read")).toBe(false);
    expect(cisScopeGrants(["files.*"], "cis.read")).toBe(false);
    expect(cisScopeGrants([], "cis.read")).toBe(false);
  });

  it("keeps what was held, including other modules' scopes", () => {
    const s = expandCisScopes(["files.read", " cis.inv.read ", ""]);
    expect(s.has("files.read")).toBe(true);
    expect(s.has("cis.inv.read")).toBe(true);
    expect(s.has("")).toBe(false);
  });
});

describe("cisScopeGrants", () => {
  it("answers for the list asked about, also when lists are asked about again or changed", () => {
    const reader = ["cis.read"];
    const admin = ["cis.manage"];
    for (let i = 0; i < 3; i++) {
      expect(cisScopeGrants(reader, "cis.inv.read")).toBe(true);
      expect(cisScopeGrants(reader, "cis.inv.write")).toBe(false);
      expect(cisScopeGrants(admin, "cis.inv.write")).toBe(true);
    }
    reader.push("cis.write");
    expect(cisScopeGrants(reader, "cis.inv.write")).toBe(true);
    // Lists that read alike when joined are still different lists.
    expect(cisScopeGrants(["cis.read\ncis.manage"], "cis.inv.write")).toBe(false);
    for (let i = 0; i < 300; i++) expect(cisScopeGrants([`other.${i}`, "cis.read"], "cis.inv.write")).toBe(false);
    expect(cisScopeGrants(admin, "cis.settings.write")).toBe(cisScopeGrants(["cis.*"], "cis.settings.write"));
  });
});
