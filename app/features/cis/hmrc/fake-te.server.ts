/**
 * The development Transaction Engine: stands in for HMRC where developer tools are on
 * (development and the tests), answering with HMRC's own sample messages (third_party/hmrc).
 *
 * It checks what it receives as HMRC would at the points that matter to us: a GovTalk message
 * of a CIS class with its IRenvelope in the right namespace (structure; the full XSD check
 * runs in the unit tests, libxml2 is not part of the Worker), Government Gateway credentials
 * present, the IRmark recomputed (2021 when wrong) and the GovTalkDetails keys equal to the
 * IRheader keys (5005 when not). Answers:
 *
 * - submission: acknowledgement with a correlation id, ResponseEndPoint /dev/hmrc/poll and a
 *   poll interval of 1 second (HMRC's sample says 10; a second keeps development brisk);
 * - poll: the final answer, decided when the submission arrived: success with an IRmark receipt
 *   quoting the message's own IRmark, a verification response, or a business error; in mode
 *   'slow' one more acknowledgement first;
 * - delete request: a delete response.
 *
 * Verification answers are derived from the request, by the subcontractor's UTR: last digit 0
 * is matched and paid gross, last digit 9 is unmatched (higher rate, a verification number with
 * suffix A), anything else (or no UTR) is matched and paid net. The number is V plus ten digits
 * derived from a SHA-256 of the UTR (fakeVerificationNumber), so the same subcontractor always
 * gets the same answer and the number does not spell out the UTR (real numbers never do).
 *
 * Business errors are switched on per employer reference on /dev/hmrc. Nothing here stores a
 * password: messages are kept with their credential values blanked. They name UTRs and NINOs,
 * so they are kept encrypted like the gateway's own copy (stored-xml.server.ts).
 */
import { desc, eq } from "drizzle-orm";
import { globalDb } from "~/db/client.server";
import { devHmrcMessages, devHmrcModes } from "~/db/schema";
import { devToolsEnabled } from "~/features/platform/index.server";
import { newId } from "~/utils/ids";
import { CIS_RETURN_NS } from "../domain/xml/cis300";
import { children, nonBlankText, parseXml, path, child } from "../domain/xml/dom";
import { escapeXml } from "../domain/xml/hmrc-input";
import { irmark as computeIRmark, verifyIRmark } from "../domain/xml/irmark";
import { CIS_REQUEST_NS } from "../domain/xml/verification";
import { hmrcReceiptTimes, messageFacts, withoutCredentials, type MessageFacts } from "./protocol";
import { devMessageXmlContext, openXml, openXmlOrNull, sealXml, sealXmlOrNull } from "./stored-xml.server";
import ackSample from "../../../../third_party/hmrc/responses/poll-acknowledgement.xml?raw";
import pollErrorSample from "../../../../third_party/hmrc/responses/poll-business-error.xml?raw";
import businessErrorSample from "../../../../third_party/hmrc/responses/return-business-error.xml?raw";
import irmarkMismatchSample from "../../../../third_party/hmrc/responses/return-irmark-mismatch.xml?raw";
import successSample from "../../../../third_party/hmrc/responses/return-success.xml?raw";
import verifySample from "../../../../third_party/hmrc/responses/verify-success.xml?raw";

export const FAKE_POLL_INTERVAL_SECONDS = 1;
import type { DevHmrcMode } from "./codes";

const CLASSES: Record<string, { namespace: string; element: string }> = {
  "IR-CIS-CIS300MR": { namespace: CIS_RETURN_NS, element: "CISreturn" },
  "IR-CIS-VERIFY": { namespace: CIS_REQUEST_NS, element: "CISrequest" },
};

const xmlResponse = (xml: string, status = 200) => new Response(xml, { status, headers: { "Content-Type": "text/xml; charset=UTF-8" } });

/**
 * The sample with our correlation id (and class) in its MessageDetails, and a ResponseEndPoint
 * that names this fake (the samples name the HMRC test host they were captured on).
 */
function withDetails(sample: string, opts: { correlationId: string; messageClass?: string | null; origin?: string }): string {
  let xml = sample.replace(/<CorrelationID>[^<]*<\/CorrelationID>/, `<CorrelationID>${escapeXml(opts.correlationId)}</CorrelationID>`);
  if (!/<CorrelationID>/.test(xml)) {
    xml = xml.replace(/(<Qualifier>[^<]*<\/Qualifier>)/, `$1\n      <CorrelationID>${escapeXml(opts.correlationId)}</CorrelationID>`);
  }
  if (opts.messageClass) {
    if (/<Class>[^<]*<\/Class>/.test(xml)) xml = xml.replace(/<Class>[^<]*<\/Class>/, `<Class>${escapeXml(opts.messageClass)}</Class>`);
    else xml = xml.replace(/(<MessageDetails>)/, `$1\n      <Class>${escapeXml(opts.messageClass)}</Class>`);
  }
  if (opts.origin) {
    xml = xml.replace(/(<ResponseEndPoint\b[^>]*>)https?:\/\/[^<]*(<\/ResponseEndPoint>)/, `$1${opts.origin}/dev/hmrc/submission$2`);
  }
  return xml;
}

function acknowledgement(origin: string, correlationId: string, messageClass: string | null): string {
  return withDetails(ackSample, { correlationId, messageClass }).replace(
    /<ResponseEndPoint[^>]*>[^<]*<\/ResponseEndPoint>/,
    `<ResponseEndPoint PollInterval="${FAKE_POLL_INTERVAL_SECONDS}">${origin}/dev/hmrc/poll</ResponseEndPoint>`,
  );
}

/** A GovTalk error answer of our own, for failures HMRC's samples do not cover (bad XML, no credentials). */
function errorAnswer(correlationId: string, number: number, type: "fatal" | "business", text: string): string {
  return [
    `<?xml version="1.0" encoding="UTF-8"?>`,
    `<GovTalkMessage xmlns="http://www.govtalk.gov.uk/CM/envelope">`,
    `  <EnvelopeVersion>2.0</EnvelopeVersion>`,
    `  <Header><MessageDetails><Qualifier>error</Qualifier><Function>submit</Function><CorrelationID>${escapeXml(correlationId)}</CorrelationID><ResponseEndPoint/></MessageDetails></Header>`,
    `  <GovTalkDetails><Keys/><GovTalkErrors><Error><RaisedBy>Gateway</RaisedBy><Number>${number}</Number><Type>${type}</Type><Text>${escapeXml(text)}</Text><Location></Location></Error></GovTalkErrors></GovTalkDetails>`,
    `</GovTalkMessage>`,
  ].join("\n");
}

function deleteAnswer(correlationId: string, messageClass: string | null): string {
  return [
    `<?xml version="1.0" encoding="UTF-8"?>`,
    `<GovTalkMessage xmlns="http://www.govtalk.gov.uk/CM/envelope">`,
    `  <EnvelopeVersion>2.0</EnvelopeVersion>`,
    `  <Header><MessageDetails><Class>${escapeXml(messageClass ?? "")}</Class><Qualifier>response</Qualifier><Function>delete</Function><CorrelationID>${escapeXml(correlationId)}</CorrelationID><ResponseEndPoint/></MessageDetails></Header>`,
    `  <GovTalkDetails><Keys/></GovTalkDetails>`,
    `  <Body/>`,
    `</GovTalkMessage>`,
  ].join("\n");
}

/**
 * The sample's answer for this message: its receipt sentence quoting the message's IRmark, employer
 * reference and the time it arrived, and AcceptedTime and GatewayTimestamp at that time, all on the
 * London wall clock in HMRC's formats. Nothing else of the sample changes.
 */
async function successAnswer(sample: string, xml: string, facts: MessageFacts, correlationId: string, receivedAt: Date): Promise<string> {
  const mark = await computeIRmark(xml);
  const ref = `${facts.irHeaderKeys.TaxOfficeNumber ?? ""}/${facts.irHeaderKeys.TaxOfficeReference ?? ""}`;
  const at = hmrcReceiptTimes(receivedAt);
  return withDetails(sample, { correlationId })
    .replace(/The associated IRmark was: [A-Z2-7]{32}/, `The associated IRmark was: ${mark.base32}`)
    .replace(/document ref: [^ ]+ at \d{2}\.\d{2} on \d{2}\/\d{2}\/\d{4}\./, `document ref: ${escapeXml(ref)} at ${at.time} on ${at.date}.`)
    .replace(/<AcceptedTime>[^<]*<\/AcceptedTime>/, `<AcceptedTime>${at.timestamp}</AcceptedTime>`)
    .replace(/<GatewayTimestamp>[^<]*<\/GatewayTimestamp>/, `<GatewayTimestamp>${at.timestamp}</GatewayTimestamp>`);
}

/** The fake's verification number for a UTR: V, ten digits from a SHA-256 of the UTR, and A when unmatched. */
export async function fakeVerificationNumber(utr: string | null, unmatched: boolean): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(`fake-verification|${utr ?? ""}`)));
  const digits = [...digest.slice(0, 10)].map((b) => String(b % 10)).join("");
  return `V${digits}${unmatched ? "A" : ""}`;
}

/** Deterministic verification results for the request's subcontractors (see the module comment). */
async function verificationAnswer(base: string, xml: string): Promise<string> {
  const request = path(parseXml(xml).documentElement, "Body", "IRenvelope", "CISrequest");
  const contractor = child(request, "Contractor");
  const numbers = new Map<string, string>();
  for (const sub of children(request, "Subcontractor")) {
    const utr = nonBlankText(child(sub, "UTR")) ?? null;
    const last = utr ? utr[utr.length - 1] : "";
    numbers.set(utr ?? "", await fakeVerificationNumber(utr, last === "9"));
  }
  const subs = children(request, "Subcontractor").map((sub) => {
    const utr = nonBlankText(child(sub, "UTR"));
    const nino = nonBlankText(child(sub, "NINO"));
    const crn = nonBlankText(child(sub, "CRN"));
    const name = child(sub, "Name");
    const trading = nonBlankText(child(sub, "TradingName"));
    const last = utr ? utr[utr.length - 1] : "";
    const [matched, treatment] = last === "0" ? ["Y", "gross"] : last === "9" ? ["N", "unmatched"] : ["Y", "net"];
    const number = numbers.get(utr ?? "") as string;
    const nameXml = name
      ? `<Name>${children(name, "Fore")
          .map((f) => `<Fore>${escapeXml(f.textContent ?? "")}</Fore>`)
          .join("")}<Sur>${escapeXml(nonBlankText(child(name, "Sur")) ?? "")}</Sur></Name>`
      : "";
    return [
      "<Subcontractor>",
      nameXml,
      trading ? `<TradingName>${escapeXml(trading)}</TradingName>` : "",
      utr ? `<UTR>${escapeXml(utr)}</UTR>` : "",
      crn ? `<CRN>${escapeXml(crn)}</CRN>` : "",
      nino ? `<NINO>${escapeXml(nino)}</NINO>` : "",
      `<Matched>${matched}</Matched><TaxTreatment>${treatment}</TaxTreatment><VerificationNumber>${number}</VerificationNumber>`,
      "</Subcontractor>",
    ].join("");
  });
  const contractorXml = `<Contractor><UTR>${escapeXml(nonBlankText(child(contractor, "UTR")) ?? "")}</UTR><AOref>${escapeXml(nonBlankText(child(contractor, "AOref")) ?? "")}</AOref></Contractor>`;
  return base.replace(/<Contractor>[\s\S]*<\/Subcontractor>/, `${contractorXml}${subs.join("")}`);
}

async function record(env: Env, row: Omit<typeof devHmrcMessages.$inferInsert, "id" | "createdAt">, at: Date = new Date()): Promise<void> {
  const id = newId();
  await globalDb(env)
    .insert(devHmrcMessages)
    .values({
      id,
      createdAt: at.getTime(),
      ...row,
      requestXml: await sealXml(env, withoutCredentials(row.requestXml), devMessageXmlContext(id, "request_xml")),
      responseXml: await sealXml(env, row.responseXml, devMessageXmlContext(id, "response_xml")),
      finalResponseXml: await sealXmlOrNull(env, row.finalResponseXml, devMessageXmlContext(id, "final_response_xml")),
    });
}

type DevHmrcMessageRow = typeof devHmrcMessages.$inferSelect;

/** A logged message with its XML readable (legacy plaintext rows read as they are). */
async function opened(env: Env, row: DevHmrcMessageRow): Promise<DevHmrcMessageRow> {
  return {
    ...row,
    requestXml: await openXml(env, row.requestXml, devMessageXmlContext(row.id, "request_xml")),
    responseXml: await openXml(env, row.responseXml, devMessageXmlContext(row.id, "response_xml")),
    finalResponseXml: await openXmlOrNull(env, row.finalResponseXml, devMessageXmlContext(row.id, "final_response_xml")),
  };
}

/** What the fake received and answered for one correlation id, oldest first, readable. */
export async function readDevHmrcMessages(env: Env, correlationId: string): Promise<DevHmrcMessageRow[]> {
  const rows = await globalDb(env).select().from(devHmrcMessages).where(eq(devHmrcMessages.correlationId, correlationId)).orderBy(devHmrcMessages.createdAt);
  return Promise.all(rows.map((r) => opened(env, r)));
}

export async function devHmrcMode(env: Env, employerRef: string): Promise<DevHmrcMode> {
  const [row] = await globalDb(env).select().from(devHmrcModes).where(eq(devHmrcModes.employerRef, employerRef)).limit(1);
  return row?.mode ?? "accept";
}

export async function setDevHmrcMode(env: Env, employerRef: string, mode: DevHmrcMode): Promise<void> {
  const now = Date.now();
  await globalDb(env)
    .insert(devHmrcModes)
    .values({ employerRef, mode, updatedAt: now })
    .onConflictDoUpdate({ target: devHmrcModes.employerRef, set: { mode, updatedAt: now } });
}

export async function listDevHmrc(env: Env, limit = 50) {
  const db = globalDb(env);
  const [messages, modes] = await db.batch([
    db.select().from(devHmrcMessages).orderBy(desc(devHmrcMessages.createdAt)).limit(limit),
    db.select().from(devHmrcModes).orderBy(devHmrcModes.employerRef),
  ]);
  return { messages: await Promise.all(messages.map((m) => opened(env, m))), modes };
}

async function receiveSubmission(env: Env, origin: string, xml: string, facts: MessageFacts): Promise<Response> {
  const receivedAt = new Date();
  const correlationId = facts.correlationId ?? crypto.randomUUID().replace(/-/g, "").toUpperCase();
  const employerRef = `${facts.govTalkKeys.TaxOfficeNumber ?? ""}/${facts.govTalkKeys.TaxOfficeReference ?? ""}`;
  const base = { correlationId, messageClass: facts.messageClass, qualifier: facts.qualifier, function: facts.function, employerRef, requestXml: xml };

  const expected = facts.messageClass ? CLASSES[facts.messageClass] : undefined;
  const structural =
    facts.rootNamespace !== "http://www.govtalk.gov.uk/CM/envelope"
      ? "The message is not in the GovTalk envelope namespace"
      : !expected
        ? `Unknown message class ${facts.messageClass ?? "(none)"}`
        : facts.bodyNamespace !== expected.namespace || facts.bodyElement !== expected.element
          ? `The Body does not hold a ${expected.element} in ${expected.namespace}`
          : null;
  if (structural) {
    const answer = errorAnswer(correlationId, 3000, "fatal", `The submitted XML document failed validation: ${structural}`);
    await record(env, { ...base, responseXml: answer, outcome: "schema_error" });
    return xmlResponse(answer);
  }
  if (!facts.senderId || !facts.hasPassword) {
    const answer = errorAnswer(
      correlationId,
      1046,
      "fatal",
      "Authentication Failure. The supplied user credentials failed validation for the requested service.",
    );
    await record(env, { ...base, responseXml: answer, outcome: "authentication_failure" });
    return xmlResponse(answer);
  }

  let finalXml: string;
  let outcome: string;
  const keysMatch =
    facts.govTalkKeys.TaxOfficeNumber === facts.irHeaderKeys.TaxOfficeNumber && facts.govTalkKeys.TaxOfficeReference === facts.irHeaderKeys.TaxOfficeReference;
  const mode = await devHmrcMode(env, employerRef);
  if (!(await verifyIRmark(xml))) {
    finalXml = withDetails(irmarkMismatchSample, { correlationId, messageClass: facts.messageClass, origin });
    outcome = "irmark_mismatch";
  } else if (!keysMatch || mode === "business_error") {
    finalXml = withDetails(businessErrorSample, { correlationId, messageClass: facts.messageClass, origin });
    outcome = "business_error";
  } else if (facts.messageClass === "IR-CIS-VERIFY") {
    finalXml = await verificationAnswer(await successAnswer(verifySample, xml, facts, correlationId, receivedAt), xml);
    outcome = "accepted";
  } else {
    finalXml = await successAnswer(successSample, xml, facts, correlationId, receivedAt);
    outcome = "accepted";
  }
  const answer = acknowledgement(origin, correlationId, facts.messageClass);
  await record(env, { ...base, responseXml: answer, outcome, finalResponseXml: finalXml, pendingPolls: mode === "slow" ? 1 : 0 }, receivedAt);
  return xmlResponse(answer);
}

async function receivePoll(env: Env, origin: string, xml: string, facts: MessageFacts): Promise<Response> {
  const correlationId = facts.correlationId ?? "";
  const db = globalDb(env);
  const [found] = correlationId
    ? await db.select().from(devHmrcMessages).where(eq(devHmrcMessages.correlationId, correlationId)).orderBy(devHmrcMessages.createdAt).limit(1)
    : [];
  const submission = found ? await opened(env, found) : undefined;
  const base = { correlationId, messageClass: facts.messageClass, qualifier: facts.qualifier, function: facts.function, employerRef: null, requestXml: xml };
  if (!submission?.finalResponseXml) {
    const answer = withDetails(pollErrorSample, { correlationId });
    await record(env, { ...base, responseXml: answer, outcome: "unknown_correlation_id" });
    return xmlResponse(answer);
  }
  if (submission.pendingPolls > 0) {
    await db
      .update(devHmrcMessages)
      .set({ pendingPolls: submission.pendingPolls - 1 })
      .where(eq(devHmrcMessages.id, submission.id));
    const answer = acknowledgement(origin, correlationId, facts.messageClass);
    await record(env, { ...base, responseXml: answer, outcome: "not_ready" });
    return xmlResponse(answer);
  }
  await record(env, { ...base, responseXml: submission.finalResponseXml, outcome: submission.outcome });
  return xmlResponse(submission.finalResponseXml);
}

/**
 * One request to the development Transaction Engine, whether it came over HTTP (/dev/hmrc/submission,
 * /dev/hmrc/poll) or from the fake transport in-process. Outside development it does not exist.
 */
export async function handleFakeTransactionEngine(env: Env, request: Request): Promise<Response> {
  if (!devToolsEnabled(env)) return new Response("Not found", { status: 404 });
  const url = new URL(request.url);
  if (request.method !== "POST") return new Response("Method not allowed", { status: 405, headers: { Allow: "POST" } });
  const xml = await request.text();
  let facts: MessageFacts;
  try {
    facts = messageFacts(xml);
  } catch {
    const answer = errorAnswer("", 3000, "fatal", "The submitted XML document is not well formed");
    await record(env, { requestXml: xml.slice(0, 100_000), responseXml: answer, outcome: "schema_error" });
    return xmlResponse(answer);
  }
  if (facts.function === "delete") {
    const answer = deleteAnswer(facts.correlationId ?? "", facts.messageClass);
    await record(env, {
      correlationId: facts.correlationId,
      messageClass: facts.messageClass,
      qualifier: facts.qualifier,
      function: facts.function,
      requestXml: xml,
      responseXml: answer,
      outcome: "deleted",
    });
    return xmlResponse(answer);
  }
  if (url.pathname.endsWith("/poll") || facts.qualifier === "poll") return receivePoll(env, url.origin, xml, facts);
  return receiveSubmission(env, url.origin, xml, facts);
}
