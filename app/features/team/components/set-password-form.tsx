import { getFormProps, getInputProps, useForm, type FieldMetadata, type SubmissionResult } from "@conform-to/react";
import { Form } from "react-router";
import { SubmitButton } from "~/components/ui/button";
import { Field, inputClass } from "~/components/ui/field";
import { PASSWORD_MIN_LENGTH } from "../labels";
import type { setPasswordSchema } from "../schemas";
import type { z } from "zod";

/** A new password and its repeat, with the rule as the hint: for setting a password and changing one. */
export function NewPasswordFields({ password, confirm }: { password: FieldMetadata<string>; confirm: FieldMetadata<string> }) {
  return (
    <>
      <Field
        id={password.id}
        label="New password"
        hint={`At least ${PASSWORD_MIN_LENGTH} characters, hard to guess: not a common word, a name or a pattern.`}
        error={password.errors}
      >
        <input
          {...getInputProps(password, { type: "password", ariaDescribedBy: password.descriptionId })}
          key={password.key}
          autoComplete="new-password"
          className={inputClass}
        />
      </Field>
      <Field id={confirm.id} label="Repeat the new password" error={confirm.errors}>
        <input {...getInputProps(confirm, { type: "password" })} key={confirm.key} autoComplete="new-password" className={inputClass} />
      </Field>
    </>
  );
}

/** The new-password form of /activate and /reset-password: the link's token rides along hidden. */
export function SetPasswordForm({
  token,
  email,
  lastResult,
  submitLabel,
}: {
  token: string;
  email: string;
  lastResult?: SubmissionResult<string[]>;
  submitLabel: string;
}) {
  const [form, fields] = useForm<z.input<typeof setPasswordSchema>>({
    lastResult,
  });
  return (
    <Form method="post" {...getFormProps(form)} className="mt-6 space-y-5">
      <input type="hidden" name="token" value={token} />
      {/* Lets a password manager file the new password under the right account. */}
      <input type="email" name="username" autoComplete="username" value={email} readOnly hidden />
      <NewPasswordFields password={fields.password} confirm={fields.confirm} />
      {form.errors?.length ? (
        <p role="alert" className="text-sm text-danger">
          {form.errors[0]}
        </p>
      ) : null}
      <SubmitButton pendingText="Saving...">{submitLabel}</SubmitButton>
    </Form>
  );
}
