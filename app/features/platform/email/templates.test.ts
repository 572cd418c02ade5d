import { describe, expect, it } from "vitest";
import { renderTemplate } from "./templates";

describe("e-mail templates", () => {
  it("renders a text and an HTML body, escaping data in HTML", () => {
    const m = renderTemplate("portal.invite", {
      recipientName: "Sam <script>",
      subcontractorName: "Sam Builds",
      contractorName: "Acme",
      magicLink: "https://acme.example.com/portal/auth?token=x",
      expiresIn: "15 minutes",
    });
    expect(m.subject).toContain("Acme");
    expect(m.text).toContain("https://acme.example.com/portal/auth?token=x");
    expect(m.html).toContain("Sam &lt;script&gt;");
    expect(m.html).not.toContain("<script>");
  });
  it("refuses bad data and unknown templates", () => {
    expect(() => renderTemplate("auth.login-code", { code: "12", tenantName: "A", expiresInMinutes: 10 })).toThrow();
    expect(() => renderTemplate("nope", {})).toThrow(/Unknown/);
  });
});
