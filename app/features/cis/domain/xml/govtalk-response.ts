/**
 * Reads what the Transaction Engine sends back: acknowledgements (poll later),
 * responses (with the IRmark receipt and, for verification, the results) and
 * errors. Elements are matched by local name because poll answers arrive both
 * with and without the GovTalk namespace.
 */
import { child, children, nonBlankText, parseXml, path, textOf, type XmlElement } from "./dom";

export type GovTalkQualifier = "acknowledgement" | "response" | "error" | "request" | "poll" | (string & {});

export interface GovTalkError {
  number: number | null;
  type: string | null;
  text: string;
  location: string | null;
  raisedBy: string | null;
}

export interface VerifiedSubcontractor {
  name: { title: string | null; fore: string[]; sur: string | null } | null;
  tradingName: string | null;
  worksRef: string | null;
  utr: string | null;
  crn: string | null;
  nino: string | null;
  partnership: { name: string | null; utr: string | null } | null;
  matched: boolean;
  /** 'gross', 'net' or 'unmatched' as HMRC states it. */
  taxTreatment: string | null;
  verificationNumber: string | null;
}

export interface GovTalkResponse {
  qualifier: GovTalkQualifier | null;
  function: string | null;
  messageClass: string | null;
  correlationId: string | null;
  transactionId: string | null;
  responseEndPoint: string | null;
  /** Seconds to wait before polling, from ResponseEndPoint@PollInterval. */
  pollInterval: number | null;
  gatewayTimestamp: string | null;
  /** GovTalkErrors followed by the Body's ErrorResponse errors. */
  errors: GovTalkError[];
  irmarkReceipt: { message: string; code?: string; irmark?: string } | null;
  /** Other SuccessResponse messages, e.g. code 9004 'The Monthly Return has been processed...'. */
  messages: { code?: string; text: string }[];
  acceptedTime: string | null;
  verification: { contractor: { utr: string | null; aoRef: string | null } | null; subcontractors: VerifiedSubcontractor[] } | null;
}

function parseError(el: XmlElement): GovTalkError {
  const numberText = nonBlankText(child(el, "Number"));
  const n = numberText === null ? NaN : Number(numberText);
  return {
    number: Number.isInteger(n) ? n : null,
    type: nonBlankText(child(el, "Type")),
    text: (textOf(child(el, "Text")) ?? "").trim(),
    location: nonBlankText(child(el, "Location")),
    raisedBy: nonBlankText(child(el, "RaisedBy")),
  };
}

function parseSubcontractor(el: XmlElement): VerifiedSubcontractor {
  const nameEl = child(el, "Name");
  const partnershipEl = child(el, "Partnership");
  return {
    name: nameEl
      ? {
          title: nonBlankText(child(nameEl, "Ttl")),
          fore: children(nameEl, "Fore").map((f) => (textOf(f) ?? "").trim()),
          sur: nonBlankText(child(nameEl, "Sur")),
        }
      : null,
    tradingName: nonBlankText(child(el, "TradingName")),
    worksRef: nonBlankText(child(el, "WorksRef")),
    utr: nonBlankText(child(el, "UTR")),
    crn: nonBlankText(child(el, "CRN")),
    nino: nonBlankText(child(el, "NINO")),
    partnership: partnershipEl ? { name: nonBlankText(child(partnershipEl, "Name")), utr: nonBlankText(child(partnershipEl, "UTR")) } : null,
    matched: /^(y|yes|true)$/i.test(nonBlankText(child(el, "Matched")) ?? ""),
    taxTreatment: nonBlankText(child(el, "TaxTreatment")),
    verificationNumber: nonBlankText(child(el, "VerificationNumber")),
  };
}

export function parseGovTalkResponse(xml: string): GovTalkResponse {
  const root = parseXml(xml).documentElement;
  if (!root || (root.localName ?? root.nodeName) !== "GovTalkMessage") {
    throw new Error("Not a GovTalk message: no GovTalkMessage root");
  }
  const details = path(root, "Header", "MessageDetails");
  const endPoint = child(details, "ResponseEndPoint");
  const pollText = endPoint?.getAttribute("PollInterval");
  const poll = pollText ? Number(pollText) : NaN;
  const body = child(root, "Body");

  const errors = [
    ...children(path(root, "GovTalkDetails", "GovTalkErrors"), "Error").map(parseError),
    ...children(child(body, "ErrorResponse"), "Error").map(parseError),
  ];

  const success = child(body, "SuccessResponse");
  const receiptMessage = path(success, "IRmarkReceipt", "Message");
  let irmarkReceipt: GovTalkResponse["irmarkReceipt"] = null;
  if (receiptMessage) {
    const message = (textOf(receiptMessage) ?? "").trim();
    const code = receiptMessage.getAttribute("code") ?? undefined;
    const irmark = /IRmark was:\s*([A-Z2-7]{32})/.exec(message)?.[1];
    irmarkReceipt = { message, ...(code ? { code } : {}), ...(irmark ? { irmark } : {}) };
  }
  const messages = children(success, "Message").map((m) => {
    const code = m.getAttribute("code") ?? undefined;
    return { ...(code ? { code } : {}), text: (textOf(m) ?? "").trim() };
  });

  const cisResponse = path(success, "ResponseData", "CISresponse");
  let verification: GovTalkResponse["verification"] = null;
  if (cisResponse) {
    const contractor = child(cisResponse, "Contractor");
    verification = {
      contractor: contractor ? { utr: nonBlankText(child(contractor, "UTR")), aoRef: nonBlankText(child(contractor, "AOref")) } : null,
      subcontractors: children(cisResponse, "Subcontractor").map(parseSubcontractor),
    };
  }

  return {
    qualifier: nonBlankText(child(details, "Qualifier")),
    function: nonBlankText(child(details, "Function")),
    messageClass: nonBlankText(child(details, "Class")),
    correlationId: nonBlankText(child(details, "CorrelationID")),
    transactionId: nonBlankText(child(details, "TransactionID")),
    responseEndPoint: nonBlankText(endPoint),
    pollInterval: Number.isFinite(poll) ? poll : null,
    gatewayTimestamp: nonBlankText(child(details, "GatewayTimestamp")),
    errors,
    irmarkReceipt,
    messages,
    acceptedTime: nonBlankText(child(success, "AcceptedTime")),
    verification,
  };
}
