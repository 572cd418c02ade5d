import { isbot } from "isbot";
import { renderToReadableStream } from "react-dom/server";
import type { EntryContext, HandleErrorFunction, RouterContextProvider } from "react-router";
import { isRouteErrorResponse, ServerRouter } from "react-router";
import { cloudflareContext, scriptPolicyContext } from "./context";
import { ErrorReferenceProvider, errorReference, errorReferenceContext } from "./features/platform";
import { NonceContext } from "./nonce";
import { inlineScriptHashes } from "./middleware/security";
// Every feature's scopes, for loaders and actions. Only the server checks scopes: pages get what
// they may show as loader data, so the browser bundle carries no scope list or description.
import "./scopes";

export const streamTimeout = 5_000;

export default async function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: RouterContextProvider,
) {
  if (request.method.toUpperCase() === "HEAD") {
    return new Response(null, { status: responseStatusCode, headers: responseHeaders });
  }
  const policy = loadContext.get(scriptPolicyContext);
  // A page a shared cache may keep (the public pages for a cookieless visitor) is the same for
  // everyone: rendered without a nonce, whole, and its inline scripts allowed by their hashes.
  const shared = policy !== null && responseStatusCode === 200 && /^public\b/.test(responseHeaders.get("Cache-Control") ?? "");
  const nonce = shared ? undefined : loadContext.get(cloudflareContext).nonce;
  let shellRendered = false;
  const reference = loadContext.get(errorReferenceContext);
  const body = await renderToReadableStream(
    <ErrorReferenceProvider reference={reference}>
      <NonceContext.Provider value={nonce}>
        <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
      </NonceContext.Provider>
    </ErrorReferenceProvider>,
    {
      nonce,
      signal: AbortSignal.timeout(streamTimeout + 1000),
      onError(error: unknown) {
        responseStatusCode = 500;
        if (shellRendered) console.error(`[ref ${reference ?? "-"}] Streaming render failed`, error);
      },
    },
  );
  shellRendered = true;
  responseHeaders.set("Content-Type", "text/html; charset=utf-8");
  if (shared) {
    await body.allReady;
    const html = await new Response(body).text();
    policy.hashes = await inlineScriptHashes(html);
    return new Response(html, { headers: responseHeaders, status: responseStatusCode });
  }
  const userAgent = request.headers.get("user-agent");
  if ((userAgent && isbot(userAgent)) || routerContext.isSpaMode) await body.allReady;
  return new Response(body, { headers: responseHeaders, status: responseStatusCode });
}

/**
 * Every unexpected error is logged here with the request's reference, the one the error page
 * shows. Deliberate responses (thrown data(), redirects) are not errors and are not logged.
 */
export const handleError: HandleErrorFunction = (error, { request, context }) => {
  if (request.signal.aborted) return;
  if (isRouteErrorResponse(error)) return;
  const url = new URL(request.url);
  console.error(`[ref ${errorReference(context)}] ${request.method} ${url.host}${url.pathname}`, error);
};
