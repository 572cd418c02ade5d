import { Form, Link } from "react-router";
import { buttonClass } from "~/components/ui/button";
import { inputClass } from "~/components/ui/field";

const FILTERS: [string, string][] = [
  ["all", "All"],
  ["mine", "Mine"],
  ["shared", "Shared"],
  ["private", "Private"],
];

/** Search, filter pills, grid/list switch and tile size; all plain GET links and forms. */
export function ListToolbar({
  q,
  filter,
  view,
  tile,
  href,
  searchLabel,
}: {
  q: string;
  filter: string;
  view: "grid" | "list";
  tile: number;
  href: (changes: Record<string, string | null>) => string;
  searchLabel: string;
}) {
  return (
    <div className="mb-4 flex flex-wrap items-end gap-3">
      <Form method="get" role="search" className="flex gap-2">
        <input type="hidden" name="filter" value={filter} />
        <label>
          <span className="sr-only">{searchLabel}</span>
          <input type="search" name="q" defaultValue={q} placeholder={searchLabel} className={inputClass} />
        </label>
        <button type="submit" className={buttonClass("secondary")}>
          Search
        </button>
      </Form>
      <nav aria-label="Filter" className="flex gap-1 text-sm">
        {FILTERS.map(([value, label]) => (
          <Link
            key={value}
            to={href({ filter: value, page: null })}
            aria-current={filter === value ? "page" : undefined}
            className={`rounded-full border border-line px-3 py-1 ${filter === value ? "bg-accent text-accent-foreground" : ""}`}
          >
            {label}
          </Link>
        ))}
      </nav>
      <nav aria-label="View" className="flex gap-1 text-sm">
        <Link
          to={href({ view: "list" })}
          aria-current={view === "list" ? "page" : undefined}
          className={buttonClass(view === "list" ? "primary" : "secondary")}
        >
          List
        </Link>
        <Link
          to={href({ view: "grid" })}
          aria-current={view === "grid" ? "page" : undefined}
          className={buttonClass(view === "grid" ? "primary" : "secondary")}
        >
          Grid
        </Link>
      </nav>
      {view === "grid" ? (
        <Form method="get" className="flex items-end gap-2 text-sm">
          <input type="hidden" name="filter" value={filter} />
          <input type="hidden" name="q" value={q} />
          <label>
            <span className="block text-xs opacity-70">Tile size</span>
            <input type="range" name="tile" min={100} max={320} step={20} defaultValue={tile} />
          </label>
          <button type="submit" className={buttonClass("secondary")}>
            Apply
          </button>
        </Form>
      ) : null}
    </div>
  );
}
