import type { ReactNode } from "react";

/** A titled group of a form's fields, two columns from medium screens up. */
export function FormSection({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section aria-labelledby={id} className="rounded-brand border border-line bg-elevated p-4">
      <h3 id={id} className="mb-4 font-semibold">
        {title}
      </h3>
      <div className="grid gap-4 md:grid-cols-2">{children}</div>
    </section>
  );
}

/** The form's own errors (not a field's), above its fields; `id` is what the form points to. */
export function FormErrors({ id, errors }: { id: string; errors: string[] | undefined }) {
  if (!errors?.length) return null;
  return (
    <div id={id} role="alert" className="rounded-brand border border-danger bg-danger/10 p-4 text-danger" data-form-error>
      {errors.map((e) => (
        <p key={e}>{e}</p>
      ))}
    </div>
  );
}
