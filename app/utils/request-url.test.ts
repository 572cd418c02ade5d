import { describe, expect, it } from "vitest";
import { pageUrl } from "./request-url";

describe("pageUrl", () => {
  it("drops the .data suffix React Router adds to data requests", () => {
    const u = pageUrl(new Request("http://acme.localhost:5173/cis/subcontractors.data?status=archived&page=2"));
    expect(u.pathname + u.search).toBe("/cis/subcontractors?status=archived&page=2");
  });
  it("maps the root data request back to /", () => {
    expect(pageUrl(new Request("http://acme.localhost:5173/_root.data")).pathname).toBe("/");
  });
  it("removes _routes and the empty index param but keeps the user's query", () => {
    const u = pageUrl(new Request("http://x.test/cis.data?q=roof&_routes=routes%2Fcis&index"));
    expect(u.pathname + u.search).toBe("/cis?q=roof");
  });
  it("leaves a plain page request alone", () => {
    const u = pageUrl(new Request("http://x.test/cis/settings?tab=roles"));
    expect(u.pathname + u.search).toBe("/cis/settings?tab=roles");
  });
});
