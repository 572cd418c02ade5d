/**
 * The Members checkboxes of a calendar, team or site form: everyone who may be chosen, the chosen ones
 * ticked, and the field's message (its id is `errorId`) when the choice was refused.
 */
export function MembersFieldset({
  people,
  chosen,
  error,
  errorId,
}: {
  people: readonly { id: string; name: string }[];
  chosen: readonly string[];
  error: string | undefined;
  errorId: string;
}) {
  const invalid = error ? { "aria-invalid": true, "aria-describedby": errorId } : {};
  return (
    <fieldset className="rounded-brand border border-line p-3">
      <legend className="px-1 text-sm font-medium">Members</legend>
      {people.length ? (
        <ul className="grid max-h-48 gap-1 overflow-y-auto sm:grid-cols-2">
          {people.map((p) => (
            <li key={p.id}>
              <label className="flex items-center gap-2 text-sm">
                <input type="checkbox" name="members" value={p.id} defaultChecked={chosen.includes(p.id)} {...invalid} />
                {p.name}
              </label>
            </li>
          ))}
        </ul>
      ) : (
        <p className="text-sm">No team members available</p>
      )}
      {error ? (
        <p id={errorId} role="alert" className="mt-1 text-sm text-danger">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}
