import { describe, expect, it } from "vitest";
import { compileReturn } from "./compile-return";
import { taxMonthFromLabel } from "./tax-month";
import type { InvoiceRecord, StatementRecord, SubcontractorRecord } from "./types";

const subs: SubcontractorRecord[] = [
  { id: "s1", name: "Zed Builders", utrMasked: "******1111", ninoMasked: null, verification: { status: "standard", rate: 20, reference: "V1111111111" } },
  { id: "s2", name: "Ann Plaster", utrMasked: "******2222", ninoMasked: "AB****56C", verification: { status: "higher", rate: 30, reference: null } },
];

let seq = 0;
function inv(over: Partial<InvoiceRecord> & { grossP?: number; materialsP?: number; cisP?: number }): InvoiceRecord {
  const { grossP = 100000, materialsP = 0, cisP = 20000, ...rest } = over;
  return {
    id: `i${++seq}`,
    status: "paid",
    subcontractorId: "s1",
    taxMonth: "2026-04",
    paymentDate: "2026-04-20",
    amounts: { grossP, materialsP, labourP: grossP - materialsP, cisDeductionP: cisP },
    ...rest,
  };
}

describe("compileReturn", () => {
  it("one line per subcontractor, totals from paid invoices of the month", () => {
    const r = compileReturn({
      taxMonth: "2026-04",
      subcontractors: subs,
      statements: [],
      invoices: [
        inv({ grossP: 100000, materialsP: 10000, cisP: 18000 }),
        inv({ grossP: 50000, materialsP: 0, cisP: 10000 }),
        inv({ subcontractorId: "s2", grossP: 20000, materialsP: 5000, cisP: 4500 }),
        inv({ status: "approved" }), // not paid
        inv({ status: "draft" }),
        inv({ taxMonth: "2026-03", paymentDate: "2026-04-05" }), // previous month
        inv({ subcontractorId: null }), // no subcontractor
        inv({ deletedAt: "2026-04-21T10:00:00Z" }),
      ],
    });
    expect(r.status).toBe("ready");
    expect(r.id).toBe("2026-04");
    expect(r.issues).toEqual([]);
    expect(r.period).toMatchObject({ taxMonth: "2026-04", label: "2026-04", displayLabel: "6 April to 5 May 2026" });
    expect(r.deadlines.filing).toEqual(taxMonthFromLabel("2026-04").deadlines.filing);
    expect(r.lines.map((l) => l.name)).toEqual(["Ann Plaster", "Zed Builders"]);
    expect(r.lines[1]).toMatchObject({
      subcontractorId: "s1",
      utrMasked: "******1111",
      grossP: 150000,
      materialsP: 10000,
      cisDeductedP: 28000,
      cisRate: 20,
      invoiceCount: 2,
      verificationRef: "V1111111111",
      statementsIssued: true,
      lastStatementDate: null,
    });
    expect(r.lines[0]).toMatchObject({ cisRate: 30, ninoMasked: "AB****56C", invoiceCount: 1 });
    expect(r.totals).toEqual({ subcontractors: 2, invoices: 3, grossP: 170000, materialsP: 15000, cisDeductedP: 32500 });
    expect(r.locked).toBe(false);
  });

  it("includes invoices whose payment date falls in the month even when taxMonth is unset or different", () => {
    const r = compileReturn({
      taxMonth: taxMonthFromLabel("2026-04"),
      subcontractors: subs,
      statements: [],
      invoices: [
        inv({ taxMonth: null, paymentDate: "2026-05-05" }),
        inv({ taxMonth: null, paymentDate: "2026-04-05T23:30:00Z" }), // 6 April in London
        inv({ taxMonth: null, paymentDate: new Date("2026-05-05T23:30:00Z") }), // 6 May: next month
        inv({ taxMonth: null, paymentDate: "garbage" }),
      ],
    });
    expect(r.totals.invoices).toBe(2);
  });

  it("nil when there are no lines", () => {
    const r = compileReturn({ taxMonth: "2026-04", subcontractors: subs, statements: [], invoices: [inv({ status: "approved" })] });
    expect(r.status).toBe("nil");
    expect(r.lines).toEqual([]);
    expect(r.totals).toEqual({ subcontractors: 0, invoices: 0, grossP: 0, materialsP: 0, cisDeductedP: 0 });
  });

  it("statementsIssued is false while a required statement is not issued, and the return stays draft", () => {
    const r = compileReturn({
      taxMonth: "2026-04",
      subcontractors: subs,
      statements: [],
      invoices: [inv({ statement: { required: true } }), inv({ statement: { required: true, issuedAt: "2026-05-01T09:00:00Z" } })],
    });
    expect(r.lines[0]!.statementsIssued).toBe(false);
    expect(r.lines[0]!.lastStatementDate).toBe("2026-05-01T09:00:00.000Z");
    expect(r.status).toBe("draft");
    expect(r.issues).toEqual(["Line 1: Statement not issued for Zed Builders"]);
  });

  it("an issued statement record for the month dates the line but does not cover an invoice still needing its own statement", () => {
    const statements: StatementRecord[] = [
      { subcontractorId: "s1", taxMonth: "2026-04", status: "issued", issuedAt: new Date("2026-05-03T09:00:00Z") },
      { subcontractorId: "s1", taxMonth: "2026-03", status: "issued", issuedAt: "2026-06-01T09:00:00Z" }, // other month
      { subcontractorId: "s2", taxMonth: "2026-04", status: "generated" }, // not issued
    ];
    const r = compileReturn({
      taxMonth: "2026-04",
      subcontractors: subs,
      statements,
      invoices: [inv({ statement: { required: true } }), inv({ subcontractorId: "s2", statement: { required: true } })],
    });
    const [ann, zed] = r.lines;
    expect(zed!.statementsIssued).toBe(false);
    expect(zed!.lastStatementDate).toBe("2026-05-03T09:00:00.000Z");
    expect(ann!.statementsIssued).toBe(false);

    // Once the invoice itself records its statement as issued, the line counts as issued.
    const issued = compileReturn({
      taxMonth: "2026-04",
      subcontractors: subs,
      statements,
      invoices: [inv({ statement: { required: true, issuedAt: "2026-05-03T09:00:00Z" } }), inv({ statement: { required: false } })],
    });
    expect(issued.lines[0]!.statementsIssued).toBe(true);
  });

  it("falls back to the invoice's own name and snapshot for an unknown subcontractor", () => {
    const r = compileReturn({
      taxMonth: "2026-04",
      subcontractors: [],
      statements: [],
      invoices: [
        inv({
          subcontractorId: "gone",
          subcontractorName: "Old Name Ltd",
          piiMasked: { utrMasked: "******9999", ninoMasked: null },
          verificationSnapshot: { rate: 0, reference: "V9999999999AB" },
          cisP: 0,
        }),
      ],
    });
    expect(r.lines[0]).toMatchObject({ name: "Old Name Ltd", utrMasked: "******9999", cisRate: 0, verificationRef: "V9999999999AB" });
  });

  it("refuses an invalid tax month", () => {
    expect(() => compileReturn({ taxMonth: "2026-13", subcontractors: [], statements: [], invoices: [] })).toThrow();
  });
});
