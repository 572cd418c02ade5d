import { Form, Link } from "react-router";
import { Button } from "~/components/ui/button";
import { BulkFailures } from "~/components/ui/bulk-failures";

export type BulkKind = "archive" | "delete";

/** Bulk actions ask before they change anything, naming the count. */
export function bulkConfirmText(kind: BulkKind, n: number): string {
  return `Are you sure you want to ${kind} ${n} selected items?`;
}

export type ConfirmItem = { id: string; name: string | null };

/** The server-rendered confirmation step: what will change, then Confirm or Cancel. */
export function ConfirmPanel({
  title,
  intent,
  items,
  cancelTo,
  extra,
}: {
  title: string;
  intent: string;
  items: ConfirmItem[];
  cancelTo: string;
  extra?: Record<string, string>;
}) {
  return (
    <section
      role="alertdialog"
      aria-labelledby="confirm-title"
      aria-describedby="confirm-items"
      className="mb-6 rounded-brand border border-danger bg-danger/5 p-4"
      data-confirm={intent}
    >
      <h2 id="confirm-title" className="font-semibold">
        {title}
      </h2>
      <ul id="confirm-items" className="mt-2 list-disc pl-6 text-sm">
        {items.map((item) => (
          <li key={item.id}>{item.name ?? `Unknown subcontractor (${item.id})`}</li>
        ))}
      </ul>
      <Form method="post" className="mt-4 flex gap-2">
        <input type="hidden" name="intent" value={intent} />
        <input type="hidden" name="confirmed" value="yes" />
        {Object.entries(extra ?? {}).map(([k, v]) => (
          <input key={k} type="hidden" name={k} value={v} />
        ))}
        {items.map((item) => (
          <input key={item.id} type="hidden" name="ids" value={item.id} />
        ))}
        <Button variant="danger">Confirm</Button>
        <Link to={cancelTo} className="inline-flex items-center rounded-brand border border-line px-4 py-2 text-sm">
          Cancel
        </Link>
      </Form>
    </section>
  );
}

export type BulkOutcome = { kind: BulkKind; requested: number; succeeded: ConfirmItem[]; failed: (ConfirmItem & { error: string })[] };

/** Per-item results after a bulk action: the count that worked and each failure with its reason. */
export function BulkResults({ outcome }: { outcome: BulkOutcome }) {
  const verb = outcome.kind === "archive" ? "Archived" : "Deleted";
  return (
    <section aria-live="polite" className="mb-6 rounded-brand border border-line bg-elevated p-4" data-bulk-result={outcome.kind}>
      <p role="status" className="font-medium">
        {`${verb} ${outcome.succeeded.length} of ${outcome.requested} selected items.`}
      </p>
      <BulkFailures failed={outcome.failed.map((f) => ({ id: f.id, label: f.name ?? f.id, error: f.error }))} />
    </section>
  );
}
