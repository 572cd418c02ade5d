import { isbot } from "isbot";
import { renderToReadableStream } from "react-dom/server";
import type { EntryContext, HandleErrorFunction, RouterContextProvider } from "react-router";
import { isRouteErrorResponse, ServerRouter } from "react-router";
import { cloudflareContext } from "./context";
import { ErrorReferenceProvider, errorReference, errorReferenceContext } from "./features/platform/error-reference";

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
  const { nonce } = loadContext.get(cloudflareContext);
  let shellRendered = false;
  const reference = loadContext.get(errorReferenceContext);
  const body = await renderToReadableStream(
    <ErrorReferenceProvider reference={reference}>
      <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
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
  const userAgent = request.headers.get("user-agent");
  if ((userAgent && isbot(userAgent)) || routerContext.isSpaMode) await body.allReady;
  responseHeaders.set("Content-Type", "text/html; charset=utf-8");
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
