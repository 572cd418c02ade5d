/**
 * Subcontractor verification request (GovTalk class IR-CIS-VERIFY), body per
 * CISverification-v1-2.xsd: 1 to 100 subcontractors, each to 'match' or 'verify'.
 */
import { HmrcInputError, req } from "./hmrc-input";
import { buildContractorMessage, contractorIdentity, type BuiltMessage, type ContractorMessageInput } from "./govtalk-envelope";
import { subcontractorNameTree, type HmrcSubcontractorIds } from "./subcontractor-name";
import { x, type XmlTree } from "./xml-writer";

export const CIS_REQUEST_NS = "http://www.govtalk.gov.uk/taxation/CISrequest";
export const VERIFY_CLASS = "IR-CIS-VERIFY";
export const MAX_VERIFICATION_SUBCONTRACTORS = 100;

export const VERIFICATION_ACTIONS = ["match", "verify"] as const;
export type VerificationAction = (typeof VERIFICATION_ACTIONS)[number];

/** HMRC's subcontractor types; our 'individual' is their 'soletrader'. */
export const HMRC_SUBCONTRACTOR_TYPES = ["soletrader", "partnership", "trust", "company"] as const;
export type HmrcSubcontractorType = (typeof HMRC_SUBCONTRACTOR_TYPES)[number];

export function hmrcSubcontractorType(type: "individual" | "company" | "partnership"): HmrcSubcontractorType {
  return type === "individual" ? "soletrader" : type;
}

export interface VerificationSubcontractor extends HmrcSubcontractorIds {
  action: VerificationAction;
  type: HmrcSubcontractorType;
  /** For partners: the partnership's name and UTR. */
  partnership?: { name?: string; utr?: string };
  address?: { lines: string[]; postcode?: string; country?: string };
  telephone?: string;
}

export interface VerificationRequestInput extends ContractorMessageInput {
  subcontractors: VerificationSubcontractor[];
}

const ADDRESS_CHARS = /^[A-Za-z0-9 ~!"@#$%&'()*+,\-./:;<=>?[\\\]^_{}£€]*$/;

function addressPart(field: string, value: unknown, max: number): string {
  const v = req.string(field, value);
  if (v.length < 1 || v.length > max) throw new HmrcInputError(field, `must be 1 to ${max} characters`);
  if (!ADDRESS_CHARS.test(v)) throw new HmrcInputError(field, "contains characters HMRC does not accept");
  return v;
}

function subcontractor(sub: VerificationSubcontractor, i: number): XmlTree {
  const f = (name: string) => `subcontractors[${i}].${name}`;
  if (typeof sub !== "object" || sub === null) throw new HmrcInputError(`subcontractors[${i}]`, "is required");
  if (!(VERIFICATION_ACTIONS as readonly unknown[]).includes(sub.action)) throw new HmrcInputError(f("action"), "must be match or verify");
  if (!(HMRC_SUBCONTRACTOR_TYPES as readonly unknown[]).includes(sub.type)) {
    throw new HmrcInputError(f("type"), "must be soletrader, partnership, trust or company");
  }
  const nameTree = subcontractorNameTree(f, sub.name, sub.tradingName);

  const given = (v: unknown) => v !== undefined && v !== null && v !== "";

  let partnership: XmlTree | null = null;
  if (sub.partnership) {
    const p = sub.partnership;
    partnership = x("Partnership", [
      given(p.name) && x("Name", req.payeString(f("partnership.name"), p.name, { max: 56, min: 1, leadingNonSpace: true })),
      given(p.utr) && x("UTR", req.utr(f("partnership.utr"), p.utr)),
    ]);
  }

  let address: XmlTree | null = null;
  if (sub.address) {
    const a = sub.address;
    if (!Array.isArray(a.lines) || a.lines.length < 1 || a.lines.length > 4) {
      throw new HmrcInputError(f("address.lines"), "must hold one to four lines");
    }
    address = x("Address", [
      ...a.lines.map((line, j) => x("Line", addressPart(f(`address.lines[${j}]`), line, 35))),
      given(a.postcode) && x("PostCode", addressPart(f("address.postcode"), a.postcode, 8)),
      given(a.country) && x("Country", addressPart(f("address.country"), a.country, 35)),
    ]);
  }

  return x("Subcontractor", [
    x("Action", sub.action),
    x("Type", sub.type),
    nameTree,
    given(sub.worksRef) && x("WorksRef", req.payeString(f("worksRef"), sub.worksRef, { max: 20 })),
    given(sub.utr) && x("UTR", req.utr(f("utr"), sub.utr)),
    given(sub.crn) && x("CRN", req.crn(f("crn"), sub.crn)),
    given(sub.nino) && x("NINO", req.nino(f("nino"), sub.nino)),
    partnership,
    address,
    given(sub.telephone) && x("Telephone", req.telephone(f("telephone"), sub.telephone)),
  ]);
}

export async function buildVerificationRequestMessage(input: VerificationRequestInput): Promise<BuiltMessage> {
  const identity = contractorIdentity(input);
  if (!Array.isArray(input.subcontractors) || input.subcontractors.length < 1) {
    throw new HmrcInputError("subcontractors", "at least one subcontractor is required");
  }
  if (input.subcontractors.length > MAX_VERIFICATION_SUBCONTRACTORS) {
    throw new HmrcInputError("subcontractors", `at most ${MAX_VERIFICATION_SUBCONTRACTORS} subcontractors per request`);
  }
  return buildContractorMessage(input, identity, {
    messageClass: VERIFY_CLASS,
    namespace: CIS_REQUEST_NS,
    topElementName: "CISrequest",
    content: [identity.contractor, ...input.subcontractors.map(subcontractor), x("Declaration", "yes")],
  });
}

/** The complete verification request GovTalk message (XML text) with its IRmark. */
export async function buildVerificationRequest(input: VerificationRequestInput): Promise<string> {
  return (await buildVerificationRequestMessage(input)).xml;
}
