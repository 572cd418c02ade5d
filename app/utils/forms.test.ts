import { describe, expect, it } from "vitest";
import { formErrorReply, replyField } from "./forms";

describe("replyField: one field of an action's conform reply, read without conform", () => {
  it("gives the field's messages and the value sent, to show again beside the field", () => {
    const reply = {
      status: "error" as const,
      initialValue: { intent: "pay", paymentDate: "2026-02-30" },
      error: { paymentDate: ["Payment date must be a real date"] },
    };
    expect(replyField(reply, "paymentDate")).toEqual({ errors: ["Payment date must be a real date"], value: "2026-02-30" });
  });

  it("has no messages when the reply has none for the field (absent, null or empty) or there is no reply", () => {
    for (const error of [{}, { paymentDate: null }, { paymentDate: [] }, { other: ["Something else"] }] as Record<string, string[] | null>[]) {
      expect(replyField({ status: "error", initialValue: { paymentDate: "2026-01-05" }, error }, "paymentDate")).toEqual({
        errors: undefined,
        value: "2026-01-05",
      });
    }
    expect(replyField(undefined, "paymentDate")).toEqual({ errors: undefined, value: undefined });
    expect(replyField(null, "paymentDate")).toEqual({ errors: undefined, value: undefined });
  });

  it("takes only a single text value as the value sent (not a list or a file), and nothing from a form-level error", () => {
    expect(replyField({ status: "error", initialValue: { paymentDate: ["a", "b"] } }, "paymentDate").value).toBeUndefined();
    expect(replyField({ status: "error", initialValue: null }, "paymentDate").value).toBeUndefined();
    expect(replyField(formErrorReply("The invoice changed"), "paymentDate")).toEqual({ errors: undefined, value: undefined });
  });
});
