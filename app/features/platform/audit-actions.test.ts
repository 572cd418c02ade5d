import { describe, expect, it } from "vitest";
import type { AuditEntry } from "./audit.server";
import { AUDIT_ACTIONS, auditSentence, isAuditAction, type AuditAction } from "./audit-actions";

const actions = Object.keys(AUDIT_ACTIONS) as AuditAction[];

describe("the audit action registry", () => {
  it("names every action in dotted lower case, area first", () => {
    for (const action of actions) expect(action).toMatch(/^[a-z]+(\.[a-z]+(_[a-z]+)*)+$/);
  });

  it("gives every registered action a sentence template of its own", () => {
    const rendered = new Map<string, AuditAction>();
    for (const action of actions) {
      const template = AUDIT_ACTIONS[action];
      expect(template.trim(), action).not.toBe("");
      expect(template, action).toMatch(/^([A-Z]|\{actor\}|\{target\})/);
      expect(template, action).not.toMatch(/\.$/);
      // Only {actor}, {target} and payload keys in lower camel case; no stray braces.
      expect(template.replace(/\{(actor|target|[a-z][a-zA-Z]*)\}/g, ""), action).not.toMatch(/[{}]/);
      const keys = [...template.matchAll(/\{([a-zA-Z]+)\}/g)].map((m) => m[1]!).filter((k) => k !== "actor" && k !== "target");
      const sentence = auditSentence(action, {
        actor: "Alice Admin",
        target: "invoice HAR-202611-045",
        payload: Object.fromEntries(keys.map((k) => [k, "3"])),
      });
      expect(sentence, action).not.toMatch(/[{}]|not recorded|since deleted|The system/);
      if (!template.startsWith("{actor}")) expect(sentence, action).toMatch(/^[A-Z]/);
      // Two actions with one sentence would read the same in the audit log.
      expect(rendered.get(sentence), `${action} reads like ${rendered.get(sentence)}`).toBeUndefined();
      rendered.set(sentence, action);
    }
  });

  it("fills a sentence with names, payload values and readable stand-ins for what is missing", () => {
    expect(auditSentence("cis.invoice.approved", { actor: "Alice Admin", target: "HAR-202611-045" })).toBe("Alice Admin approved invoice HAR-202611-045");
    expect(auditSentence("files.signature.completed", { actor: "Bob", target: "agreement.pdf" })).toBe("Bob signed agreement.pdf");
    expect(auditSentence("user.role_changed", { actor: "Alice Admin", target: "Bob Builder", payload: { from: "standard", to: "lead" } })).toBe(
      "Alice Admin changed Bob Builder's role from standard to lead",
    );
    expect(auditSentence("files.file.bulk_deleted", { actor: "Alice Admin", payload: { succeeded: ["a", "b"], failed: [] } })).toBe(
      "Alice Admin deleted 2 files at once",
    );
    // A lower-case target opening a sentence gets a capital; an actor's name or address is kept as it is.
    expect(auditSentence("cis.hmrc.failed", { target: "the return for 6 October to 5 November 2026" })).toBe(
      "Sending the return for 6 October to 5 November 2026 to HMRC failed",
    );
    expect(auditSentence("user.password_reset", { target: "bob builder" })).toBe("Bob builder reset their password");
    expect(auditSentence("auth.logout", { actor: "seed@example.test" })).toBe("seed@example.test signed out");
    // No actor: the system at the start of a sentence, someone inside one.
    expect(auditSentence("cis.return.compiled", { target: "the return for 6 October to 5 November 2026" })).toBe(
      "The system compiled the return for 6 October to 5 November 2026",
    );
    expect(auditSentence("files.storage.quota_exceeded", {})).toBe("An upload by someone was refused: the storage quota is full");
    // A target that is gone reads by the name its payload kept, or as gone.
    expect(auditSentence("files.file.deleted", { actor: "Alice Admin", payload: { name: "old.pdf" } })).toBe("Alice Admin deleted old.pdf");
    expect(auditSentence("cis.subcontractor.deleted", { actor: "Alice Admin" })).toBe("Alice Admin deleted subcontractor (since deleted)");
    expect(auditSentence("user.invited", { actor: "Alice Admin", target: "Bob" })).toBe("Alice Admin invited Bob as (not recorded)");
  });

  it("shows an action it does not know in words, with who did it and to what", () => {
    expect(isAuditAction("no.such.action")).toBe(false);
    expect(auditSentence("no.such.action")).toBe("No such action");
    expect(auditSentence("toString")).toBe("Tostring");
    expect(auditSentence("SIGNATURE_STAMPED", { actor: "Alice Admin", target: "agreement.pdf" })).toBe("Signature stamped by Alice Admin: agreement.pdf");
    expect(auditSentence("users.disabled", { actor: "Alice Admin" })).toBe("Users disabled by Alice Admin");
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
