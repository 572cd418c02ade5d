/**
 * The words for a subcontractor's type, verification status and method, and the active/archived
 * badge: what the list, the detail page and the form all show. Kept apart from the table so that a
 * page showing one subcontractor does not load the list's table code.
 */
export const TYPE_LABELS = { individual: "Individual", company: "Company", partnership: "Partnership" } as const;
export const STATUS_LABELS = { gross: "Gross", standard: "Standard", higher: "Higher" } as const;
export const METHOD_LABELS = { online: "Online", phone: "Phone", letter: "Letter" } as const;

export function StatusBadge({ active }: { active: boolean }) {
  return <span className={active ? "pill bg-success/15" : "pill bg-surface opacity-80"}>{active ? "Active" : "Archived"}</span>;
}
