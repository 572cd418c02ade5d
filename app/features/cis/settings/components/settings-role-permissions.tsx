import type { ReactNode } from "react";
import { Form } from "react-router";
import { SubmitButton } from "~/components/ui/button";

type RoleBundleView = { name: string; cisScopes: string[]; otherCisScopes: string[]; updatedAt: number };
/** A scope as administrators see it: its name and description, with the id in small print. */
type ScopeView = { id: string; name: string; description: string };
type ChecklistView = { errors: string[]; warnings: string[] };

const sectionClass = "rounded-brand border border-line bg-elevated p-6";
const panelClass = "mt-4 rounded-brand border border-line bg-surface p-4";

/**
 * Role Permissions: each tenant role that holds a CIS scope, its CIS scopes, and (for cis.manage)
 * one form per role to change them. Other scopes of the role are never touched.
 */
// eslint-disable-next-line max-lines-per-function -- one table of roles by permissions: rows and columns share the same checkbox state
export function RolePermissions({
  bundles,
  allScopes,
  canEdit,
  bundleError,
  children,
}: {
  bundles: RoleBundleView[];
  allScopes: readonly ScopeView[];
  canEdit: boolean;
  bundleError: { name: string; message: string } | null;
  /** The Scope Checklist panel, shown at the top of the section. */
  children?: ReactNode;
}) {
  return (
    <section className={sectionClass} aria-labelledby="cis-roles-heading">
      <h3 id="cis-roles-heading" className="text-lg font-semibold">
        Role Permissions
      </h3>
      <p className="text-sm opacity-70" data-testid="role-permissions-note">
        {canEdit
          ? "Choose what each role may do in CIS. Changes apply from each user's next request; the role's other permissions are kept as they are."
          : "You can see what each role may do in CIS. Changing it needs the Manage CIS permission (administrators)."}
      </p>
      {children}
      {bundles.length === 0 ? <p className="mt-4 text-sm">No roles hold CIS permissions.</p> : null}
      <div className="mt-4 space-y-6">
        {bundles.map((b) => {
          const held = new Set(b.cisScopes);
          const nameOf = (id: string) => allScopes.find((s) => s.id === id)?.name ?? id;
          const error = bundleError?.name === b.name ? bundleError.message : null;
          return (
            <Form
              method="post"
              key={`${b.name}:${b.updatedAt}`}
              className="rounded-brand border border-line p-4"
              data-bundle={b.name}
              aria-labelledby={`bundle-${b.name}-legend`}
            >
              <input type="hidden" name="intent" value="bundle" />
              <input type="hidden" name="bundle" value={b.name} />
              <input type="hidden" name="version" value={String(b.updatedAt)} />
              <fieldset disabled={!canEdit}>
                <legend id={`bundle-${b.name}-legend`} className="font-medium capitalize">
                  {b.name}
                </legend>
                <p className="mt-1 text-xs opacity-70">
                  Can: <span data-testid={`bundle-scopes-${b.name}`}>{b.cisScopes.length ? b.cisScopes.map(nameOf).join(", ") : "nothing in CIS"}</span>
                  {b.otherCisScopes.length ? <> (also {b.otherCisScopes.join(", ")}, kept as is)</> : null}
                </p>
                {error ? (
                  <p role="alert" className="mt-2 text-sm text-danger">
                    {error}
                  </p>
                ) : null}
                <div className="mt-3 grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
                  {allScopes.map((scope) => {
                    const id = `bundle-${b.name}-${scope.id}`;
                    return (
                      <div key={scope.id} className="flex items-start gap-2 text-sm">
                        <input
                          id={id}
                          type="checkbox"
                          name="scopes"
                          value={scope.id}
                          defaultChecked={held.has(scope.id)}
                          aria-describedby={`${id}-description`}
                          className="mt-0.5 h-4 w-4 shrink-0"
                        />
                        <div>
                          <label htmlFor={id} className="font-medium">
                            {scope.name}
                          </label>
                          <p id={`${id}-description`} className="text-xs opacity-80">
                            {scope.description}
                          </p>
                          <p className="font-mono text-xs opacity-70">{scope.id}</p>
                        </div>
                      </div>
                    );
                  })}
                </div>
              </fieldset>
              {canEdit ? (
                <div className="mt-3 flex justify-end">
                  <SubmitButton variant="secondary" pendingText="Saving..." match={{ intent: "bundle", bundle: b.name }}>
                    {`Save ${b.name} permissions`}
                  </SubmitButton>
                </div>
              ) : null}
            </Form>
          );
        })}
      </div>
    </section>
  );
}

/** The Scope Checklist: errors and warnings from the rules engine for the listed roles. */
export function ScopeChecklistPanel({ checklist }: { checklist: ChecklistView }) {
  const clean = checklist.errors.length === 0 && checklist.warnings.length === 0;
  return (
    <section className={panelClass} aria-labelledby="cis-checklist-heading" data-testid="scope-checklist">
      <h4 id="cis-checklist-heading" className="font-semibold">
        Scope Checklist
      </h4>
      {clean ? <p className="mt-2 text-sm text-success">No issues found.</p> : null}
      {checklist.errors.length ? (
        <div className="mt-3">
          <h5 className="text-sm font-semibold text-danger">Errors ({checklist.errors.length})</h5>
          <ul className="mt-1 list-disc space-y-1 pl-5 text-sm" data-testid="checklist-errors">
            {checklist.errors.map((e) => (
              <li key={e}>{e}</li>
            ))}
          </ul>
        </div>
      ) : null}
      {checklist.warnings.length ? (
        <div className="mt-3">
          <h5 className="text-sm font-semibold text-amber-800 dark:text-amber-400">Warnings ({checklist.warnings.length})</h5>
          <ul className="mt-1 list-disc space-y-1 pl-5 text-sm" data-testid="checklist-warnings">
            {checklist.warnings.map((w) => (
              <li key={w}>{w}</li>
            ))}
          </ul>
        </div>
      ) : null}
    </section>
  );
}
