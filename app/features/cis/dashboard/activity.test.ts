import { describe, expect, it } from "vitest";
import { activitySentence, activityText, visibleActivityActions, type ActivityRow } from "./activity";

const row = (over: Partial<ActivityRow>): ActivityRow => ({
  id: "a1",
  action: "cis.invoice.approved",
  at: 0,
  targetId: "inv_1",
  actorName: "Alice Admin",
  actorErased: false,
  invoiceNumber: "HAR-202611-045",
  subcontractorName: "Dan Murphy",
  subcontractorGone: false,
  taxMonth: null,
  verificationStatus: null,
  ...over,
});

describe("Recent Activity sentences", () => {
  it("names the actor and the invoice, linking to it", () => {
    const item = activitySentence(row({}))!;
    expect(activityText(item)).toBe("Alice Admin approved invoice HAR-202611-045 from Dan Murphy");
    expect(item.object).toEqual({ label: "HAR-202611-045", href: "/cis/invoices/inv_1" });
  });

  it("says 'A former user' for an erased actor and 'The system' for none", () => {
    expect(activitySentence(row({ actorErased: true, actorName: "Gone" }))!.actor).toBe("A former user");
    expect(activitySentence(row({ actorName: null }))!.actor).toBe("The system");
  });

  it("names a statement's or return's tax month and links to that month", () => {
    const stmt = activitySentence(row({ action: "cis.statement.sent", targetId: "st_1", invoiceNumber: null, taxMonth: "2026-10" }))!;
    expect(activityText(stmt)).toBe("Alice Admin issued the statement for Dan Murphy, 6 October to 5 November 2026");
    expect(stmt.object?.href).toBe("/cis/statements?month=2026-10");
    const ret = activitySentence(row({ action: "cis.return.submitted", targetId: "r_1", invoiceNumber: null, subcontractorName: null, taxMonth: "2026-10" }))!;
    expect(activityText(ret)).toBe("Alice Admin submitted the return for 6 October to 5 November 2026");
    expect(ret.object?.href).toBe("/cis/returns?month=2026-10");
  });

  it("does not link to a deleted subcontractor, and words the verified rate", () => {
    const gone = activitySentence(
      row({ action: "cis.subcontractor.verified", targetId: "sub_1", invoiceNumber: null, subcontractorGone: true, verificationStatus: "gross" }),
    )!;
    expect(activityText(gone)).toBe("Alice Admin verified Dan Murphy for gross payment (0%)");
    expect(gone.object?.href).toBeNull();
  });

  it("shows nothing for an action it does not describe", () => {
    expect(activitySentence(row({ action: "cis.pii.revealed" }))).toBeNull();
  });

  it("offers only the actions whose page the viewer may read", () => {
    expect(visibleActivityActions((scope) => ["cis.read", "cis.settings.read"].includes(scope))).toEqual([
      "cis.return.compiled",
      "cis.return.submitted",
      "cis.settings.updated",
    ]);
    expect(visibleActivityActions((scope) => scope === "cis.sub.read")).toEqual(["cis.subcontractor.created", "cis.subcontractor.verified"]);
    expect(visibleActivityActions(() => false)).toEqual([]);
  });
});
