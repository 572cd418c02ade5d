import { Form, Link } from "react-router";
import { buttonClass } from "~/components/ui/button";
import { inputClass } from "~/components/ui/field";
import { EmptyRow, Table, TBody, TD, TH, THead, TR } from "~/components/ui/table";
import { formatDateTime } from "~/utils/dates";
import { requireModule } from "~/features/auth/index.server";
import { signatureActorOf, signaturePerms } from "../access.server";
import { SIGNATURE_MESSAGES, SIGNATURE_SCOPES, statusLabel } from "../signature-rules";
import { listQuery } from "../schemas";
import { listSignatureRequests } from "../signatures.server";
import type { Route } from "./+types/list";

/** /files/signatures: Pending and Signed tabs as links (no JavaScript needed), one query for the rows. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { env, tenant, user } = await requireModule(request, context, {
    module: "files",
    scope: SIGNATURE_SCOPES.view,
    message: SIGNATURE_MESSAGES.noViewPermission,
  });
  const actor = signatureActorOf(user);
  const url = new URL(request.url);
  const { tab, q } = listQuery.parse({ tab: url.searchParams.get("tab") ?? undefined, q: url.searchParams.get("q") ?? "" });
  const rows = await listSignatureRequests(env, tenant.id, actor, tab, q);
  return { tab, q, me: user.id, perms: signaturePerms(user), rows };
}

export default function SignaturesPage({ loaderData }: Route.ComponentProps) {
  const { tab, q, me, perms, rows } = loaderData;
  const tabHref = (t: string) => `/files/signatures?tab=${t}${q ? `&q=${encodeURIComponent(q)}` : ""}`;
  return (
    <section className="space-y-4">
      <h1 className="text-2xl font-semibold">Signature documents</h1>
      <nav aria-label="Signature tabs" className="flex gap-2">
        {(["pending", "signed"] as const).map((t) => (
          <Link key={t} to={tabHref(t)} aria-current={tab === t ? "page" : undefined} className={buttonClass(tab === t ? "primary" : "secondary")}>
            {t === "pending" ? "Pending" : "Signed"}
          </Link>
        ))}
      </nav>
      <Form method="get" role="search" className="flex gap-2">
        <input type="hidden" name="tab" value={tab} />
        <label className="sr-only" htmlFor="signature-search">
          Search documents
        </label>
        <input id="signature-search" type="search" name="q" defaultValue={q} placeholder="Search documents..." className={inputClass} />
        <button type="submit" className={buttonClass("secondary")}>
          Search
        </button>
      </Form>
      <Table caption={tab === "pending" ? "Pending signature requests" : "Signed documents"}>
        <THead>
          <TH>Document</TH>
          <TH>Requested by</TH>
          <TH>Signer</TH>
          <TH>Status</TH>
          <TH>{tab === "pending" ? "Requested" : "Signed"}</TH>
          <TH>Actions</TH>
        </THead>
        <TBody>
          {rows.length === 0 ? (
            <EmptyRow colSpan={6}>
              {q ? "No documents match your search" : tab === "pending" ? SIGNATURE_MESSAGES.noPending : SIGNATURE_MESSAGES.noSigned}
            </EmptyRow>
          ) : (
            rows.map((r) => (
              <TR key={r.id} data-request={r.id}>
                <TD>
                  <Link to={`/files/signatures/${r.id}`} className="underline">
                    {r.fileName}
                  </Link>
                  <span className="block text-xs opacity-60">File ID {r.fileId}</span>
                </TD>
                <TD>{r.requesterName ?? "N/A"}</TD>
                <TD>
                  {r.signerName ?? "N/A"}
                  {r.signerKind === "subcontractor" ? <span className="block text-xs opacity-70">Subcontractor (signs in the portal)</span> : null}
                </TD>
                <TD>
                  {statusLabel(r)}
                  {r.status === "declined" && r.declineReason ? <span className="block text-xs opacity-70">{r.declineReason}</span> : null}
                </TD>
                <TD>{formatDateTime(tab === "pending" ? r.createdAt : (r.signedAt ?? r.declinedAt))}</TD>
                <TD>
                  {r.status === "pending" && r.signerId === me && perms.sign ? (
                    <Link to={`/files/signatures/${r.id}`} className={buttonClass("primary")}>
                      Sign
                    </Link>
                  ) : r.status === "signed" ? (
                    <Link to={`/files/file/${r.fileId}`} className="underline">
                      Open file
                    </Link>
                  ) : null}
                </TD>
              </TR>
            ))
          )}
        </TBody>
      </Table>
    </section>
  );
}

export function meta() {
  return [{ title: "Signatures" }];
}
