import { useState } from "react";
import { Form } from "react-router";
import { buttonClass } from "~/components/ui/button";
import { inputClass } from "~/components/ui/field";
import { SubmissionKeyInput } from "~/features/platform";

type Person = { id: string; displayName: string; email: string; username: string | null; firstName: string | null; lastName: string | null };

function matches(p: Person, q: string): boolean {
  const needle = q.trim().toLowerCase();
  if (!needle) return true;
  return [p.username, p.displayName, p.email, [p.firstName, p.lastName].filter(Boolean).join(" ")].some((v) => v?.toLowerCase().includes(needle));
}

/**
 * Share File: a searchable list of the tenant's other people, Select All, Clear, the count and
 * 'Share with N user(s)'. Without JavaScript every box is a plain checkbox of the form.
 */
export function ShareForm({ people, error, submissionKey }: { people: Person[]; error: string | null; submissionKey: string | null }) {
  const [query, setQuery] = useState("");
  const [chosen, setChosen] = useState<Set<string>>(() => new Set());
  const shown = people.filter((p) => matches(p, query));
  return (
    <Form method="post" className="space-y-2" aria-labelledby="share-title">
      <h2 id="share-title" className="text-lg font-semibold">
        Share File
      </h2>
      <input type="hidden" name="intent" value="share" />
      {submissionKey ? <SubmissionKeyInput value={submissionKey} /> : null}
      <label className="block text-sm">
        <span className="sr-only">Search users</span>
        <input type="search" value={query} onChange={(e) => setQuery(e.currentTarget.value)} placeholder="Search users" className={inputClass} />
      </label>
      <div className="flex gap-2 text-sm">
        <button type="button" className={buttonClass("secondary")} onClick={() => setChosen(new Set(shown.map((p) => p.id)))}>
          Select All
        </button>
        <button type="button" className={buttonClass("secondary")} onClick={() => setChosen(new Set())}>
          Clear
        </button>
        <span aria-live="polite">{chosen.size} selected</span>
      </div>
      <div className="max-h-[20rem] overflow-y-auto rounded-brand border border-line p-2" aria-describedby={error ? "share-error" : undefined}>
        {people.length === 0 ? (
          <p className="text-sm opacity-70">No other users in organization</p>
        ) : shown.length === 0 ? (
          <p className="text-sm opacity-70">No users found</p>
        ) : (
          shown.map((p) => (
            <label key={p.id} className="block text-sm">
              <input
                type="checkbox"
                name="userIds"
                value={p.id}
                checked={chosen.has(p.id)}
                onChange={(e) => {
                  const on = e.currentTarget.checked;
                  setChosen((prev) => {
                    const next = new Set(prev);
                    if (on) next.add(p.id);
                    else next.delete(p.id);
                    return next;
                  });
                }}
              />{" "}
              {p.displayName} <span className="opacity-60">{p.email}</span>
            </label>
          ))
        )}
      </div>
      {error ? (
        <p id="share-error" role="alert" className="text-sm text-danger">
          {error}
        </p>
      ) : null}
      <button type="submit" name="share" className={buttonClass("primary")}>
        {`Share with ${chosen.size} user(s)`}
      </button>
    </Form>
  );
}
