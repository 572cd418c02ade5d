import { Form } from "react-router";
import { SubmitButton } from "~/components/ui/button";
import { Field, inputClass } from "~/components/ui/field";
import { ROOM_NAME_MAX_CHARS } from "../domain/rules";

type Member = { id: string; displayName: string; role: "admin" | "member" };
type Person = { id: string; displayName: string };
export type GroupErrors = Partial<Record<"name" | "members" | "room", string>>;

type Props = {
  room: { name: string; everyone: boolean; myRole: "admin" | "member" | null };
  members: readonly Member[];
  addable: readonly Person[];
  me: string;
  canSend: boolean;
  errors: GroupErrors;
  values: Record<string, string | string[]>;
};

/** A group's details: its members (with the admins' controls), rename, add people, leave. Plain forms. */
export function GroupDetails({ room, members, addable, me, canSend, errors, values }: Props) {
  const admin = room.myRole === "admin" && canSend;
  return (
    <details className="rounded-brand border border-line p-4" open={!!(errors.name || errors.members)}>
      <summary className="cursor-pointer font-semibold">Group details</summary>
      <div className="mt-4 space-y-6">
        {room.everyone ? (
          <p className="text-sm">Everyone in the workspace is in this group, including people who join later.</p>
        ) : (
          <MemberList members={members} me={me} admin={admin} />
        )}
        {admin ? <RenameForm name={typeof values.name === "string" ? values.name : room.name} error={errors.name} /> : null}
        {admin && !room.everyone && addable.length > 0 ? <AddForm addable={addable} error={errors.members} /> : null}
        {!room.everyone && canSend ? (
          <Form method="post">
            <SubmitButton name="intent" value="leave" variant="ghost" pendingText="Leaving…">
              Leave group
            </SubmitButton>
          </Form>
        ) : null}
      </div>
    </details>
  );
}

function MemberList({ members, me, admin }: { members: readonly Member[]; me: string; admin: boolean }) {
  return (
    <section aria-labelledby="members-heading">
      <h2 id="members-heading" className="font-semibold">
        Members
      </h2>
      <ul className="mt-2 divide-y divide-line" data-testid="members">
        {members.map((m) => (
          <li key={m.id} className="flex flex-wrap items-center justify-between gap-2 py-2" data-testid="member" data-role={m.role}>
            <span>
              {m.id === me ? "You" : m.displayName}
              {m.role === "admin" ? <span className="ml-2 text-xs opacity-70">admin</span> : null}
            </span>
            {admin ? <MemberControls m={m} me={me} /> : null}
          </li>
        ))}
      </ul>
    </section>
  );
}

/** An admin's buttons beside a member: make or unmake admin, remove (not oneself: one leaves instead). */
function MemberControls({ m, me }: { m: Member; me: string }) {
  const self = m.id === me;
  const roleIntent = m.role === "admin" ? "remove_admin" : "make_admin";
  const roleLabel = m.role === "admin" ? (self ? "Stop being admin" : "Remove admin") : "Make admin";
  return (
    <div className="flex flex-wrap gap-1">
      <Form method="post">
        <input type="hidden" name="userId" value={m.id} />
        <SubmitButton
          name="intent"
          value={roleIntent}
          variant="ghost"
          pendingText="Saving…"
          aria-label={self ? roleLabel : `${roleLabel}: ${m.displayName}`}
          match={{ userId: m.id }}
        >
          {roleLabel}
        </SubmitButton>
      </Form>
      {self ? null : (
        <Form method="post">
          <input type="hidden" name="userId" value={m.id} />
          <SubmitButton name="intent" value="remove" variant="ghost" pendingText="Removing…" aria-label={`Remove ${m.displayName}`} match={{ userId: m.id }}>
            Remove
          </SubmitButton>
        </Form>
      )}
    </div>
  );
}

function RenameForm({ name, error }: { name: string; error?: string }) {
  return (
    <Form method="post" className="space-y-2">
      <Field id="room-name" label="Group name" error={error}>
        <input
          id="room-name"
          name="name"
          className={inputClass}
          maxLength={ROOM_NAME_MAX_CHARS}
          defaultValue={name}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? "room-name-error" : undefined}
        />
      </Field>
      <SubmitButton name="intent" value="rename" variant="secondary" pendingText="Renaming…">
        Rename
      </SubmitButton>
    </Form>
  );
}

function AddForm({ addable, error }: { addable: readonly Person[]; error?: string }) {
  return (
    <Form method="post" className="space-y-2">
      <fieldset className="space-y-1" aria-describedby={error ? "add-members-error" : undefined}>
        <legend className="text-sm font-medium">Add people</legend>
        {addable.map((p) => (
          <label key={p.id} className="flex items-center gap-2 text-sm">
            <input type="checkbox" name="members" value={p.id} /> {p.displayName}
          </label>
        ))}
        {error ? (
          <p id="add-members-error" className="text-sm text-danger" role="alert">
            {error}
          </p>
        ) : null}
      </fieldset>
      <SubmitButton name="intent" value="add" variant="secondary" pendingText="Adding…">
        Add to group
      </SubmitButton>
    </Form>
  );
}
