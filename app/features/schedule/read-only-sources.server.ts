import type { EventType } from "~/db/schema";
import type { Scope } from "~/features/auth";

/**
 * Read-only events another feature shows in the calendar (CIS deadlines): registered at start-up
 * (a feature's register.server.ts), asked for each view's range. They are computed, not stored,
 * and link to the page where they are dealt with.
 */
export type ReadOnlyEvent = { key: string; title: string; start: number; end: number; type: EventType; href: string };

export type ReadOnlySourceContext = {
  /** The tenant's enabled modules. */
  modules: readonly string[];
  can: (scope: Scope) => boolean;
  rangeStart: number;
  rangeEnd: number;
};

export type ReadOnlySource = (ctx: ReadOnlySourceContext) => ReadOnlyEvent[];

const sources = new Map<string, ReadOnlySource>();

/** Registers (or replaces) a feature's source of read-only events. */
export function registerReadOnlyEvents(name: string, source: ReadOnlySource): void {
  sources.set(name, source);
}

export function readOnlyEvents(ctx: ReadOnlySourceContext): ReadOnlyEvent[] {
  return [...sources.values()].flatMap((s) => s(ctx)).filter((e) => e.start < ctx.rangeEnd && e.end > ctx.rangeStart);
}
