import type { z } from "zod";
import { registerEraser, type PersonalDataEraser } from "../erasure/erasure.server";
import { registerAuditNamers, type AuditActorNamer, type AuditTargetNamer } from "../audit-targets.server";
import { registerJobs } from "./definitions.server";
import type { JobDefinition } from "./registry.server";
import { registerPagePrefetch, type PagePrefetch } from "../page-prefetch.server";

/** The crons wrangler.toml triggers (`[triggers] crons`); every scheduled task runs on one of them. */
export const CRONS = { daily: "0 6 * * *", hourly: "15 * * * *" } as const;
export type Cron = (typeof CRONS)[keyof typeof CRONS];

/** A feature's scheduled work. Each task runs even when another on the same cron fails. */
export type CronTask = { cron: Cron; name: string; run(env: Env, scheduledTime: number): Promise<unknown> };

/**
 * What a feature plugs into the server runtime from its own folder (its `register.server.ts`):
 * the job types the JOBS consumer dispatches, the tasks the scheduled handler runs, and any
 * hooks it installs in the platform at start-up. The composition root (app/jobs.server.ts)
 * lists the features; platform code never imports one.
 */
export type ServerFeature = {
  name: string;
  jobs?: readonly JobDefinition[];
  cron?: readonly CronTask[];
  /** Run once when the worker starts (e.g. what a feature does when its HMRC submission ends). */
  register?(): void;
  /** How the audit log names the feature's objects (and any actors who are not team members) in its sentences. */
  auditNamers?: { targets?: readonly AuditTargetNamer[]; actors?: readonly AuditActorNamer[] };
  /** The statements that erase the feature's own copies of a person's e-mail and name (their erasure's batch). */
  erasure?: PersonalDataEraser;
  /** What the feature does at once when a person is disabled, after it committed (e.g. closing their live sockets). */
  onPersonDisabled?(env: Env, tenantId: string, userId: string): Promise<unknown>;
  /** Pages whose own batch the tenant middleware may run with its own (ADR 0082). */
  pagePrefetch?: readonly PagePrefetch[];
};

const disabledHooks: NonNullable<ServerFeature["onPersonDisabled"]>[] = [];

/** Runs every feature's reaction to a person being disabled; one failing does not stop the others. */
export async function afterPersonDisabled(env: Env, tenantId: string, userId: string): Promise<void> {
  await Promise.allSettled(disabledHooks.map((hook) => hook(env, tenantId, userId)));
}

/** The job types of a list of job definitions, by name, with the input a caller passes: for `RegisteredJobs`. */
export type JobInputsOf<Defs extends readonly { type: string; input: z.ZodType }[]> = {
  [D in Defs[number] as D["type"]]: z.input<D["input"]>;
};

/** Registers every feature's jobs with the JOBS consumer, its audit namers and eraser, and runs its start-up hooks. */
export function registerServerFeatures(features: readonly ServerFeature[]): void {
  for (const feature of features) {
    registerJobs(...(feature.jobs ?? []));
    if (feature.auditNamers) registerAuditNamers(feature.auditNamers);
    if (feature.erasure) registerEraser(feature.erasure);
    if (feature.onPersonDisabled && !disabledHooks.includes(feature.onPersonDisabled)) disabledHooks.push(feature.onPersonDisabled);
    for (const prefetch of feature.pagePrefetch ?? []) registerPagePrefetch(prefetch);
    feature.register?.();
  }
}

/** Cron expression -> the tasks it runs, in feature order; every cron of CRONS has a list, even an empty one. */
export function cronRegistry(features: readonly ServerFeature[]): Record<string, Omit<CronTask, "cron">[]> {
  const registry: Record<string, Omit<CronTask, "cron">[]> = Object.fromEntries(Object.values(CRONS).map((c) => [c, []]));
  for (const feature of features) {
    for (const { cron, name, run } of feature.cron ?? []) registry[cron].push({ name, run });
  }
  return registry;
}
