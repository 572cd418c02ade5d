import { Form } from "react-router";
import { SubmitButton } from "~/components/ui/button";
import { Field, inputClass } from "~/components/ui/field";
import type { GatewayFormErrors } from "../gateway-credentials-schema";

/**
 * The Government Gateway user HMRC submissions are sent as. What is stored is never shown back:
 * only whether it is set, with a form to replace it and a button to clear it.
 */
export function GatewayCredentialsPanel({
  isSet,
  changedAt,
  errors,
  senderId,
}: {
  isSet: boolean;
  changedAt: number | null;
  errors: GatewayFormErrors | null;
  senderId: string;
}) {
  const described = (field: "senderId" | "password") =>
    [`gateway-${field}-description`, errors?.[field] ? `gateway-${field}-error` : null].filter(Boolean).join(" ");
  return (
    <section aria-labelledby="gateway-heading" className="rounded-brand border border-line bg-elevated p-6">
      <h3 id="gateway-heading" className="text-lg font-semibold">
        HMRC Government Gateway
      </h3>
      <p className="mt-1 text-sm opacity-70">
        The user ID and password your CIS returns and verifications are sent to HMRC with. They are stored encrypted and never shown again.
      </p>
      <p className="mt-3 text-sm">
        Credentials: <strong data-testid="gateway-status">{isSet ? "Saved" : "Not set"}</strong>
      </p>
      {errors?.form ? (
        <p role="alert" className="mt-2 text-sm text-danger">
          {errors.form}
        </p>
      ) : null}
      {/* A new key after each save or clear: the browser drops what was typed, so the password never stays on screen. */}
      <Form key={changedAt ?? "never"} method="post" className="mt-4 grid gap-4 sm:grid-cols-2" autoComplete="off">
        <input type="hidden" name="intent" value="gateway" />
        <Field
          id="gateway-senderId"
          label="Government Gateway user ID"
          hint={isSet ? "Enter both values to replace the saved ones." : "As issued by HMRC."}
          error={errors?.senderId}
        >
          <input
            id="gateway-senderId"
            name="senderId"
            defaultValue={senderId}
            autoComplete="off"
            required
            maxLength={64}
            aria-invalid={errors?.senderId ? true : undefined}
            aria-describedby={described("senderId")}
            className={inputClass}
          />
        </Field>
        <Field id="gateway-password" label="Government Gateway password" hint="Never shown again once saved." error={errors?.password}>
          <input
            id="gateway-password"
            name="password"
            type="password"
            autoComplete="new-password"
            required
            maxLength={256}
            aria-invalid={errors?.password ? true : undefined}
            aria-describedby={described("password")}
            className={inputClass}
          />
        </Field>
        <div className="sm:col-span-2">
          <SubmitButton match={{ intent: "gateway" }} pendingText="Saving…">
            {isSet ? "Replace credentials" : "Save credentials"}
          </SubmitButton>
        </div>
      </Form>
      {isSet ? (
        <Form method="post" className="mt-3">
          <SubmitButton name="intent" value="gateway-clear" variant="secondary" pendingText="Clearing…">
            Clear credentials
          </SubmitButton>
        </Form>
      ) : null}
    </section>
  );
}
