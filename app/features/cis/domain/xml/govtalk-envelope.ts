import { HmrcInputError, req } from "./hmrc-input";
import { GOVTALK_ENVELOPE_NS, withIRmark, type IRmark } from "./irmark";
import { serializeTree, x, type XmlTree } from "./xml-writer";

/**
 * Who is sending. HMRC's sample leaves SenderDetails empty (credentials are
 * added by the transport); when a Government Gateway user ID and password are
 * given they go in IDAuthentication with method 'clear', as the Transaction
 * Engine expects.
 */
export interface GovTalkSender {
  senderId?: string;
  password?: string;
  emailAddress?: string;
}

/** ChannelRouting: the software that built the message. vendorId is HMRC's 4-digit vendor ID (the sample's URI 0126). */
export interface GovTalkProduct {
  name: string;
  version: string;
  vendorId?: string;
}

export const IR_SENDER_TYPES = [
  "Individual",
  "Company",
  "Agent",
  "Bureau",
  "Partnership",
  "Trust",
  "Employer",
  "Government",
  "Acting in Capacity",
  "Other",
] as const;
export type IRSenderType = (typeof IR_SENDER_TYPES)[number];

export interface EnvelopeParts {
  messageClass: "IR-CIS-CIS300MR" | "IR-CIS-VERIFY";
  correlationId: unknown;
  gatewayTimestamp: unknown;
  sender?: GovTalkSender;
  product: GovTalkProduct;
  testInLive?: boolean;
  taxOfficeNumber: string;
  taxOfficeReference: string;
  /** The IRenvelope tree, with an empty IRmark element in its IRheader. */
  irEnvelope: XmlTree;
}

export interface BuiltMessage {
  xml: string;
  irmark: IRmark;
}

function senderDetails(sender: GovTalkSender | undefined): XmlTree {
  if (!sender || (sender.senderId === undefined && sender.password === undefined && sender.emailAddress === undefined)) {
    return x("SenderDetails");
  }
  const hasId = sender.senderId !== undefined && sender.senderId !== "";
  const hasPassword = sender.password !== undefined && sender.password !== "";
  if (hasId !== hasPassword) {
    throw new HmrcInputError(hasId ? "sender.password" : "sender.senderId", "sender ID and password go together");
  }
  let email: string | undefined;
  if (sender.emailAddress !== undefined && sender.emailAddress !== "") {
    email = req.string("sender.emailAddress", sender.emailAddress);
    if (!/^[^@'<>"]+@[^@'<>"]+$/.test(email) || email.length < 3 || email.length > 254) {
      throw new HmrcInputError("sender.emailAddress", "must be an e-mail address");
    }
  }
  return x("SenderDetails", [
    hasId &&
      x("IDAuthentication", [
        x("SenderID", req.nonEmpty("sender.senderId", sender.senderId, 64)),
        x("Authentication", [x("Method", "clear"), x("Role", "Principal"), x("Value", req.nonEmpty("sender.password", sender.password, 256))]),
      ]),
    email !== undefined && x("EmailAddress", email),
  ]);
}

export function irHeader(opts: {
  taxOfficeNumber: string;
  taxOfficeReference: string;
  periodEnd: string;
  namespace: string;
  topElementName: string;
  senderType?: unknown;
}): XmlTree {
  const senderType = opts.senderType ?? "Company";
  if (!(IR_SENDER_TYPES as readonly unknown[]).includes(senderType)) {
    throw new HmrcInputError("senderType", `must be one of ${IR_SENDER_TYPES.join(", ")}`);
  }
  return x("IRheader", [
    x("Keys", [x("Key", opts.taxOfficeNumber, { Type: "TaxOfficeNumber" }), x("Key", opts.taxOfficeReference, { Type: "TaxOfficeReference" })]),
    x("PeriodEnd", opts.periodEnd),
    x("DefaultCurrency", "GBP"),
    x("Manifest", [
      x("Contains", [x("Reference", [x("Namespace", opts.namespace), x("SchemaVersion", "2005-v1.1"), x("TopElementName", opts.topElementName)])]),
    ]),
    // Empty while hashing: the IRmark element is excluded from its own digest.
    x("IRmark", "", { Type: "generic" }),
    x("Sender", senderType as string),
  ]);
}

/** What every contractor message (CIS300 return, verification request) carries besides its body. */
export interface ContractorMessageInput {
  /** '123/AB12345': tax office number and reference. */
  employerRef: string;
  accountsOfficeRef: string;
  contractorUtr: string;
  /** IRheader PeriodEnd: the 5th that ends the tax month, 'YYYY-MM-05'. */
  periodEnd: string;
  sender?: GovTalkSender;
  /** IRheader Sender; defaults to 'Company'. */
  senderType?: IRSenderType;
  correlationId: string;
  gatewayTimestamp: Date | string;
  product: GovTalkProduct;
  /** Sends GatewayTest 1: HMRC's Test in Live service. */
  testInLive?: boolean;
}

/** The contractor's identifiers, checked against HMRC's patterns, and the Contractor element built from them. */
export function contractorIdentity(input: ContractorMessageInput) {
  if (typeof input !== "object" || input === null) throw new HmrcInputError("input", "is required");
  const { taxOfficeNumber, taxOfficeReference } = req.employerRef("employerRef", input.employerRef);
  const aoRef = req.aoRef("accountsOfficeRef", input.accountsOfficeRef);
  const utr = req.utr("contractorUtr", input.contractorUtr);
  const period = req.isoDate("periodEnd", input.periodEnd);
  return { taxOfficeNumber, taxOfficeReference, period, contractor: x("Contractor", [x("UTR", utr), x("AOref", aoRef)]) };
}

export type ContractorIdentity = ReturnType<typeof contractorIdentity>;

/**
 * Puts a message body (CISreturn or CISrequest, named by `topElementName`) in its IRenvelope
 * under the IRheader, then in the GovTalk submission with the IRmark filled in.
 */
export function buildContractorMessage(
  input: ContractorMessageInput,
  identity: ContractorIdentity,
  body: { messageClass: EnvelopeParts["messageClass"]; namespace: string; topElementName: string; content: XmlTree[] },
): Promise<BuiltMessage> {
  const { taxOfficeNumber, taxOfficeReference } = identity;
  const irEnvelope = x(
    "IRenvelope",
    [
      irHeader({
        taxOfficeNumber,
        taxOfficeReference,
        periodEnd: identity.period.text,
        namespace: body.namespace,
        topElementName: body.topElementName,
        senderType: input.senderType,
      }),
      x(body.topElementName, body.content),
    ],
    { xmlns: body.namespace },
  );
  return buildGovTalkMessage({
    messageClass: body.messageClass,
    correlationId: input.correlationId,
    gatewayTimestamp: input.gatewayTimestamp,
    sender: input.sender,
    product: input.product,
    testInLive: input.testInLive,
    taxOfficeNumber,
    taxOfficeReference,
    irEnvelope,
  });
}

/** Wraps an IRenvelope in a GovTalk submission and fills in the IRmark. */
export async function buildGovTalkMessage(parts: EnvelopeParts): Promise<BuiltMessage> {
  const correlationId = req.correlationId("correlationId", parts.correlationId);
  const timestamp = req.timestamp("gatewayTimestamp", parts.gatewayTimestamp);
  if (!parts.product || typeof parts.product !== "object") throw new HmrcInputError("product", "is required");
  const productName = req.nonEmpty("product.name", parts.product.name, 100);
  const productVersion = req.nonEmpty("product.version", parts.product.version, 20);
  let vendorId: string | undefined;
  if (parts.product.vendorId !== undefined) {
    vendorId = req.string("product.vendorId", parts.product.vendorId);
    if (!/^[0-9]{4}$/.test(vendorId)) throw new HmrcInputError("product.vendorId", "must be HMRC's 4-digit vendor ID");
  }

  const message = x(
    "GovTalkMessage",
    [
      x("EnvelopeVersion", "2.0"),
      x("Header", [
        x("MessageDetails", [
          x("Class", parts.messageClass),
          x("Qualifier", "request"),
          x("Function", "submit"),
          x("CorrelationID", correlationId),
          x("Transformation", "XML"),
          parts.testInLive === true && x("GatewayTest", "1"),
          x("GatewayTimestamp", timestamp),
        ]),
        senderDetails(parts.sender),
      ]),
      x("GovTalkDetails", [
        // HMRC rejects the message (5005) unless these equal the IRheader keys.
        x("Keys", [x("Key", parts.taxOfficeNumber, { Type: "TaxOfficeNumber" }), x("Key", parts.taxOfficeReference, { Type: "TaxOfficeReference" })]),
        x("TargetDetails", [x("Organisation", "IR")]),
        x("ChannelRouting", [
          x("Channel", [vendorId !== undefined ? x("URI", vendorId) : x("Name", productName), x("Product", productName), x("Version", productVersion)]),
        ]),
      ]),
      x("Body", [parts.irEnvelope]),
    ],
    { xmlns: GOVTALK_ENVELOPE_NS },
  );

  const unsigned = `<?xml version="1.0" encoding="UTF-8"?>\n${serializeTree(message)}\n`;
  return withIRmark(unsigned);
}

/** A fresh CorrelationID: 32 upper-case hex characters. */
export function newCorrelationId(): string {
  return crypto.randomUUID().replace(/-/g, "").toUpperCase();
}
