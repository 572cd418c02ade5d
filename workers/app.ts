import { createRequestHandler, RouterContextProvider } from "react-router";
import { cloudflareContext } from "../app/context";
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
    const context = new RouterContextProvider();
    context.set(cloudflareContext, { env, ctx, nonce: opts.nonce });
    const response = await requestHandler(request, context);
    return applySecurityHeaders(response, opts);
  },
  async queue(batch, env, _ctx) {
    await handleQueueBatch(batch, env);
  },
  async scheduled(controller, env, _ctx) {
    await handleScheduled(controller, env);
  },
} satisfies ExportedHandler<Env, unknown>;
