import { data, Form, Link } from "react-router";
import { SubmitButton } from "~/components/ui/button";
import { Field, inputClass } from "~/components/ui/field";
import { MembersFieldset } from "../components/members-fieldset";
import { EmptyRow, TBody, TD, TH, THead, TR, Table } from "~/components/ui/table";
import { requireModule } from "~/features/auth/index.server";
import { AppShell } from "~/features/platform";
import { redirectWithToast } from "~/features/platform/index.server";
import { deleteGroup, loadGroupsPage, saveGroup, type GroupError } from "../groups.server";
import { GROUP_KINDS, type GroupKind } from "../domain/constants";
import type { Route } from "./+types/groups";

const GROUP_ERRORS: Record<GroupError, { field: "name" | "members"; message: string }> = {
  group_not_found: { field: "name", message: "It no longer exists" },
  name_taken: { field: "name", message: "That name is already used" },
  person_not_found: { field: "members", message: "Choose people from the list" },
};
const NOUN: Record<GroupKind, { one: string; many: string }> = { team: { one: "team", many: "Teams" }, site: { one: "site", many: "Sites" } };

export async function loader({ request, context }: Route.LoaderArgs) {
  const { env, tenant } = await requireModule(request, context, { module: "schedule", scope: "tenant.edit_settings" });
  const page = await loadGroupsPage(env, tenant.id);
  const edit = new URL(request.url).searchParams.get("edit") ?? "";
  const [kind, id] = edit.split(":");
  const editing = kind === "team" || kind === "site" ? ((kind === "team" ? page.teams : page.sites).find((g) => g.id === id) ?? null) : null;
  return { ...page, editing: editing ? { kind: kind as GroupKind, ...editing } : null };
}

export async function action({ request, context }: Route.ActionArgs) {
  const { env, tenant, actor, ip } = await requireModule(request, context, { module: "schedule", scope: "tenant.edit_settings" });
  const form = await request.formData();
  const kind = String(form.get("kind") ?? "") as GroupKind;
  if (!GROUP_KINDS.includes(kind)) throw data("Invalid request", { status: 400 });
  const id = String(form.get("id") ?? "") || null;
  const who = { ...actor, ip };
  if (form.get("intent") === "delete") {
    const res = await deleteGroup(env, tenant.id, who, kind, id ?? "");
    if (!res.ok) throw data("Not found", { status: 404 });
    return redirectWithToast(env, "/settings/teams", { type: "success", title: `The ${NOUN[kind].one} was deleted` });
  }
  const values = { name: String(form.get("name") ?? "").trim(), members: form.getAll("members").map(String) };
  const key = `${kind}:${id ?? "new"}`;
  if (!values.name) return data({ key, values, errors: { name: "Name is required" } as Record<string, string> }, { status: 400 });
  if (values.name.length > 80) return data({ key, values, errors: { name: "Use at most 80 characters" } as Record<string, string> }, { status: 400 });
  const res = await saveGroup(env, tenant.id, who, kind, id, values);
  if (!res.ok) {
    if (res.code === "group_not_found") throw data("Not found", { status: 404 });
    const e = GROUP_ERRORS[res.code];
    return data({ key, values, errors: { [e.field]: e.message } as Record<string, string> }, { status: 400 });
  }
  return redirectWithToast(env, "/settings/teams", { type: "success", title: `${values.name} saved` });
}

function GroupForm({
  kind,
  id,
  values,
  errors,
  people,
  label,
}: {
  kind: GroupKind;
  id: string | null;
  values: { name: string; members: string[] };
  errors: Record<string, string>;
  people: { id: string; name: string }[];
  label: string;
}) {
  const prefix = `${kind}-${id ?? "new"}`;
  const invalid = (n: string) => (errors[n] ? { "aria-invalid": true, "aria-describedby": `${prefix}-${n}-error` } : {});
  return (
    <Form method="post" className="space-y-3" noValidate>
      <input type="hidden" name="kind" value={kind} />
      {id ? <input type="hidden" name="id" value={id} /> : null}
      <Field id={`${prefix}-name`} label="Name" error={errors.name}>
        <input id={`${prefix}-name`} name="name" required maxLength={80} defaultValue={values.name} className={inputClass} {...invalid("name")} />
      </Field>
      <MembersFieldset people={people} chosen={values.members} error={errors.members} errorId={`${prefix}-members-error`} />
      <SubmitButton name="intent" value="save" pendingText="Saving...">
        {label}
      </SubmitButton>
    </Form>
  );
}

// eslint-disable-next-line max-lines-per-function -- calendar feature, reworked by its owner in parallel
export default function Groups({ loaderData, actionData }: Route.ComponentProps) {
  const { people, editing } = loaderData;
  const names = new Map(people.map((p) => [p.id, p.name]));
  const failed = actionData ?? null;
  return (
    <AppShell>
      <div className="mx-auto max-w-5xl px-4 py-6">
        <h1 className="text-2xl font-semibold">Teams and sites</h1>
        <p className="mt-1 text-sm">
          Who works in which team and on which site: the calendar&rsquo;s &lsquo;My teams&rsquo; and &lsquo;My sites&rsquo; and its team filter follow them.
        </p>
        {editing ? (
          <section className="mt-6 rounded-brand border border-line p-4" aria-labelledby="edit-group">
            <h2 id="edit-group" className="text-lg font-semibold">
              Edit {NOUN[editing.kind].one} {editing.name}
            </h2>
            <div className="mt-3">
              <GroupForm
                kind={editing.kind}
                id={editing.id}
                values={failed?.key === `${editing.kind}:${editing.id}` ? failed.values : editing}
                errors={failed?.key === `${editing.kind}:${editing.id}` ? failed.errors : {}}
                people={people}
                label={`Save ${NOUN[editing.kind].one}`}
              />
            </div>
            <Form method="post" className="mt-3">
              <input type="hidden" name="kind" value={editing.kind} />
              <input type="hidden" name="id" value={editing.id} />
              <SubmitButton variant="danger" name="intent" value="delete" pendingText="Deleting...">
                Delete {NOUN[editing.kind].one}
              </SubmitButton>
            </Form>
          </section>
        ) : null}
        {GROUP_KINDS.map((kind) => {
          const groups = kind === "team" ? loaderData.teams : loaderData.sites;
          return (
            <section key={kind} className="mt-8" aria-labelledby={`${kind}-heading`}>
              <h2 id={`${kind}-heading`} className="text-lg font-semibold">
                {NOUN[kind].many}
              </h2>
              <Table caption={NOUN[kind].many} scrollClassName="mt-3 overflow-x-auto">
                <THead>
                  <TH>Name</TH>
                  <TH>Members</TH>
                  <TH>Change</TH>
                </THead>
                <TBody>
                  {groups.length === 0 ? <EmptyRow colSpan={3}>{`No ${NOUN[kind].many.toLowerCase()} yet`}</EmptyRow> : null}
                  {groups.map((g) => (
                    <TR key={g.id} data-group={`${kind}:${g.id}`}>
                      <TD className="font-medium">{g.name}</TD>
                      <TD>{g.members.map((m) => names.get(m) ?? "Former member").join(", ") || "None"}</TD>
                      <TD>
                        <Link to={`/settings/teams?edit=${kind}:${g.id}`} className="underline">
                          Edit<span className="sr-only"> {g.name}</span>
                        </Link>
                      </TD>
                    </TR>
                  ))}
                </TBody>
              </Table>
              <details className="mt-3" open={failed?.key === `${kind}:new`}>
                <summary className="cursor-pointer text-sm font-medium underline">New {NOUN[kind].one}</summary>
                <div className="mt-3">
                  <GroupForm
                    kind={kind}
                    id={null}
                    values={failed?.key === `${kind}:new` ? failed.values : { name: "", members: [] }}
                    errors={failed?.key === `${kind}:new` ? failed.errors : {}}
                    people={people}
                    label={`Create ${NOUN[kind].one}`}
                  />
                </div>
              </details>
            </section>
          );
        })}
      </div>
    </AppShell>
  );
}

export function meta() {
  return [{ title: "Teams and sites" }];
}
