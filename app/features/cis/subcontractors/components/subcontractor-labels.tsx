/**
 * The words for a subcontractor's type, verification status and method, and the active/archived
 * badge: what the list, the detail page and the form all show. Kept apart from the table so that a
 * page showing one subcontractor does not load the list's table code.
 */
export const TYPE_LABELS = { individual: "Individual", company: "Company", partnership: "Partnership" } as const;
export const STATUS_LABELS = { gross: "Gross", standard: "Standard", higher: "Higher" } as const;
export const METHOD_LABELS = { online: "Online", phone: "Phone", letter: "Letter" } as const;

/** The active/archived badge's classes (the list writes the same badge as markup). */
export const BADGE_CLASS = { active: "pill bg-success/15", archived: "pill bg-surface opacity-80" } as const;

export function StatusBadge({ active }: { active: boolean }) {
  return <span className={active ? BADGE_CLASS.active : BADGE_CLASS.archived}>{active ? "Active" : "Archived"}</span>;
}
