import type { ButtonHTMLAttributes, ReactNode } from "react";
import { useFormAction, useNavigation } from "react-router";

type Variant = "primary" | "secondary" | "danger" | "ghost" | "link";

const VARIANTS: Record<Exclude<Variant, "link">, string> = {
  primary: "bg-accent text-accent-foreground hover:opacity-90",
  secondary: "border border-line bg-elevated hover:bg-surface",
  danger: "bg-danger-strong text-white hover:brightness-90",
  ghost: "hover:bg-surface",
};

const FOCUS = "focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-accent-ink";

export function buttonClass(variant: Variant = "primary", extra = ""): string {
  // An action inside running text (e.g. 'Reveal' next to a masked value): no box, no padding.
  if (variant === "link") return `text-sm text-accent-ink underline disabled:cursor-not-allowed disabled:opacity-50 ${FOCUS} ${extra}`;
  return `inline-flex items-center justify-center gap-2 rounded-brand px-4 py-2 text-sm font-medium transition disabled:cursor-not-allowed disabled:opacity-50 ${FOCUS} ${VARIANTS[variant]} ${extra}`;
}

export function Button({ variant = "primary", className = "", ...props }: ButtonHTMLAttributes<HTMLButtonElement> & { variant?: Variant }) {
  return <button type="submit" {...props} className={buttonClass(variant, className)} />;
}

function pathOf(action: string): string {
  return new URL(action, "http://local").pathname;
}

/**
 * Whether the POST under way was sent by this button's form: it went to the same action
 * (`action`, default the current route's), carries the button's own name=value when the button
 * has one (an intent button), and carries every field in `match` (hidden fields that tell forms
 * on one page apart, e.g. { intent: "reveal", field: "utr" }).
 */
function useSubmitPending({ action, name, value, match }: { action?: string; name?: string; value?: string; match?: Record<string, string> } = {}): boolean {
  const navigation = useNavigation();
  const formAction = useFormAction(action);
  const sent = navigation.formData;
  if (navigation.state === "idle" || navigation.formMethod?.toUpperCase() !== "POST" || !sent || !navigation.formAction) return false;
  if (pathOf(navigation.formAction) !== pathOf(formAction)) return false;
  if (name && value !== undefined && sent.get(name) !== value) return false;
  return Object.entries(match ?? {}).every(([k, v]) => sent.get(k) === v);
}

/**
 * A submit button that says `pendingText` and is disabled while its own form's POST is under
 * way. Without JavaScript it is a plain submit button. A form submitted through a fetcher passes
 * `pending` (the fetcher's state) instead: a fetcher does not show in the navigation.
 */
export function SubmitButton({
  pendingText,
  pending,
  action,
  match,
  name,
  value,
  disabled,
  children,
  ...props
}: Omit<ButtonHTMLAttributes<HTMLButtonElement>, "type" | "value"> & {
  variant?: Variant;
  pendingText: ReactNode;
  pending?: boolean;
  /** The form's action when it posts to another route than the one rendering the button. */
  action?: string;
  match?: Record<string, string>;
  value?: string;
}) {
  const navigationPending = useSubmitPending({ action, name, value, match });
  const busy = pending ?? navigationPending;
  return (
    <Button type="submit" name={name} value={value} disabled={disabled || busy} {...props}>
      {busy ? pendingText : children}
    </Button>
  );
}
