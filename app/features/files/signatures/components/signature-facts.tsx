import { formatDateTime } from "~/utils/dates";
import { statusLabel, type SignatureStatus, type StampStatus } from "../signature-rules";

export type SignatureFactsRequest = {
  status: SignatureStatus;
  stampStatus: StampStatus | null;
  requesterName: string | null;
  signerName?: string | null;
  createdAt: number;
  signedAt: number | null;
  declinedAt: number | null;
  declineReason: string | null;
  originalSha256?: string | null;
  signedSha256?: string | null;
};

/**
 * A signature request's status and dates, as a description list. Staff also see the signer and the
 * document's fingerprints (`staff`); a subcontractor in the portal sees what concerns them.
 */
export function SignatureFacts({ r, staff }: { r: SignatureFactsRequest; staff: boolean }) {
  return (
    <dl className={`grid gap-1 text-sm ${staff ? "grid-cols-[12rem_1fr]" : "grid-cols-[10rem_1fr]"}`}>
      <dt>Status</dt>
      <dd data-testid="signature-status">{statusLabel(r)}</dd>
      <dt>Requested by</dt>
      <dd>{r.requesterName ?? "N/A"}</dd>
      {staff ? (
        <>
          <dt>Signer</dt>
          <dd>{r.signerName ?? "N/A"}</dd>
        </>
      ) : null}
      <dt>Requested</dt>
      <dd>{formatDateTime(r.createdAt)}</dd>
      <dt>Signed</dt>
      <dd>{formatDateTime(r.signedAt)}</dd>
      {r.declineReason ? (
        <>
          <dt>Declined</dt>
          <dd>
            {formatDateTime(r.declinedAt)}: {r.declineReason}
          </dd>
        </>
      ) : null}
      {staff ? (
        <>
          <dt>Original SHA-256</dt>
          <dd className="break-all font-mono text-xs">{r.originalSha256 ?? "N/A"}</dd>
          <dt>Signed SHA-256</dt>
          <dd className="break-all font-mono text-xs">{r.signedSha256 ?? "N/A"}</dd>
        </>
      ) : null}
    </dl>
  );
}
