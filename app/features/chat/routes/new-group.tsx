import { data, Form, redirect } from "react-router";
import { SubmitButton } from "~/components/ui/button";
import { Field, inputClass } from "~/components/ui/field";
import { requireModule } from "~/features/auth/index.server";
import { actorOf } from "../actor.server";
import { chatPeople, createGroup } from "../chat.server";
import { CHAT_ERRORS, ROOM_NAME_MAX_CHARS, type ChatError } from "../domain/rules";
import { formFields, groupFormSchema } from "../forms.server";
import type { Route } from "./+types/new-group";

/** Create a group: a name, and members or "Everyone". */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { env, tenant, user } = await requireModule(request, context, { module: "chat", scope: "chat.send" });
  const people = await chatPeople(env, tenant.id);
  return { people: people.filter((p) => p.id !== user.id) };
}

type GroupErrors = Partial<Record<"name" | "members", string>>;

function groupField(code: ChatError): keyof GroupErrors {
  return code === "name_required" || code === "name_too_long" ? "name" : "members";
}

export async function action({ request, context }: Route.ActionArgs) {
  const rc = await requireModule(request, context, { module: "chat", scope: "chat.send" });
  const fields = formFields(await request.formData());
  const parsed = groupFormSchema.safeParse(fields);
  if (!parsed.success) throw data("Bad request", { status: 400 });
  const res = await createGroup(rc.env, actorOf(rc), { name: parsed.data.name, everyone: parsed.data.everyone === "on", memberIds: parsed.data.members });
  if (res.ok) return redirect(`/chat/${res.value}`);
  return data({ errors: { [groupField(res.code)]: CHAT_ERRORS[res.code] } as GroupErrors, values: fields }, { status: 400 });
}

export default function NewGroup({ loaderData, actionData }: Route.ComponentProps) {
  const errors: GroupErrors = actionData?.errors ?? {};
  const values = actionData?.values ?? {};
  const chosen = new Set(Array.isArray(values.members) ? values.members : []);
  return (
    <section aria-labelledby="group-heading" className="max-w-xl">
      <h1 id="group-heading" className="text-2xl font-bold">
        Create a group
      </h1>
      <Form method="post" className="mt-4 space-y-3">
        <Field id="group-name" label="Group name" error={errors.name}>
          <input
            id="group-name"
            name="name"
            className={inputClass}
            maxLength={ROOM_NAME_MAX_CHARS}
            defaultValue={typeof values.name === "string" ? values.name : ""}
            aria-invalid={errors.name ? true : undefined}
            aria-describedby={errors.name ? "group-name-error" : undefined}
          />
        </Field>
        <fieldset className="space-y-2" aria-describedby={errors.members ? "group-members-error" : undefined}>
          <legend className="text-sm font-medium">Members</legend>
          <label className="flex items-center gap-2 text-sm">
            <input type="checkbox" name="everyone" defaultChecked={values.everyone === "on"} /> Everyone (all current and future people)
          </label>
          <div className="max-h-72 space-y-1 overflow-y-auto rounded-brand border border-line p-2">
            {loaderData.people.map((p) => (
              <label key={p.id} className="flex items-center gap-2 text-sm">
                <input type="checkbox" name="members" value={p.id} defaultChecked={chosen.has(p.id)} /> {p.displayName}
              </label>
            ))}
          </div>
          {errors.members ? (
            <p id="group-members-error" className="text-sm text-danger" role="alert">
              {errors.members}
            </p>
          ) : null}
        </fieldset>
        <SubmitButton pendingText="Creating…">Create group</SubmitButton>
      </Form>
    </section>
  );
}

export function meta() {
  return [{ title: "New group · Chat" }];
}
