import { Link } from "react-router";
import { buttonClass } from "./button";

/**
 * Previous / 'Page X of Y' / Next links for a server-paginated list; nothing when there is one page.
 * `more`: the list counted its items only so far (a search), so Y is a lower bound ('of at least Y').
 */
export function Pager({ page, pageCount, href, more = false }: { page: number; pageCount: number; href: (page: number) => string; more?: boolean }) {
  if (pageCount <= 1) return null;
  const step = (to: number, label: string, rel: "prev" | "next", enabled: boolean) =>
    enabled ? (
      <Link to={href(to)} rel={rel} className={buttonClass("secondary")}>
        {label}
      </Link>
    ) : (
      <span aria-disabled="true" className={buttonClass("secondary", "opacity-50")}>
        {label}
      </span>
    );
  return (
    <nav aria-label="Pagination" className="flex items-center justify-between text-sm">
      {step(page - 1, "Previous", "prev", page > 1)}
      <span>{`Page ${page} of ${more ? "at least " : ""}${pageCount}`}</span>
      {step(page + 1, "Next", "next", page < pageCount)}
    </nav>
  );
}

/** The list's item count beside its tools: "1 item", "40 items", or "More than 100 items" when a search counted only so far. */
export function itemCount(total: number, more = false): string {
  if (more) return `More than ${total} items`;
  return total === 1 ? "1 item" : `${total} items`;
}
