import { Link } from "react-router";

/**
 * 'Invite to Portal': a link to the invite page, which works without JavaScript.
 * Without an id it is the variant that creates the subcontractor first.
 */
export function InviteToPortalButton({ subcontractorId, label = "Invite to Portal", className = "" }: { subcontractorId?: string; label?: string; className?: string }) {
  const to = subcontractorId ? `/cis/subcontractors/${subcontractorId}/invite` : "/cis/subcontractors/invite";
  return (
    <Link to={to} className={className}>
      {label}
    </Link>
  );
}
