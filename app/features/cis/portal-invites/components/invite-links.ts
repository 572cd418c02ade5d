export const LIST_PATH = "/cis/subcontractors";

/** The invite page (no JavaScript) whose loader and action the modal also uses. */
export function inviteHref(subcontractorId?: string): string {
  return subcontractorId ? `${LIST_PATH}/${encodeURIComponent(subcontractorId)}/invite` : `${LIST_PATH}/invite`;
}
