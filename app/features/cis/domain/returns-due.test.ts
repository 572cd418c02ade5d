import { describe, expect, it } from "vitest";
import { noticeFromInactivityDeclaration } from "./nil-returns";
import { paymentsByMonth, returnsDue, type PaidInvoiceGroup } from "./returns-due";

const utc = (iso: string) => new Date(iso);
const paid = (taxMonth: string | null, paymentDate: string | null, count = 1): PaidInvoiceGroup => ({ taxMonth, paymentDate, count });
const started = utc("2025-01-01T12:00:00Z");
/** The rule before nil returns were due: only months with payments. For tests about the deadline arithmetic. */
const paymentsOnly = (a: { payments: number }) => a.payments > 0;

describe("returnsDue", () => {
  it("the October return (due 19 November) is overdue on 25 November, by 6 days; November's is not yet due", () => {
    const due = returnsDue({
      now: utc("2026-11-25T10:00:00Z"),
      firstActivityAt: started,
      paidInvoices: [paid("2026-10", "2026-10-20"), paid("2026-11", "2026-11-10")],
      filedMonths: [],
      needsReturn: paymentsOnly,
    });
    expect(due).toEqual([
      { taxMonth: "2026-10", displayLabel: "6 October to 5 November 2026", deadline: utc("2026-11-19T23:59:59Z"), daysOverdue: 6, nil: false, deductionsP: 0 },
    ]);
  });

  it("on either side of the 19th: due on the 19th itself (GMT), overdue from midnight", () => {
    const input = { firstActivityAt: started, paidInvoices: [paid("2026-10", null)], filedMonths: [], needsReturn: paymentsOnly };
    expect(returnsDue({ ...input, now: utc("2026-11-18T12:00:00Z") })).toEqual([]);
    expect(returnsDue({ ...input, now: utc("2026-11-19T23:59:59Z") })).toEqual([]);
    expect(returnsDue({ ...input, now: utc("2026-11-20T00:00:00Z") }).map((d) => [d.taxMonth, d.daysOverdue])).toEqual([["2026-10", 1]]);
  });

  it("in summer time the deadline is 23:59:59 BST (22:59:59 UTC): the March return, after the March clock change", () => {
    const input = { firstActivityAt: started, paidInvoices: [paid(null, "2026-03-30")], filedMonths: [] };
    expect(returnsDue({ ...input, now: utc("2026-04-19T22:59:59Z") })).toEqual([]);
    const due = returnsDue({ ...input, now: utc("2026-04-19T23:00:00Z") });
    expect(due.map((d) => [d.taxMonth, d.daysOverdue])).toEqual([["2026-03", 1]]);
    expect(due[0]!.deadline.toISOString()).toBe("2026-04-19T22:59:59.000Z");
  });

  it("across the October clock change: the September return is due 19 October BST and counts London days after the change", () => {
    const input = { firstActivityAt: started, paidInvoices: [paid("2026-09", "2026-09-15")], filedMonths: [], needsReturn: paymentsOnly };
    expect(returnsDue({ ...input, now: utc("2026-10-19T22:59:59Z") })).toEqual([]);
    expect(returnsDue({ ...input, now: utc("2026-10-19T23:00:00Z") }).map((d) => d.daysOverdue)).toEqual([1]);
    // Clocks go back on 25 October 2026: 26 October is still 7 London days after the 19th.
    expect(returnsDue({ ...input, now: utc("2026-10-26T23:30:00Z") }).map((d) => d.daysOverdue)).toEqual([7]);
  });

  it("a filed month is not overdue; a month without payments needs a nil return from April 2026, none before", () => {
    const due = returnsDue({
      now: utc("2026-11-25T10:00:00Z"),
      firstActivityAt: started,
      paidInvoices: [paid("2026-08", "2026-08-10"), paid("2026-09", "2026-09-10"), paid("2026-10", "2026-10-10")],
      filedMonths: ["2026-09"],
    });
    expect(due.map((d) => [d.taxMonth, d.nil])).toEqual([
      ["2026-10", false],
      ["2026-08", false],
      ["2026-07", true],
      ["2026-06", true],
      ["2026-05", true],
      ["2026-04", true],
    ]);
  });

  it("a nil return for April 2026 (6 April to 5 May): due on 19 May, overdue from midnight BST; March 2026 (5 April) never", () => {
    const input = { firstActivityAt: started, paidInvoices: [], filedMonths: [] };
    expect(returnsDue({ ...input, now: utc("2026-05-19T22:59:59Z") }).map((d) => d.taxMonth)).toEqual([]);
    expect(returnsDue({ ...input, now: utc("2026-05-19T23:00:00Z") }).map((d) => [d.taxMonth, d.nil, d.daysOverdue])).toEqual([["2026-04", true, 1]]);
  });

  it("a notice of no payments given 15 or 14 days before the month starts covers it; 13 days is too late", () => {
    // June 2026 starts on 6 June: the notice is due by 23 May.
    const at = (givenOn: string) =>
      returnsDue({
        now: utc("2026-07-25T10:00:00Z"),
        firstActivityAt: utc("2026-06-10T10:00:00Z"),
        paidInvoices: [],
        filedMonths: [],
        notices: [{ givenOn, firstMonth: "2026-06", months: 1 }],
      }).map((d) => d.taxMonth);
    expect(at("2026-05-22")).toEqual([]);
    expect(at("2026-05-23")).toEqual([]);
    expect(at("2026-05-24")).toEqual(["2026-06"]);
  });

  it("the inactivity declaration on April's nil return (filed 10 May) covers June to October, not May; November is due again", () => {
    const due = returnsDue({
      now: utc("2026-12-25T10:00:00Z"),
      firstActivityAt: utc("2026-04-10T10:00:00Z"),
      paidInvoices: [],
      filedMonths: ["2026-04"],
      notices: [noticeFromInactivityDeclaration("2026-04", "2026-05-10")],
    });
    expect(due.map((d) => d.taxMonth)).toEqual(["2026-11", "2026-05"]);
  });

  it("nothing before the tenant's first month of activity, read in London time (00:30 BST on 6 April is April's month)", () => {
    const due = returnsDue({
      now: utc("2026-06-25T10:00:00Z"),
      firstActivityAt: utc("2026-04-05T23:30:00Z"),
      paidInvoices: [paid("2026-03", "2026-03-20"), paid("2026-04", "2026-04-20")],
      filedMonths: [],
      needsReturn: paymentsOnly,
    });
    expect(due.map((d) => d.taxMonth)).toEqual(["2026-04"]);
    const before = returnsDue({
      now: utc("2026-06-25T10:00:00Z"),
      firstActivityAt: utc("2026-04-05T22:30:00Z"),
      paidInvoices: [paid("2026-03", "2026-03-20"), paid("2026-04", "2026-04-20")],
      filedMonths: [],
      needsReturn: paymentsOnly,
    });
    expect(before.map((d) => d.taxMonth)).toEqual(["2026-04", "2026-03"]);
  });

  it("looks back 12 tax months at most, and the rule for which months need a return can be replaced", () => {
    const months = Array.from({ length: 24 }, (_, i) => {
      const y = 2025 + Math.floor((i + 10) / 12);
      const m = ((i + 10) % 12) + 1;
      return paid(`${y}-${String(m).padStart(2, "0")}`, null);
    });
    const due = returnsDue({ now: utc("2026-12-25T10:00:00Z"), firstActivityAt: utc("2020-01-01T00:00:00Z"), paidInvoices: months, filedMonths: [] });
    expect(due).toHaveLength(12);
    expect(due[0]!.taxMonth).toBe("2026-11");
    expect(due.at(-1)!.taxMonth).toBe("2025-12");
    const nil = returnsDue({
      now: utc("2026-12-25T10:00:00Z"),
      firstActivityAt: utc("2026-09-10T00:00:00Z"),
      paidInvoices: [],
      filedMonths: ["2026-10"],
      needsReturn: () => true,
    });
    expect(nil.map((d) => d.taxMonth)).toEqual(["2026-11", "2026-09"]);
  });
});

describe("paymentsByMonth", () => {
  it("counts an invoice in its labelled month and its payment date's month (before the 6th is the previous month), once per month", () => {
    const by = paymentsByMonth([paid("2026-10", "2026-11-05", 2), paid("2026-10", "2026-10-06", 1), paid(null, "2026-01-03", 4), paid("bad", "nope", 9)]);
    expect(Object.fromEntries(by)).toEqual({ "2026-10": 3, "2025-12": 4 });
  });
});
