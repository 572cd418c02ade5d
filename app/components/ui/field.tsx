import type { ReactNode } from "react";

/**
 * Label, control, hint and error message. The hint's id is `{id}-description` and the error's
 * `{id}-error`, the ids conform gives a field: getInputProps(field, { ariaDescribedBy: field.descriptionId }) ties both
 * to the control with aria-describedby.
 */
export function Field({
  id,
  label,
  error,
  hint,
  children,
  after,
}: {
  id: string;
  label: ReactNode;
  error?: string | string[] | null;
  hint?: ReactNode;
  children: ReactNode;
  /** A related control shown below the hint and the error (e.g. a 'remove' checkbox). */
  after?: ReactNode;
}) {
  const message = Array.isArray(error) ? error[0] : error;
  return (
    <div className="space-y-1">
      <label htmlFor={id} className="block text-sm font-medium">
        {label}
      </label>
      {children}
      {hint ? (
        <p id={`${id}-description`} className="text-xs opacity-70">
          {hint}
        </p>
      ) : null}
      {message ? (
        <p id={`${id}-error`} className="text-sm text-danger" role="alert">
          {message}
        </p>
      ) : null}
      {after}
    </div>
  );
}

export const inputClass =
  "block w-full rounded-brand border border-line bg-primary-bg px-3 py-2 text-sm shadow-sm focus:border-accent focus:outline-none focus:ring-2 focus:ring-accent/40 aria-[invalid=true]:border-danger";

/** Field only robots fill in; the action refuses a submission that carries it. */
export function Honeypot() {
  return (
    <div className="hp-field" aria-hidden="true">
      <label htmlFor="website">Leave this field empty</label>
      <input id="website" name="website" type="text" tabIndex={-1} autoComplete="off" />
    </div>
  );
}
