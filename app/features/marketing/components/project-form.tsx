import { getFormProps, getInputProps, getTextareaProps, type SubmissionResult, useForm } from "@conform-to/react";
import type { FormEvent, ReactNode, Ref } from "react";
import { Form, useFetcher } from "react-router";
import { SubmitButton } from "~/components/ui/button";
import { Field, Honeypot, inputClass } from "~/components/ui/field";
import { PROJECT_REQUEST_LIMITS } from "../messages";
import type { projectRequestSchema } from "../schemas";
import type { z } from "zod";

/** What the 'Start a project' action answers. */
export type ProjectRequestActionData = { status: "sent" } | { status: "error"; result: SubmissionResult<string[]> };

export const PROJECT_REQUEST_ACTION = "/start-a-project";

type FormShellProps = {
  id: string;
  lastResult: SubmissionResult<string[]> | undefined;
  /** The drawer posts through its fetcher; the page with an ordinary navigation. */
  fetcher?: ReturnType<typeof useFetcher>;
  pending?: boolean;
  disabled?: boolean;
  onSubmit?: (event: FormEvent<HTMLFormElement>) => void;
  formRef?: Ref<HTMLFormElement>;
  status?: ReactNode;
};

/**
 * The 'Start a project' fields, shared by the page (/start-a-project, a plain POST that works
 * without JavaScript) and the drawer on / (the same action through a fetcher). The server checks
 * the fields; its reply puts each message next to its field.
 */

export function ProjectRequestForm({ id, lastResult, fetcher, pending, disabled = false, onSubmit, formRef, status }: FormShellProps) {
  const [form, fields] = useForm<z.input<typeof projectRequestSchema>>({
    id,
    lastResult,
  });
  const FormComponent = fetcher ? fetcher.Form : Form;
  const formProps = getFormProps(form);
  return (
    <FormComponent
      method="post"
      action={PROJECT_REQUEST_ACTION}
      {...formProps}
      ref={formRef}
      onSubmit={(event) => {
        onSubmit?.(event);
        if (!event.defaultPrevented) formProps.onSubmit(event);
      }}
      className="space-y-5"
    >
      {status}
      {form.errors?.length ? (
        <div id={form.errorId} role="alert" className="rounded-brand border border-danger bg-danger/10 p-3 text-sm text-danger">
          {form.errors[0]}
        </div>
      ) : null}
      <fieldset disabled={disabled} className="space-y-5">
        <Honeypot />
        <Field id={fields.name.id} label="Name" error={fields.name.errors}>
          <input
            {...getInputProps(fields.name, { type: "text" })}
            key={fields.name.key}
            autoComplete="name"
            maxLength={PROJECT_REQUEST_LIMITS.name}
            className={inputClass}
          />
        </Field>
        <Field id={fields.email.id} label="Email" error={fields.email.errors}>
          <input
            {...getInputProps(fields.email, { type: "email" })}
            key={fields.email.key}
            autoComplete="email"
            maxLength={PROJECT_REQUEST_LIMITS.email}
            className={inputClass}
          />
        </Field>
        <Field id={fields.company.id} label="Company (optional)" error={fields.company.errors}>
          <input
            {...getInputProps(fields.company, { type: "text" })}
            key={fields.company.key}
            autoComplete="organization"
            maxLength={PROJECT_REQUEST_LIMITS.company}
            className={inputClass}
          />
        </Field>
        <Field
          id={fields.message.id}
          label="Message (optional)"
          error={fields.message.errors}
          hint={`What do you need, and by when? Up to ${PROJECT_REQUEST_LIMITS.message.toLocaleString("en-GB")} characters.`}
        >
          <textarea
            {...getTextareaProps(fields.message, { ariaDescribedBy: fields.message.descriptionId })}
            key={fields.message.key}
            rows={5}
            maxLength={PROJECT_REQUEST_LIMITS.message}
            className={inputClass}
          />
        </Field>
        <SubmitButton pendingText="Sending..." pending={fetcher ? pending : undefined} action={PROJECT_REQUEST_ACTION} className="w-full">
          Send request
        </SubmitButton>
      </fieldset>
    </FormComponent>
  );
}
