import { data, type RouterContextProvider } from "react-router";
import { cloudflareContext, tenantContext, type SessionUser } from "~/context";
import { clientIp } from "~/features/platform/index.server";
import { MODULE_CATALOGUE, type ModuleId } from "~/features/platform";
import type { TenantContextValue } from "~/features/platform/index.server";
import { actorOf, type Actor } from "./actor";
import { requireScope, requireUser } from "./middleware.server";
import { can, type Scope, type ScopeHolder } from "./scopes";

type Ctx = Readonly<RouterContextProvider>;

/**
 * What a staff loader or action knows once the guard has let the request through: the tenant,
 * the signed-in person, the same person as the actor changes and audit entries name, and the
 * address the request came from.
 */
export type RequestContext = { env: Env; tenant: TenantContextValue; user: SessionUser; actor: Actor; ip: string | null };

/** The console's request: the bare domain, so no tenant. */
export type ConsoleRequestContext = Omit<RequestContext, "tenant">;

/**
 * A module of the catalogue, or "workspace" for the pages every tenant has (team, one's own
 * account): they are off only where there is no tenant.
 */
export type GuardedModule = ModuleId | "workspace";

export type ModuleGuard = {
  module: GuardedModule;
  /** The scope the page or action needs, or several of which any one will do. */
  scope?: Scope | readonly Scope[];
  /** The 403's body, for pages that explain a refusal in their own words. */
  message?: string;
};

/** The one test of whether a tenant has a module switched on (staff pages and the portal alike). */
export function moduleOn(tenant: Pick<TenantContextValue, "modules">, module: ModuleId): boolean {
  return tenant.modules.some((m) => m.id === module);
}

/** The scope the catalogue says anyone entering the module holds, if it names one. */
export function entryScopeOf(module: string): Scope | undefined {
  const entry = MODULE_CATALOGUE.find((m) => m.id === module);
  return entry && "entryScope" in entry ? (entry.entryScope as Scope) : undefined;
}

/** Whether someone may enter a module: the navigation shows it only then (the guard checks again). */
export function mayEnter(user: ScopeHolder, module: string): boolean {
  const scope = entryScopeOf(module);
  return !scope || can(user, scope);
}

const notFound = () => data("Page not found", { status: 404 });

/**
 * Every staff loader and action starts here, and the checks always come in this order:
 * 1. the module is switched on for this tenant (404 otherwise, as for a page that does not
 *    exist, whoever asks, and nothing is audited: a module that is off has no pages);
 * 2. someone is signed in to this tenant (a redirect to sign-in otherwise);
 * 3. the module's entry scope from the catalogue, then the scope given (403 with one audit entry).
 */
export async function requireModule(request: Request, context: Ctx, guard: ModuleGuard): Promise<RequestContext> {
  const { env } = context.get(cloudflareContext);
  const tenant = context.get(tenantContext);
  if (!tenant || (guard.module !== "workspace" && !moduleOn(tenant, guard.module))) throw notFound();
  const user = requireUser(request, context);
  const entry = guard.module === "workspace" ? undefined : entryScopeOf(guard.module);
  if (entry) await requireScope(request, context, user, entry);
  if (guard.scope) await requireScope(request, context, user, guard.scope, guard.message);
  return { env, tenant, user, actor: actorOf(user), ip: clientIp(request) };
}

/**
 * The platform console, in the same order: it exists on the bare domain only (404 on any tenant
 * host), then a platform session, then system.superadmin and the scope given (403, audited).
 */
export async function requireConsole(request: Request, context: Ctx, guard: Omit<ModuleGuard, "module"> = {}): Promise<ConsoleRequestContext> {
  const { env } = context.get(cloudflareContext);
  if (context.get(tenantContext)) throw notFound();
  const user = requireUser(request, context);
  await requireScope(request, context, user, "system.superadmin");
  if (guard.scope) await requireScope(request, context, user, guard.scope, guard.message);
  return { env, user, actor: actorOf(user), ip: clientIp(request) };
}
