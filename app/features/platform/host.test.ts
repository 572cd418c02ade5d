import { describe, expect, it } from "vitest";
import { isValidSlug, resolveHost, tenantOrigin } from "./host";

describe("resolveHost", () => {
  it("takes the first label below APP_DOMAIN as the tenant", () => {
    expect(resolveHost("acme.localhost:5173", "localhost:5173")).toEqual({ kind: "tenant", slug: "acme" });
    expect(resolveHost("acme.localhost", "localhost:5173")).toEqual({ kind: "tenant", slug: "acme" });
    expect(resolveHost("Globex.Example.com", "example.com")).toEqual({ kind: "tenant", slug: "globex" });
  });
  it("serves the public site on the bare domain", () => {
    expect(resolveHost("localhost:5173", "localhost:5173")).toEqual({ kind: "bare" });
    expect(resolveHost("www.example.com", "example.com")).toEqual({ kind: "bare" });
  });
  it("refuses foreign and nested hosts", () => {
    expect(resolveHost("evil.com", "example.com")).toEqual({ kind: "unknown" });
    expect(resolveHost("a.b.example.com", "example.com")).toEqual({ kind: "unknown" });
    expect(resolveHost("notexample.com", "example.com")).toEqual({ kind: "unknown" });
    expect(resolveHost("-bad.example.com", "example.com")).toEqual({ kind: "unknown" });
  });
  it("validates slugs and builds origins", () => {
    expect(isValidSlug("acme")).toBe(true);
    expect(isValidSlug("www")).toBe(false);
    expect(isValidSlug("Acme")).toBe(false);
    expect(tenantOrigin("acme", "localhost:5173", "http:")).toBe("http://acme.localhost:5173");
  });
});
