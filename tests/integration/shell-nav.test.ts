import { describe, expect, it } from "vitest";
import { createTenant } from "../factories";
import { cisStaff } from "../factories/cis";
import { all, parseHtml } from "../factories/html";

describe("the shell's module navigation", () => {
  it("marks the module of the page (and its sub-pages) as the current page, and no other", async () => {
    const t = await createTenant({ modules: ["cis", "files"] });
    const { b } = await cisStaff("admin", { tenant: t });
    for (const [path, current] of [
      ["/cis/subcontractors", "/cis"],
      ["/cis", "/cis"],
      ["/files/all", "/files"],
      ["/welcome", null],
    ] as const) {
      const res = await b.get(`${t.origin}${path}`);
      expect(res.status, path).toBe(200);
      const links = all(parseHtml(await res.text()), '[aria-label="Modules"] a');
      expect(links.map((a) => a.getAttribute("href")).sort(), path).toEqual(["/cis", "/files"]);
      for (const a of links) {
        const isCurrent = a.getAttribute("href") === current;
        expect(a.getAttribute("aria-current"), `${path} ${a.getAttribute("href")}`).toBe(isCurrent ? "page" : null);
        expect((a.getAttribute("class") ?? "").includes("bg-accent"), `${path} ${a.getAttribute("href")}`).toBe(isCurrent);
      }
    }
  });
});
