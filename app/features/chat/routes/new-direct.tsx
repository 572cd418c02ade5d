import { data, Form, redirect } from "react-router";
import { SubmitButton } from "~/components/ui/button";
import { Field, inputClass } from "~/components/ui/field";
import { requireModule } from "~/features/auth/index.server";
import { actorOf } from "../actor.server";
import { chatPeople, openDirectChat } from "../chat.server";
import { CHAT_ERRORS } from "../domain/rules";
import { directFormSchema, formFields } from "../forms.server";
import type { Route } from "./+types/new-direct";

/** Start a direct chat with anyone in the workspace (opening the existing one if there is one). */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { env, tenant, user } = await requireModule(request, context, { module: "chat", scope: "chat.send" });
  const people = await chatPeople(env, tenant.id);
  return { people: people.filter((p) => p.id !== user.id) };
}

export async function action({ request, context }: Route.ActionArgs) {
  const rc = await requireModule(request, context, { module: "chat", scope: "chat.send" });
  const fields = formFields(await request.formData());
  const parsed = directFormSchema.safeParse(fields);
  if (!parsed.success) return data({ error: CHAT_ERRORS.unknown_person, userId: "" }, { status: 400 });
  const res = await openDirectChat(rc.env, actorOf(rc), parsed.data.userId);
  if (res.ok) return redirect(`/chat/${res.value}`);
  return data({ error: CHAT_ERRORS[res.code], userId: parsed.data.userId }, { status: 400 });
}

export default function NewDirectChat({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <section aria-labelledby="direct-heading" className="max-w-xl">
      <h1 id="direct-heading" className="text-2xl font-bold">
        Start a direct chat
      </h1>
      <Form method="post" className="mt-4 space-y-3">
        <Field id="direct-user" label="Person" error={actionData?.error}>
          <select
            id="direct-user"
            name="userId"
            className={inputClass}
            required
            defaultValue={actionData?.userId ?? ""}
            aria-invalid={actionData?.error ? true : undefined}
            aria-describedby={actionData?.error ? "direct-user-error" : undefined}
          >
            <option value="" disabled>
              Choose someone
            </option>
            {loaderData.people.map((p) => (
              <option key={p.id} value={p.id}>
                {p.displayName}
              </option>
            ))}
          </select>
        </Field>
        <SubmitButton pendingText="Opening…">Open chat</SubmitButton>
      </Form>
    </section>
  );
}

export function meta() {
  return [{ title: "New chat · Chat" }];
}
