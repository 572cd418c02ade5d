import { HmrcInputError, req } from "./hmrc-input";
import { x, type XmlTree } from "./xml-writer";

export interface HmrcName {
  title?: string;
  /** One or two forenames, each a single word. */
  fore: string[];
  sur: string;
}

/** How both messages identify a subcontractor (the schemas' shared elements, in their order). */
export interface HmrcSubcontractorIds {
  /** Individuals: the name; otherwise use tradingName. Exactly one of the two. */
  name?: HmrcName;
  tradingName?: string;
  worksRef?: string;
  utr?: string;
  crn?: string;
  nino?: string;
}

/**
 * A subcontractor's <Name> or <TradingName>, shared by the CIS300 return and the verification
 * request: exactly one of the two must be given (the schemas' choice).
 */
export function subcontractorNameTree(field: (name: string) => string, name: HmrcName | undefined | null, tradingName: string | undefined | null): XmlTree {
  const hasName = name !== undefined && name !== null;
  const hasTrading = tradingName !== undefined && tradingName !== null && tradingName !== "";
  if (!hasName && !hasTrading) throw new HmrcInputError(field("name"), "a name or a trading name is required");
  if (hasName && hasTrading) throw new HmrcInputError(field("tradingName"), "give either a name or a trading name, not both");
  if (hasName) {
    const n = req.name(field("name"), name);
    return x("Name", [n.title !== undefined && x("Ttl", n.title), ...n.fore.map((fore) => x("Fore", fore)), x("Sur", n.sur)]);
  }
  return x("TradingName", req.payeString(field("tradingName"), tradingName, { max: 56, min: 1, leadingNonSpace: true }));
}
