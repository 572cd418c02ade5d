import { describe, expect, it } from "vitest";
import { INVOICE_STATUSES, type InvoiceStatus } from "../domain";
import { INVOICE_ACTIONS, startsFrom, type InvoiceAction } from "./rules";

/** Every action against every status: true where the action may start. */
const TABLE: Record<InvoiceAction, Record<InvoiceStatus, boolean>> = {
  approve: { draft: true, portal_draft: true, approved: false, paid: false, cancelled: false },
  reject: { draft: false, portal_draft: true, approved: false, paid: false, cancelled: false },
  pay: { draft: false, portal_draft: false, approved: true, paid: false, cancelled: false },
  cancel: { draft: true, portal_draft: true, approved: true, paid: false, cancelled: false },
  delete: { draft: true, portal_draft: true, approved: false, paid: false, cancelled: true },
  statement: { draft: false, portal_draft: false, approved: false, paid: true, cancelled: false },
};

describe("startsFrom", () => {
  it("the table covers every action and every status", () => {
    expect(Object.keys(TABLE).sort()).toEqual([...INVOICE_ACTIONS].sort());
    for (const action of INVOICE_ACTIONS) expect(Object.keys(TABLE[action]).sort(), action).toEqual([...INVOICE_STATUSES].sort());
  });

  for (const action of INVOICE_ACTIONS) {
    for (const status of INVOICE_STATUSES) {
      const expected = TABLE[action][status];
      it(`${action} from ${status}: ${expected ? "starts" : "refused"}`, () => {
        expect(startsFrom(action, status)).toBe(expected);
      });
    }
  }
});
