import { describe, expect, it } from "vitest";
import type { AuditEntry } from "./audit.server";
import { AUDIT_ACTIONS, auditSentence, isAuditAction, type AuditAction } from "./audit-actions";

const actions = Object.keys(AUDIT_ACTIONS) as AuditAction[];

describe("the audit action registry", () => {
  it("names every action in dotted lower case, area first", () => {
    for (const action of actions) expect(action).toMatch(/^[a-z]+(\.[a-z]+(_[a-z]+)*)+$/);
  });

  it("gives every registered action a sentence of its own", () => {
    for (const action of actions) {
      const sentence = AUDIT_ACTIONS[action];
      expect(sentence.trim(), action).not.toBe("");
      expect(sentence, action).toMatch(/^[A-Z]/);
      expect(sentence, action).not.toMatch(/\.$/);
      expect(auditSentence(action)).toBe(sentence);
    }
    // Two actions with one sentence would read the same in the audit log.
    expect(new Set(Object.values(AUDIT_ACTIONS)).size).toBe(actions.length);
  });

  it("shows an action it does not know as stored", () => {
    expect(isAuditAction("no.such.action")).toBe(false);
    expect(auditSentence("no.such.action")).toBe("no.such.action");
    expect(auditSentence("toString")).toBe("toString");
  });

  it("accepts only registered actions in an audit entry (a typecheck guarantee)", () => {
    const good: AuditEntry["action"] = "cis.invoice.approved";
    // @ts-expect-error an unregistered action does not compile
    const typo: AuditEntry["action"] = "cis.invoice.aproved";
    // @ts-expect-error nor does the old upper-case style for anything but the files area's legacy names
    const shouting: AuditEntry["action"] = "INVOICE_APPROVED";
    expect([good, typo, shouting]).toHaveLength(3);
  });
});
