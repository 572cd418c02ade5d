import { describe, expect, it } from "vitest";
import { INVOICE_STATUSES } from "~/db/enums";
import { INVOICE_STATUS_FILTERS } from "../invoice-codes";
import { INVOICE_STATUS_LABELS } from "./invoice-status";

describe("invoice status labels", () => {
  // The invoice list builds its status filter from these labels (so that the page does not load
  // the enums module): they must name every status, in the order of the schema's list.
  it("name every status in the schema's order, so the list's filter offers the same choices as the server accepts", () => {
    expect(Object.keys(INVOICE_STATUS_LABELS)).toEqual([...INVOICE_STATUSES]);
    expect(["all", ...Object.keys(INVOICE_STATUS_LABELS)]).toEqual([...INVOICE_STATUS_FILTERS]);
  });
});
