// Client-safe pieces of the analytics: the page's components import these, never analytics.server.ts.

/** How a month's return stands against its filing deadline. */
export type FilingState = "on_time" | "late" | "not_filed" | "open";

export const FILING_LABELS: Readonly<Record<FilingState, string>> = { on_time: "On time", late: "Late", not_filed: "Not filed", open: "Not yet due" };

/** Materials as a share of gross, one decimal place: '20.0%'; '0.0%' with no gross. */
export function materialsShare(materialsP: number, grossP: number): string {
  return `${grossP > 0 ? ((materialsP / grossP) * 100).toFixed(1) : "0.0"}%`;
}
