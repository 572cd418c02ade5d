/**
 * Client-safe constants of the statements screen: the page's components import these, never the
 * *.server.ts modules (a route component may not pull server code into the browser bundle).
 */
import type { StatementStatus } from "~/db/enums";

export const STATEMENT_FILTERS = ["all", "pending", "generated", "issued"] as const;
export type StatementFilter = (typeof STATEMENT_FILTERS)[number];

export const STATEMENT_FILTER_LABELS: Readonly<Record<StatementFilter, string>> = {
  all: "All",
  pending: "Pending",
  generated: "Generated",
  issued: "Issued",
};

/** Where a subcontractor's month stands: no statement yet, a statement generated, or issued. */
export type StatementRowStatus = "pending" | StatementStatus;

export const STATEMENT_ISSUE_METHOD_LABELS = { email: "Email", portal: "Portal", print: "Print" } as const;

/** The page refreshes itself this often while a batch generation runs. */
export const BATCH_REFRESH_SECONDS = 2;

export const BATCH_MESSAGES = {
  running: "Generating statements",
  complete: "Batch Generation Complete",
  failed: "Batch statement generation failed",
  failedMessage: "The batch stopped before it finished. Statements generated so far are kept; Generate All again to finish the rest.",
  alreadyRunning: "Batch generation is already running for this tax month.",
  started: "Batch generation started",
  noPendingTitle: "No Pending Statements",
  noPendingMessage: "All subcontractors already have statements for this tax month.",
} as const;
