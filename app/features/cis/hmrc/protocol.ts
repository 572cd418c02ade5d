/**
 * The Transaction Engine's own messages around a submission (poll and delete requests), and
 * the credential handling of a built message. Pure: no I/O.
 *
 * Credentials are added only when a message is sent. The IRmark covers the Body alone, so the
 * stored message (without them) and the sent one carry the same IRmark, and nothing we store
 * or show holds the Government Gateway password.
 */
import { formatInTimeZone } from "date-fns-tz";
import { LONDON_TZ } from "../domain/tax-month";
import { child, localNameOf, nonBlankText, parseXml, path } from "../domain/xml/dom";
import { GOVTALK_ENVELOPE_NS } from "../domain/xml/irmark";
import { escapeXml } from "../domain/xml/hmrc-input";

export type GatewayCredentials = { senderId: string; password: string };

const SENDER_DETAILS = /<SenderDetails\s*\/>|<SenderDetails>[\s\S]*?<\/SenderDetails>/;

/** The message with SenderDetails holding the Government Gateway user (method 'clear', as the Transaction Engine expects). */
export function withCredentials(xml: string, credentials: GatewayCredentials): string {
  const match = SENDER_DETAILS.exec(xml);
  if (!match) throw new Error("The GovTalk message has no SenderDetails");
  const auth =
    `<SenderDetails><IDAuthentication><SenderID>${escapeXml(credentials.senderId)}</SenderID>` +
    `<Authentication><Method>clear</Method><Role>Principal</Role><Value>${escapeXml(credentials.password)}</Value></Authentication>` +
    `</IDAuthentication></SenderDetails>`;
  return xml.slice(0, match.index) + auth + xml.slice(match.index + match[0].length);
}

/** The message with any credential value blanked: what may be stored or shown. */
export function withoutCredentials(xml: string): string {
  return xml.replace(/(<(?:\w+:)?Value>)[\s\S]*?(<\/(?:\w+:)?Value>)/g, "$1********$2");
}

export type MessageFacts = {
  messageClass: string | null;
  qualifier: string | null;
  function: string | null;
  correlationId: string | null;
  gatewayTest: boolean;
  senderId: string | null;
  hasPassword: boolean;
  /** GovTalkDetails keys and the IRheader keys, by Type. */
  govTalkKeys: Record<string, string>;
  irHeaderKeys: Record<string, string>;
  /** Namespace and local name of the element under Body/IRenvelope after the IRheader. */
  bodyNamespace: string | null;
  bodyElement: string | null;
  rootNamespace: string | null;
};

function keysOf(el: ReturnType<typeof child>): Record<string, string> {
  const out: Record<string, string> = {};
  if (!el) return out;
  for (let n = el.firstChild; n; n = n.nextSibling) {
    if (n.nodeType !== 1) continue;
    const key = n as unknown as NonNullable<ReturnType<typeof child>>;
    const type = key.getAttribute("Type");
    if (type) out[type] = (key.textContent ?? "").trim();
  }
  return out;
}

/** What a gateway or the fake Transaction Engine needs to know about a GovTalk message. Throws XmlParseError on bad XML. */
export function messageFacts(xml: string): MessageFacts {
  const root = parseXml(xml).documentElement;
  if (!root || localNameOf(root) !== "GovTalkMessage") throw new Error("Not a GovTalk message");
  const details = path(root, "Header", "MessageDetails");
  const auth = path(root, "Header", "SenderDetails", "IDAuthentication");
  const irEnvelope = path(root, "Body", "IRenvelope");
  let bodyEl: ReturnType<typeof child> = null;
  if (irEnvelope) {
    for (let n = irEnvelope.firstChild; n; n = n.nextSibling) {
      if (n.nodeType === 1 && localNameOf(n as unknown as NonNullable<ReturnType<typeof child>>) !== "IRheader") {
        bodyEl = n as unknown as NonNullable<ReturnType<typeof child>>;
        break;
      }
    }
  }
  return {
    messageClass: nonBlankText(child(details, "Class")),
    qualifier: nonBlankText(child(details, "Qualifier")),
    function: nonBlankText(child(details, "Function")),
    correlationId: nonBlankText(child(details, "CorrelationID")),
    gatewayTest: nonBlankText(child(details, "GatewayTest")) === "1",
    senderId: nonBlankText(child(auth, "SenderID")),
    hasPassword: nonBlankText(path(auth, "Authentication", "Value")) !== null,
    govTalkKeys: keysOf(path(root, "GovTalkDetails", "Keys")),
    irHeaderKeys: keysOf(path(irEnvelope, "IRheader", "Keys")),
    bodyNamespace: bodyEl?.namespaceURI ?? null,
    bodyElement: bodyEl ? localNameOf(bodyEl) : null,
    rootNamespace: root.namespaceURI ?? null,
  };
}

function protocolMessage(opts: { messageClass: string; qualifier: "poll" | "request"; fn: "submit" | "delete"; correlationId: string }): string {
  return [
    `<?xml version="1.0" encoding="UTF-8"?>`,
    `<GovTalkMessage xmlns="${GOVTALK_ENVELOPE_NS}">`,
    `    <EnvelopeVersion>2.0</EnvelopeVersion>`,
    `    <Header>`,
    `        <MessageDetails>`,
    `            <Class>${escapeXml(opts.messageClass)}</Class>`,
    `            <Qualifier>${opts.qualifier}</Qualifier>`,
    `            <Function>${opts.fn}</Function>`,
    `            <CorrelationID>${escapeXml(opts.correlationId)}</CorrelationID>`,
    `            <Transformation>XML</Transformation>`,
    `        </MessageDetails>`,
    `        <SenderDetails/>`,
    `    </Header>`,
    `    <GovTalkDetails>`,
    `        <Keys/>`,
    `    </GovTalkDetails>`,
    `    <Body/>`,
    `</GovTalkMessage>`,
    ``,
  ].join("\n");
}

/** "Is my answer ready?": sent to the ResponseEndPoint after PollInterval seconds. */
export function pollRequest(messageClass: string, correlationId: string): string {
  return protocolMessage({ messageClass, qualifier: "poll", fn: "submit", correlationId });
}

/** Tells the Transaction Engine we have the final answer and it may discard the submission. */
export function deleteRequest(messageClass: string, correlationId: string): string {
  return protocolMessage({ messageClass, qualifier: "request", fn: "delete", correlationId });
}

/** The answer a poll interval asks for, kept within what a queue delay allows and never a busy loop. */
export function clampPollInterval(seconds: number | null | undefined): number {
  if (seconds === null || seconds === undefined || !Number.isFinite(seconds)) return 10;
  return Math.min(3600, Math.max(1, Math.round(seconds)));
}

/**
 * The times of a Transaction Engine receipt for an instant, on the London wall clock as HMRC writes
 * them: the receipt sentence's '08.46' and '06/04/2017', and AcceptedTime / GatewayTimestamp as
 * '2017-04-06T08:46:08.081' (no offset).
 */
export function hmrcReceiptTimes(at: Date): { time: string; date: string; timestamp: string } {
  return {
    time: formatInTimeZone(at, LONDON_TZ, "HH.mm"),
    date: formatInTimeZone(at, LONDON_TZ, "dd/MM/yyyy"),
    timestamp: formatInTimeZone(at, LONDON_TZ, "yyyy-MM-dd'T'HH:mm:ss.SSS"),
  };
}
