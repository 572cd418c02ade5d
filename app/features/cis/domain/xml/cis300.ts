/**
 * The CIS300 monthly return (GovTalk class IR-CIS-CIS300MR). The IRenvelope
 * follows CISreturn-v1-2.xsd; element order matters to the schema.
 */
import { HmrcInputError, poundsAndPence, req, wholePounds } from "./hmrc-input";
import { buildContractorMessage, contractorIdentity, type BuiltMessage, type ContractorMessageInput } from "./govtalk-envelope";
import { subcontractorNameTree, type HmrcSubcontractorIds } from "./subcontractor-name";
import { x, type XmlTree } from "./xml-writer";

export type { HmrcName } from "./subcontractor-name";

export const CIS_RETURN_NS = "http://www.govtalk.gov.uk/taxation/CISreturn";
export const CIS300_CLASS = "IR-CIS-CIS300MR";

export interface Cis300Line extends HmrcSubcontractorIds {
  verificationNumber?: string;
  /** Deducted at the higher (unmatched) rate. */
  unmatchedRate?: boolean;
  totalPaymentsP: number;
  costOfMaterialsP: number;
  totalDeductedP: number;
}

export interface Cis300Declarations {
  /** "None of the subcontractors are employees." Sent on non-nil returns. */
  employmentStatus?: boolean;
  /** "Subcontractors have been verified where required." Sent on non-nil returns. */
  verification?: boolean;
  /** No payments expected in the next six months. */
  inactivity?: boolean;
}

export interface Cis300Input extends ContractorMessageInput {
  nil: boolean;
  lines: Cis300Line[];
  declarations: Cis300Declarations;
}

const yesNo = (b: boolean) => (b ? "yes" : "no");

function subcontractorLine(line: Cis300Line, i: number): XmlTree {
  const f = (name: string) => `lines[${i}].${name}`;
  if (typeof line !== "object" || line === null) throw new HmrcInputError(`lines[${i}]`, "is required");
  const nameTree = subcontractorNameTree(f, line.name, line.tradingName);

  const opt = <T>(value: T | undefined | null, build: (v: T) => XmlTree): XmlTree | null =>
    value === undefined || value === null || value === "" ? null : build(value);

  return x("Subcontractor", [
    nameTree,
    opt(line.worksRef, (v) => x("WorksRef", req.payeString(f("worksRef"), v, { max: 20 }))),
    line.unmatchedRate === true && x("UnmatchedRate", "yes"),
    opt(line.utr, (v) => x("UTR", req.utr(f("utr"), v))),
    opt(line.crn, (v) => x("CRN", req.crn(f("crn"), v))),
    opt(line.nino, (v) => x("NINO", req.nino(f("nino"), v))),
    opt(line.verificationNumber, (v) => x("VerificationNumber", req.verificationNumber(f("verificationNumber"), v))),
    x("TotalPayments", wholePounds(f("totalPaymentsP"), line.totalPaymentsP)),
    x("CostOfMaterials", wholePounds(f("costOfMaterialsP"), line.costOfMaterialsP)),
    x("TotalDeducted", poundsAndPence(f("totalDeductedP"), line.totalDeductedP)),
  ]);
}

/** The complete CIS300 GovTalk message with its IRmark, plus the IRmark itself. */
export async function buildCis300Message(input: Cis300Input): Promise<BuiltMessage> {
  const identity = contractorIdentity(input);
  if (identity.period.day !== 5) throw new HmrcInputError("periodEnd", "must be the 5th of a month (the end of a tax month)");
  if (typeof input.nil !== "boolean") throw new HmrcInputError("nil", "must be true or false");
  if (!Array.isArray(input.lines)) throw new HmrcInputError("lines", "is required");
  if (input.nil && input.lines.length > 0) throw new HmrcInputError("lines", "a nil return cannot have lines");
  if (!input.nil && input.lines.length === 0) throw new HmrcInputError("lines", "a return that is not nil needs at least one line");
  const decl = input.declarations ?? {};
  if (typeof decl !== "object") throw new HmrcInputError("declarations", "is required");

  const lines = input.lines.map(subcontractorLine);
  // HMRC's sample nil return carries only InformationCorrect and Inactivity;
  // the employment-status and verification declarations concern lines.
  const declarations = x("Declarations", [
    !input.nil && typeof decl.employmentStatus === "boolean" && x("EmploymentStatus", yesNo(decl.employmentStatus)),
    !input.nil && typeof decl.verification === "boolean" && x("Verification", yesNo(decl.verification)),
    x("InformationCorrect", "yes"),
    decl.inactivity === true && x("Inactivity", "yes"),
  ]);

  return buildContractorMessage(input, identity, {
    messageClass: CIS300_CLASS,
    namespace: CIS_RETURN_NS,
    topElementName: "CISreturn",
    content: [identity.contractor, ...(input.nil ? [x("NilReturn", "yes")] : []), ...lines, declarations],
  });
}

/** The complete CIS300 GovTalk message (XML text) with its IRmark filled in. */
export async function buildCis300(input: Cis300Input): Promise<string> {
  return (await buildCis300Message(input)).xml;
}
