/** One item a bulk action could not change, named as the list names it, with the reason. */
export type BulkFailure = { id: string; label: string; error: string };

/** The items a bulk action could not change, each with its reason; nothing when all went through. */
export function BulkFailures({ failed }: { failed: BulkFailure[] }) {
  if (failed.length === 0) return null;
  return (
    <div role="alert" className="mt-2 text-sm text-danger">
      <p>{`${failed.length} failed:`}</p>
      <ul className="list-disc pl-6">
        {failed.map((f) => (
          <li key={f.id} data-failed-id={f.id}>
            {`${f.label}: ${f.error}`}
          </li>
        ))}
      </ul>
    </div>
  );
}
