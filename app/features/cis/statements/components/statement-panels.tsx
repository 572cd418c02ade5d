import { BATCH_MESSAGES } from "../statement-codes";

type DeadlineView = { date: string; state: "overdue" | "urgent" | "pending"; text: string };

const DEADLINE_STYLE = {
  overdue: "border-danger bg-danger/10",
  urgent: "border-amber-500 bg-amber-500/10",
  pending: "border-line bg-elevated",
} as const;

const INDICATOR_STYLE = {
  overdue: "bg-danger-strong text-white",
  urgent: "bg-amber-500 text-black",
  pending: "bg-surface",
} as const;

/** The tax month's statements deadline and how far off (or past) it is. */
export function StatementDeadlineBanner({ period, deadline }: { period: string; deadline: DeadlineView }) {
  return (
    <section
      aria-label="Statements deadline"
      className={`flex flex-wrap items-center gap-3 rounded-brand border p-4 ${DEADLINE_STYLE[deadline.state]}`}
      data-deadline
    >
      <p>
        <span className="font-semibold">Statements deadline</span>
        {` for ${period}: `}
        <span data-deadline-date>{deadline.date}</span>
      </p>
      <span className={`rounded-full px-2.5 py-0.5 text-sm font-medium ${INDICATOR_STYLE[deadline.state]}`} data-deadline-state={deadline.state}>
        {deadline.text}
      </span>
    </section>
  );
}

export type BatchView =
  | { id: string; state: "running"; progress: number }
  | { id: string; state: "done"; total: number; generated: number; failed: number }
  | { id: string; state: "failed" };

/**
 * Generate All's progress while it runs, and its outcome once done.
 */
export function BatchPanel({ batch }: { batch: BatchView }) {
  if (batch.state === "running") {
    return (
      <section aria-labelledby="batch-heading" className="rounded-brand border border-line bg-elevated p-4" data-batch="running">
        <h3 id="batch-heading" className="font-semibold">
          {BATCH_MESSAGES.running}
        </h3>
        <progress className="mt-2 w-full" max={100} value={batch.progress} aria-labelledby="batch-heading" aria-describedby="batch-progress-text" />
        <p id="batch-progress-text" role="status" className="mt-1 text-sm opacity-80">
          {`${batch.progress}% complete`}
        </p>
      </section>
    );
  }
  if (batch.state === "failed") {
    return (
      <section role="alert" className="rounded-brand border border-danger bg-danger/10 p-4" data-batch="failed">
        <p className="font-semibold">{BATCH_MESSAGES.failed}</p>
        <p className="mt-1 text-sm">{BATCH_MESSAGES.failedMessage}</p>
      </section>
    );
  }
  if (batch.total === 0) {
    return (
      <section role="status" className="rounded-brand border border-line bg-elevated p-4" data-batch="none">
        <p className="font-semibold">{BATCH_MESSAGES.noPendingTitle}</p>
        <p className="mt-1 text-sm">{BATCH_MESSAGES.noPendingMessage}</p>
      </section>
    );
  }
  const warn = batch.failed > 0;
  return (
    <section
      role="status"
      className={`rounded-brand border p-4 ${warn ? "border-amber-500 bg-amber-500/10" : "border-success bg-success/10"}`}
      data-batch={warn ? "warning" : "complete"}
    >
      <p className="font-semibold">{BATCH_MESSAGES.complete}</p>
      <p className="mt-1 text-sm">
        <span data-batch-generated>{`${batch.generated} generated`}</span>
        {", "}
        <span data-batch-failed>{`${batch.failed} failed`}</span>
      </p>
    </section>
  );
}
