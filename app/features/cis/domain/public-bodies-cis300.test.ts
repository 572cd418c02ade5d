import { describe, expect, it } from "vitest";
import { calculateCis, type CisRate } from "./calculation";
import { compileReturn } from "./compile-return";
import { isContractPayment } from "./public-bodies";
import { taxMonthFromLabel } from "./tax-month";
import type { InvoiceRecord, SubcontractorRecord } from "./types";
import { buildCis300Message, type Cis300Line } from "./xml/cis300";
import { SCHEMAS, extractIRenvelope, xsdValidate } from "./xml/libxml2.test-support";

/** The contractor of HMRC's own sample return (valid references). */
const contractor = {
  employerRef: "754/EZ00047",
  accountsOfficeRef: "754PT00002240",
  contractorUtr: "2234567890",
  correlationId: "C389CEF5BCC84EE2926CFDE96C89C767",
  gatewayTimestamp: "2026-05-18T11:01:45.518",
  product: { name: "Test", version: "1.0", vendorId: "0126" },
};

const subs: (SubcontractorRecord & { publicBody: boolean; utr: string })[] = [
  { id: "ann", name: "Ann Roofing Ltd", publicBody: false, utr: "2234567890", verification: { status: "standard", rate: 20, reference: "V1234567890" } },
  { id: "council", name: "Northshire County Council", publicBody: true, utr: "5334567890", verification: { status: "gross", rate: 0, reference: null } },
];

let seq = 0;
/** A paid invoice as the product stores it: the deduction at the subcontractor's rate, none when it is not a contract payment. */
function paid(subId: string, paymentDate: string, grossP: number): InvoiceRecord {
  const sub = subs.find((s) => s.id === subId)!;
  const outsideCis = !isContractPayment(sub, paymentDate);
  const rate = (outsideCis ? 0 : sub.verification!.rate!) as CisRate;
  const a = calculateCis({ grossP, materialsP: 0, cisRate: rate, vatRate: 0, reverseCharge: true });
  seq += 1;
  return {
    id: `inv-${seq}`,
    subcontractorId: subId,
    subcontractorName: sub.name,
    status: "paid",
    paymentDate,
    taxMonth: null,
    amounts: { grossP, materialsP: 0, labourP: a.labourP, cisDeductionP: a.cisDeductionP },
    verificationSnapshot: { rate, reference: sub.verification!.reference },
    statement: { required: false, issuedAt: null },
    outsideCis,
  };
}

function compile(taxMonth: string, invoices: InvoiceRecord[]) {
  return compileReturn({ taxMonth: taxMonthFromLabel(taxMonth), invoices, subcontractors: subs, statements: [] });
}

async function cis300(taxMonth: string, lines: ReturnType<typeof compile>["lines"]) {
  const out: Cis300Line[] = lines.map((l) => ({
    tradingName: l.name,
    utr: subs.find((s) => s.id === l.subcontractorId)!.utr,
    ...(l.verificationRef ? { verificationNumber: l.verificationRef } : {}),
    totalPaymentsP: l.grossP,
    costOfMaterialsP: l.materialsP,
    totalDeductedP: l.cisDeductedP,
  }));
  const message = await buildCis300Message({
    ...contractor,
    periodEnd: taxMonthFromLabel(taxMonth).periodEnd,
    nil: out.length === 0,
    lines: out,
    declarations: out.length === 0 ? { inactivity: false } : { employmentStatus: true, verification: true },
  });
  return message.xml;
}

describe("payments to a public body on either side of 6 April 2026", () => {
  it("paid on 5 April 2026 (the March month): a contract payment with its deduction, on the CIS300", async () => {
    const inv = paid("council", "2026-04-05", 100_000);
    expect(inv.outsideCis).toBe(false);
    const ordinary = paid("ann", "2026-03-20", 50_000);
    const compiled = compile("2026-03", [inv, ordinary]);
    expect(compiled.lines.map((l) => l.subcontractorId).sort()).toEqual(["ann", "council"]);
    const xml = await cis300("2026-03", compiled.lines);
    expect(xsdValidate(extractIRenvelope(xml), SCHEMAS.cisReturn)).toEqual({ ok: true, output: "" });
    expect(xml).toContain("<UTR>5334567890</UTR>");
  });

  it("paid on 6 April 2026: no deduction, and the mixed month's CIS300 is valid against HMRC's schema and leaves it out", async () => {
    const council = paid("council", "2026-04-06", 100_000);
    expect(council.outsideCis).toBe(true);
    expect(council.amounts.cisDeductionP).toBe(0);
    const ordinary = paid("ann", "2026-04-20", 50_000);
    const compiled = compile("2026-04", [council, paid("council", "2026-05-01", 70_000), ordinary]);
    expect(compiled.lines.map((l) => l.subcontractorId)).toEqual(["ann"]);
    expect(compiled.totals).toMatchObject({ subcontractors: 1, invoices: 1, grossP: 50_000, cisDeductedP: 10_000 });
    const xml = await cis300("2026-04", compiled.lines);
    expect(xsdValidate(extractIRenvelope(xml), SCHEMAS.cisReturn)).toEqual({ ok: true, output: "" });
    expect(xml).not.toContain("Northshire");
    expect(xml).not.toContain("<UTR>5334567890</UTR>");
    expect(xml).toContain("<TotalPayments>500.00</TotalPayments>");
  });

  it("a month with only public-body payments compiles as a nil return", () => {
    expect(compile("2026-04", [paid("council", "2026-04-10", 100_000)])).toMatchObject({ status: "nil", lines: [] });
  });
});
