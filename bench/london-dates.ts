/// <reference types="node" />
/**
 * What a deadline indicator costs: `londonCalendarDaysBetween(today, deadline)` for eight
 * deadlines in turn, as the CIS dashboard asks on every request (ADR 0088). Prints µs a call.
 *
 *   npx tsx bench/london-dates.ts
 */
import { londonCalendarDaysBetween } from "../app/features/cis/domain/tax-month";

const today = new Date("2026-11-28T09:00:00Z");
const deadlines = Array.from({ length: 8 }, (_, i) => new Date(Date.UTC(2026, 10 + i, 19, 23, 59, 59)));
const ROUNDS = 2_000;
for (let run = 1; run <= 3; run++) {
  const t = performance.now();
  let days = 0;
  for (let i = 0; i < ROUNDS; i++) for (const d of deadlines) days += londonCalendarDaysBetween(today, d);
  const calls = ROUNDS * deadlines.length;
  console.log(`run ${run}: ${(((performance.now() - t) * 1000) / calls).toFixed(2)} µs a call over ${calls} calls (checksum ${days})`);
}
