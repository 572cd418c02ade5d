import { inputClass } from "~/components/ui/field";

type Person = { id: string; name: string };

/**
 * The calendar's User filter, part of its GET form. A tenant with many people lists the chosen one
 * and, after a search (part of a name, sent with the form as `who`), those whose name matches: a
 * contracts manager with 200 people types a name rather than scrolls, with or without JavaScript.
 */
export function UserFilter({ people, user, who, find, more }: { people: Person[]; user: string | null; who: string | null; find: boolean; more: boolean }) {
  const others = people.filter((p) => p.id !== user).length;
  return (
    <>
      <label className="flex flex-col">
        <span className="text-xs">User</span>
        <select name="user" defaultValue={user ?? ""} className={inputClass}>
          <option value="">All users</option>
          {people.map((p) => (
            <option key={p.id} value={p.id}>
              {p.name}
            </option>
          ))}
        </select>
      </label>
      {find ? (
        <label className="flex flex-col">
          <span className="text-xs">Find a user</span>
          <input
            type="search"
            name="who"
            defaultValue={who ?? ""}
            maxLength={60}
            placeholder="Part of a name"
            className={inputClass}
            aria-describedby="who-hint"
          />
          <span id="who-hint" className="sr-only">
            Apply filters to list the people whose name holds it under User
          </span>
        </label>
      ) : null}
      {who ? (
        <p role="status" className="basis-full text-xs">
          {others === 0
            ? `No one else's name holds \u201c${who}\u201d.`
            : more
              ? `The first ${people.length} people whose name holds \u201c${who}\u201d are listed under User: type more of the name.`
              : `The people whose name holds \u201c${who}\u201d are listed under User.`}
        </p>
      ) : null}
    </>
  );
}
