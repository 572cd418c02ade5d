import { Link } from "react-router";
import { buttonClass } from "./button";

/** Previous / 'Page X of Y' / Next links for a server-paginated list; nothing when there is one page. */
export function Pager({ page, pageCount, href }: { page: number; pageCount: number; href: (page: number) => string }) {
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
      <span>{`Page ${page} of ${pageCount}`}</span>
      {step(page + 1, "Next", "next", page < pageCount)}
    </nav>
  );
}
