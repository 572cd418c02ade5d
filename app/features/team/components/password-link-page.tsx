import type { SubmissionResult } from "@conform-to/react";
import { AppShell } from "~/features/platform";
import { SetPasswordForm } from "./set-password-form";

/** The page of /activate and /reset-password: the form, or what is wrong with the link. */
export function PasswordLinkPage({
  title,
  submitLabel,
  loaderData,
  actionData,
}: {
  title: string;
  submitLabel: string;
  loaderData: { token: string; email: string; problem: string | null };
  actionData?: { result: SubmissionResult<string[]>; problem: string | null };
}) {
  const problem = actionData?.problem ?? loaderData.problem;
  return (
    <AppShell>
      <div className="mx-auto max-w-md px-6 py-12">
        <h1 className="text-2xl font-bold">{title}</h1>
        {problem ? (
          <p role="alert" className="mt-6 rounded-brand border border-danger p-4 text-sm" data-testid="link-problem">
            {problem}
          </p>
        ) : (
          <>
            <p className="mt-2 text-sm opacity-70">Choose a password for {loaderData.email}.</p>
            <SetPasswordForm token={loaderData.token} email={loaderData.email} lastResult={actionData?.result} submitLabel={submitLabel} />
          </>
        )}
      </div>
    </AppShell>
  );
}
