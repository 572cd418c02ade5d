// First: modules evaluated after this one get the short-string encoder (ADR 0083).
import "./text-encoder";
import { createRequestHandler, RouterContextProvider } from "react-router";
// Queues and cron check scopes without loading the router: register them here too.
import "../app/scopes";
import "../app/jobs.server";
import { cloudflareContext, scriptPolicyContext, type ScriptPolicy } from "../app/context";
import { countRequest, requestCountedD1 } from "../app/db/instrument";
import { devToolsEnabled, isDevelopment, requestEnvironment } from "../app/features/platform/index.server";
import { errorReferenceContext, newErrorReference } from "../app/features/platform";
import { applySecurityHeaders, checkSameOrigin, newNonce } from "../app/middleware/security";
import { handleScheduled } from "./cron";
import { handleQueueBatch } from "./queues";

export { ReturnLock } from "./durable-objects/return-lock";
export { ChatRoom } from "./durable-objects/chat-room";

const build = () => import("virtual:react-router/server-build");

type Handlers = { development: ReturnType<typeof createRequestHandler>; production: ReturnType<typeof createRequestHandler> };

// React Router puts thrown errors' messages and stacks into the page only in its development
// mode; every request that is not local development gets the sanitising production mode.
// Given a function, React Router imports the build and derives its route tree again on every
// request (so Vite's dev server can swap code): a built worker hands it the loaded build once,
// which took a tenth of a page's CPU in the profile.
const devServerHandlers: Handlers = { development: createRequestHandler(build, "development"), production: createRequestHandler(build, "production") };
let handlers: Promise<Handlers> | null = null;
function requestHandlers(): Promise<Handlers> {
  if (import.meta.env.DEV) return Promise.resolve(devServerHandlers);
  handlers ??= build().then(
    (loaded) => ({ development: createRequestHandler(loaded, "development"), production: createRequestHandler(loaded, "production") }),
    (err: unknown) => {
      handlers = null;
      throw err;
    },
  );
  return handlers;
}

export default {
  async fetch(request, rawEnv, ctx) {
    // A development APP_ENV on a real host is production for this request (ADR 0010).
    const env = requestEnvironment(rawEnv, request);
    const url = new URL(request.url);
    const development = isDevelopment(env, request);
    const opts = { nonce: newNonce(), appDomain: env.APP_DOMAIN, development };
    // Liveness probe and the benchmark's baseline: no router, no D1.
    if (url.pathname === "/healthz") return applySecurityHeaders(new Response("ok", { headers: { "Content-Type": "text/plain" } }), opts);
    const refused = checkSameOrigin(request);
    if (refused) return applySecurityHeaders(refused, opts);
    // In development and the tests, count D1 round trips per request for developers and the benchmark:
    // through one counting binding per isolate (the drizzle instance kept per binding stays warm),
    // with this request's own tally.
    const counting = devToolsEnabled(env, request);
    const requestEnv = counting ? { ...env, DB: requestCountedD1(env.DB) } : env;
    const context = new RouterContextProvider();
    context.set(cloudflareContext, { env: requestEnv, ctx, nonce: opts.nonce });
    context.set(errorReferenceContext, newErrorReference());
    // Development allows inline scripts anyway (Vite's); elsewhere a cacheable page reports its script hashes here.
    const scripts: ScriptPolicy = { hashes: null };
    if (!development) context.set(scriptPolicyContext, scripts);
    const handler = await requestHandlers();
    const serve = () => (development ? handler.development : handler.production)(request, context);
    const { result: response, queries, rowsRead } = counting ? await countRequest(serve) : { result: await serve(), queries: 0, rowsRead: 0 };
    // A chat socket handed over to its room's Durable Object: the upgrade passes through untouched.
    if (response.status === 101 && response.webSocket) return response;
    const secured = applySecurityHeaders(response, { ...opts, scriptHashes: scripts.hashes });
    if (counting) secured.headers.append("Server-Timing", `d1;desc="D1 queries";dur=${queries}`);
    if (counting) secured.headers.append("Server-Timing", `d1rows;desc="D1 rows read";dur=${rowsRead}`);
    return secured;
  },
  async queue(batch, env, _ctx) {
    await handleQueueBatch(batch, env);
  },
  async scheduled(controller, env, _ctx) {
    await handleScheduled(controller, env);
  },
} satisfies ExportedHandler<Env, unknown>;
