/**
 * How GovTalk messages reach HMRC's Transaction Engine, chosen by HMRC_TRANSPORT (ADR 0022):
 *
 * - fake: the development Transaction Engine inside this Worker (called in-process with a real
 *   Request, no network); only where developer tools are on. The default there when unset.
 * - test: HMRC's External Test Service (test credentials from HMRC's Software Developer Support Team).
 * - live: HMRC's live service. Test in Live is this service with GatewayTest 1 in the message.
 *
 * A missing or unknown value outside development refuses to send: nothing goes to HMRC by accident.
 */
import { devToolsEnabled } from "~/features/platform/index.server";
import { handleFakeTransactionEngine } from "./fake-te.server";
import type { Result } from "~/utils/result";

export const HMRC_TRANSPORTS = ["fake", "test", "live"] as const;
export type HmrcTransportName = (typeof HMRC_TRANSPORTS)[number];

/** HMRC's published Transaction Engine addresses: submissions (and delete requests) and polls. */
export const HMRC_ENDPOINTS = {
  test: { submission: "https://test-transaction-engine.tax.service.gov.uk/submission", poll: "https://test-transaction-engine.tax.service.gov.uk/poll" },
  live: { submission: "https://transaction-engine.tax.service.gov.uk/submission", poll: "https://transaction-engine.tax.service.gov.uk/poll" },
} as const;

export const FAKE_SUBMISSION_PATH = "/dev/hmrc/submission";
export const FAKE_POLL_PATH = "/dev/hmrc/poll";

export interface HmrcTransport {
  readonly name: HmrcTransportName;
  readonly submissionUrl: string;
  /** POSTs the message and returns the answer's text; throws HmrcTransportError when no GovTalk answer came back. */
  post(url: string, xml: string): Promise<string>;
  /**
   * The URL to poll (or send a delete request to) from HMRC's ResponseEndPoint. Only addresses on the
   * configured service are followed: an answer cannot point our requests somewhere else.
   */
  endpoint(responseEndPoint: string | null, fallback: "submission" | "poll"): string;
}

/** No usable answer (network failure, HTTP error): worth retrying. */
export class HmrcTransportError extends Error {
  override name = "HmrcTransportError";
}

export type TransportChoice = Result<{ transport: HmrcTransport }, "transport_not_configured">;

/** The configured transport's name, or null when this deployment must not send at all. */
export function hmrcTransportName(env: Pick<Env, "APP_ENV" | "APP_DOMAIN"> & { HMRC_TRANSPORT?: string }): HmrcTransportName | null {
  const raw = (env.HMRC_TRANSPORT ?? "").trim();
  const dev = devToolsEnabled(env);
  if (raw === "") return dev ? "fake" : null;
  if (raw === "fake") return dev ? "fake" : null;
  if (raw === "test" || raw === "live") return raw;
  return null;
}

type FetchFn = (input: Request) => Promise<Response>;

function sameService(base: string, candidate: string): boolean {
  const a = new URL(base);
  const b = new URL(candidate);
  return a.protocol === b.protocol && a.host === b.host;
}

function resolveOn(base: { submission: string; poll: string }, responseEndPoint: string | null, fallback: "submission" | "poll"): string {
  const given = responseEndPoint?.trim();
  if (!given) return base[fallback];
  let url: string;
  try {
    url = new URL(given, base.submission).toString();
  } catch {
    throw new HmrcTransportError("HMRC gave a ResponseEndPoint that is not a URL");
  }
  if (!sameService(base.submission, url)) throw new HmrcTransportError("HMRC gave a ResponseEndPoint on another host");
  return url;
}

async function postXml(fetchFn: FetchFn, url: string, xml: string): Promise<string> {
  let res: Response;
  try {
    res = await fetchFn(new Request(url, { method: "POST", headers: { "Content-Type": "text/xml; charset=UTF-8", Accept: "text/xml" }, body: xml }));
  } catch (err) {
    throw new HmrcTransportError(`The Transaction Engine could not be reached: ${err instanceof Error ? err.message : String(err)}`);
  }
  const text = await res.text();
  // The Transaction Engine answers protocol and business errors with a GovTalk message; anything else is a transport failure.
  if (!res.ok && !text.includes("GovTalkMessage")) throw new HmrcTransportError(`The Transaction Engine answered HTTP ${res.status}`);
  return text;
}

/** HMRC's Transaction Engine over HTTPS. `fetchFn` is only replaced by tests, at this edge. */
export function httpTransport(name: "test" | "live", fetchFn: FetchFn = (r) => fetch(r)): HmrcTransport {
  const base = HMRC_ENDPOINTS[name];
  return {
    name,
    submissionUrl: base.submission,
    post: (url, xml) => postXml(fetchFn, url, xml),
    endpoint: (rep, fallback) => resolveOn(base, rep, fallback),
  };
}

/** The development Transaction Engine, reached in-process: the same Request and Response as over HTTP, without a network. */
export function fakeTransport(env: Env): HmrcTransport {
  const origin = `http://${env.APP_DOMAIN}`;
  const base = { submission: `${origin}${FAKE_SUBMISSION_PATH}`, poll: `${origin}${FAKE_POLL_PATH}` };
  return {
    name: "fake",
    submissionUrl: base.submission,
    post: (url, xml) => postXml((req) => handleFakeTransactionEngine(env, req), url, xml),
    endpoint: (rep, fallback) => resolveOn(base, rep, fallback),
  };
}

export function chooseHmrcTransport(env: Env): TransportChoice {
  const name = hmrcTransportName(env);
  if (name === null) return { ok: false, code: "transport_not_configured" };
  return { ok: true, transport: name === "fake" ? fakeTransport(env) : httpTransport(name) };
}
