import { useState } from "react";
import { Form } from "react-router";
import { SubmitButton } from "~/components/ui/button";
import { inputClass } from "~/components/ui/field";
import { SubmissionKeyInput } from "~/features/platform";
import { isPdf, SIGNATURE_MESSAGES, SUBCONTRACTOR_SIGNER_PREFIX } from "../signature-rules";

type Person = { id: string; displayName: string; email: string };
type Subcontractor = { id: string; name: string; email: string };

/**
 * Request Signature on a file's page: pick one team member or, when the person may see them, one
 * of the tenant's subcontractors (who signs in the portal); searchable by name or e-mail with
 * JavaScript, a plain radio list without. A non-PDF only says it cannot be signed.
 */
// eslint-disable-next-line max-lines-per-function -- one form: every field reads the same form state, so a split would only pass it through props
export function RequestSignatureForm({
  file,
  people,
  subcontractors = null,
  submissionKey,
}: {
  file: { id: string; name: string; mimeType: string; pendingSign: boolean; signed: boolean };
  people: Person[];
  /** The subcontractors who may be asked, or null when this person may not pick subcontractors. */
  subcontractors?: Subcontractor[] | null;
  /** Sending e-mails the signer: the form's one-time submission key. */
  submissionKey: string;
}) {
  const [query, setQuery] = useState("");
  const needle = query.trim().toLowerCase();
  const shown = needle ? people.filter((p) => p.displayName.toLowerCase().includes(needle) || p.email.toLowerCase().includes(needle)) : people;
  const subs = subcontractors ?? [];
  const shownSubs = needle ? subs.filter((p) => p.name.toLowerCase().includes(needle) || p.email.toLowerCase().includes(needle)) : subs;
  if (!isPdf(file.mimeType, file.name))
    return (
      <section aria-labelledby="request-signature-title" className="space-y-1">
        <h2 id="request-signature-title" className="text-lg font-semibold">
          {SIGNATURE_MESSAGES.notPdfTitle}
        </h2>
        <p className="text-sm">{SIGNATURE_MESSAGES.notPdf}</p>
      </section>
    );
  if (file.signed || file.pendingSign)
    return (
      <p className="text-sm" data-testid="signature-state">
        {file.signed ? "This document is signed." : "A signature request for this document is pending."}
      </p>
    );
  return (
    <Form method="post" action="/files/signatures/request" className="space-y-2" aria-labelledby="request-signature-title">
      <h2 id="request-signature-title" className="text-lg font-semibold">
        Request Signature
      </h2>
      <input type="hidden" name="fileId" value={file.id} />
      <SubmissionKeyInput value={submissionKey} />
      <label className="block text-sm">
        <span className="sr-only">{subcontractors ? "Search team members and subcontractors" : "Search team members"}</span>
        <input
          type="search"
          value={query}
          onChange={(e) => setQuery(e.currentTarget.value)}
          placeholder={subcontractors ? "Search team members and subcontractors" : "Search team members"}
          className={inputClass}
        />
      </label>
      <fieldset className="max-h-[16rem] overflow-y-auto rounded-brand border border-line p-2">
        <legend className={subcontractors ? "text-sm font-medium" : "sr-only"}>{subcontractors ? "Team members" : "Signer"}</legend>
        {people.length === 0 ? (
          <p className="text-sm opacity-70">{SIGNATURE_MESSAGES.noTeamMembers}</p>
        ) : shown.length === 0 ? (
          <p className="text-sm opacity-70">{SIGNATURE_MESSAGES.noUsersFound}</p>
        ) : (
          shown.map((p) => (
            <label key={p.id} className="block text-sm">
              <input type="radio" name="signerId" value={p.id} required /> {p.displayName} <span className="opacity-60">{p.email}</span>
            </label>
          ))
        )}
      </fieldset>
      {subcontractors ? (
        <fieldset className="max-h-[16rem] overflow-y-auto rounded-brand border border-line p-2" data-testid="subcontractor-signers">
          <legend className="text-sm font-medium">Subcontractors (sign in the portal)</legend>
          {subs.length === 0 ? (
            <p className="text-sm opacity-70">{SIGNATURE_MESSAGES.noSubcontractors}</p>
          ) : shownSubs.length === 0 ? (
            <p className="text-sm opacity-70">{SIGNATURE_MESSAGES.noUsersFound}</p>
          ) : (
            shownSubs.map((p) => (
              <label key={p.id} className="block text-sm">
                <input type="radio" name="signerId" value={`${SUBCONTRACTOR_SIGNER_PREFIX}${p.id}`} required /> {p.name}{" "}
                <span className="opacity-60">{p.email}</span>
              </label>
            ))
          )}
        </fieldset>
      ) : null}
      <SubmitButton variant="primary" action="/files/signatures/request" pendingText="Sending...">
        Send request
      </SubmitButton>
    </Form>
  );
}
