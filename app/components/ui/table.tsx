import { createContext, useContext, useId, type ReactNode, type TdHTMLAttributes, type ThHTMLAttributes, type HTMLAttributes } from "react";
import { Link } from "react-router";

type Density = "normal" | "compact";

const CELL: Record<Density, string> = {
  normal: "px-3 py-2",
  compact: "px-2 py-1.5",
};

const DensityContext = createContext<Density>("normal");

/**
 * The box a table scrolls in on a narrow screen, so the page itself never scrolls sideways; put the
 * key columns first, they are what a phone shows before scrolling. It is a positioning box
 * (`relative`): visually hidden text in the cells is absolutely positioned, and would otherwise
 * escape the box and widen the page. It is a region named by the table's caption that the keyboard
 * reaches, so it can be scrolled without a mouse even when the table holds no link or button.
 */
export function TableScroll({ captionId, className = "overflow-x-auto", children }: { captionId: string; className?: string; children: ReactNode }) {
  return (
    <div
      role="region"
      aria-labelledby={captionId}
      tabIndex={0}
      className={`relative ${className} focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-accent-ink`}
    >
      {children}
    </div>
  );
}

/**
 * A data table. It always has an accessible name: `caption` (visually hidden unless
 * `showCaption`) names it for screen readers, which list tables by their caption.
 */
export function Table({
  caption,
  showCaption = false,
  density = "normal",
  className = "",
  scrollClassName = "overflow-x-auto",
  children,
}: {
  caption: ReactNode;
  showCaption?: boolean;
  density?: Density;
  className?: string;
  /** The wrapper that scrolls a wide table on a narrow screen. */
  scrollClassName?: string;
  children: ReactNode;
}) {
  const captionId = useId();
  return (
    <DensityContext.Provider value={density}>
      <TableScroll captionId={captionId} className={scrollClassName}>
        {/* A link or button in a cell keeps its words together: in a narrow scroll box the columns
            shrink to their narrowest, and row actions would otherwise stack one word per line. */}
        <table className={`w-full text-left text-sm [&_td_a]:whitespace-nowrap [&_td_button]:whitespace-nowrap ${className}`}>
          <caption id={captionId} className={showCaption ? "mb-2 text-left font-semibold" : "sr-only"}>
            {caption}
          </caption>
          {children}
        </table>
      </TableScroll>
    </DensityContext.Provider>
  );
}

/** The header row: pass the column headers (TH) as children. */
export function THead({ className = "", children }: { className?: string; children: ReactNode }) {
  return (
    <thead className={className}>
      <tr className="border-b border-line">{children}</tr>
    </thead>
  );
}

type SortDirection = "ascending" | "descending";

/**
 * A column header (scope="col"), or a row header with scope="row". A sortable column takes
 * `sort`: its link (a plain GET, so it works without JavaScript) and, when the table is sorted
 * by it, the direction, announced through aria-sort.
 */
export function TH({
  scope = "col",
  sort,
  className = "",
  children,
  ...props
}: Omit<ThHTMLAttributes<HTMLTableCellElement>, "scope"> & {
  scope?: "col" | "row";
  sort?: { href: string; direction?: SortDirection | null };
  children?: ReactNode;
}) {
  const density = useContext(DensityContext);
  const direction = sort?.direction ?? null;
  return (
    <th
      scope={scope}
      aria-sort={sort ? (direction ?? "none") : undefined}
      className={`${CELL[density]} ${scope === "row" ? "font-medium" : "font-semibold"} ${className}`}
      {...props}
    >
      {sort ? (
        <Link to={sort.href} className="inline-flex items-center gap-1 underline-offset-2 hover:underline">
          {children}
          <span aria-hidden="true">{direction === "ascending" ? "▲" : direction === "descending" ? "▼" : ""}</span>
        </Link>
      ) : (
        children
      )}
    </th>
  );
}

export function TBody({ children, ...props }: HTMLAttributes<HTMLTableSectionElement>) {
  return <tbody {...props}>{children}</tbody>;
}

/** A body row's and a normal-density cell's classes, for long lists that render plain `tr`/`td` rather than a component per cell. */
export const ROW_CLASS = "border-b border-line align-top last:border-b-0";
export const CELL_CLASS = CELL.normal;

/** A body row; data-* attributes pass through (tests and scripts find rows by them). */
export function TR({ className = "", ...props }: HTMLAttributes<HTMLTableRowElement> & Record<`data-${string}`, string | number | undefined>) {
  return <tr className={`${ROW_CLASS} ${className}`} {...props} />;
}

export function TD({ className = "", ...props }: TdHTMLAttributes<HTMLTableCellElement>) {
  const density = useContext(DensityContext);
  return <td className={`${CELL[density]} ${className}`} {...props} />;
}

/** The row shown instead of data rows when there are none; spans every column. */
export function EmptyRow({ colSpan, children }: { colSpan: number; children: ReactNode }) {
  const density = useContext(DensityContext);
  return (
    <tr>
      <td colSpan={colSpan} className={`${CELL[density]} text-center opacity-70`}>
        {children}
      </td>
    </tr>
  );
}
