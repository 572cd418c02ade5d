import { createRequestHandler, RouterContextProvider } from "react-router";
// Queues and cron check scopes without loading the router: register them here too.
import "../app/scopes";
import { cloudflareContext } from "../app/context";
import { countingD1 } from "../app/db/instrument";
import { isDevelopment } from "../app/features/platform/flash.server";
import { applySecurityHeaders, checkSameOrigin, newNonce } from "../app/middleware/security";
import { handleScheduled } from "./cron";
import { handleQueueBatch } from "./queues";

export { ReturnLock } from "./durable-objects/return-lock";

const requestHandler = createRequestHandler(() => import("virtual:react-router/server-build"), import.meta.env.MODE);

export default {
  async fetch(request, env, ctx) {
    const url = new URL(request.url);
    const opts = { nonce: newNonce(), appDomain: env.APP_DOMAIN, development: isDevelopment(env) };
    // Liveness probe and the benchmark's baseline: no router, no D1.
    if (url.pathname === "/healthz") return applySecurityHeaders(new Response("ok", { headers: { "Content-Type": "text/plain" } }), opts);
    const refused = checkSameOrigin(request);
    if (refused) return applySecurityHeaders(refused, opts);
    // Outside production, count D1 round trips per request for developers and the benchmark.
    const counter = env.APP_ENV === "production" ? null : countingD1(env.DB);
    const requestEnv = counter ? { ...env, DB: counter.db } : env;
    const context = new RouterContextProvider();
    context.set(cloudflareContext, { env: requestEnv, ctx, nonce: opts.nonce });
    const response = await requestHandler(request, context);
    const secured = applySecurityHeaders(response, opts);
    if (counter) secured.headers.append("Server-Timing", `d1;desc="D1 queries";dur=${counter.queries()}`);
    return secured;
  },
  async queue(batch, env, _ctx) {
    await handleQueueBatch(batch, env);
  },
  async scheduled(controller, env, _ctx) {
    await handleScheduled(controller, env);
  },
} satisfies ExportedHandler<Env, unknown>;
