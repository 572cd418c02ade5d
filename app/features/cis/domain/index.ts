// The CIS rules engine: pure functions and types, no I/O. Runs in Workers and Node.

export * from "./money";
export * from "./calculation";
export * from "./tax-month";
export * from "./types";
export * from "./schemas";
export * from "./references";
export * from "./return-validation";
export * from "./compile-return";
export * from "./returns-due";
export * from "./penalties";
export * from "./nil-returns";
export * from "./public-bodies";
export * from "./scopes";
export * from "./scope-checklist";
export * from "./verification-fields";

export { base32Encode } from "./xml/base32";
export { canonicalize, type C14nOptions } from "./xml/c14n";
export { XmlParseError } from "./xml/dom";
export { irmark, irmarkCanonicalBody, setIRmark, withIRmark, verifyIRmark, IRmarkError, GOVTALK_ENVELOPE_NS, type IRmark } from "./xml/irmark";
export {
  HmrcInputError,
  isValidVerificationNumber,
  hmrcNameFromFullName,
  VERIFICATION_NUMBER_RE,
  AOREF_RE,
  CRN_RE,
  HMRC_NINO_RE,
  MAX_WHOLE_POUNDS,
  MAX_DEDUCTION_PENCE,
} from "./xml/hmrc-input";
export { newCorrelationId, IR_SENDER_TYPES, type GovTalkSender, type GovTalkProduct, type IRSenderType, type BuiltMessage } from "./xml/govtalk-envelope";
export {
  buildCis300,
  buildCis300Message,
  CIS_RETURN_NS,
  CIS300_CLASS,
  type Cis300Input,
  type Cis300Line,
  type Cis300Declarations,
  type HmrcName,
} from "./xml/cis300";
export {
  buildVerificationRequest,
  buildVerificationRequestMessage,
  hmrcSubcontractorType,
  CIS_REQUEST_NS,
  VERIFY_CLASS,
  MAX_VERIFICATION_SUBCONTRACTORS,
  VERIFICATION_ACTIONS,
  HMRC_SUBCONTRACTOR_TYPES,
  type VerificationRequestInput,
  type VerificationSubcontractor,
  type VerificationAction,
  type HmrcSubcontractorType,
} from "./xml/verification";
export { parseGovTalkResponse, type GovTalkResponse, type GovTalkError, type GovTalkQualifier, type VerifiedSubcontractor } from "./xml/govtalk-response";
