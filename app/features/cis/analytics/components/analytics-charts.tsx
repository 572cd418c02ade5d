/**
 * Charts drawn on the server as inline SVG: they show without JavaScript and print. Each is an
 * image to assistive technology (role="img", named by its <title>); the figures themselves are
 * read from the table the page sets beside every chart.
 */

const MONTHS_SHORT = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"] as const;

/** 'Apr 26' for the tax month starting 6 April 2026: short enough for a chart axis. */
export function shortMonth(label: string): string {
  return `${MONTHS_SHORT[Number(label.slice(5, 7)) - 1] ?? "?"} ${label.slice(2, 4)}`;
}

/** '£12.5k', '£1.2m', '£300': pounds, compact, for an axis. */
export function compactPounds(pence: number): string {
  const pounds = pence / 100;
  if (pounds >= 1_000_000) return `£${+(pounds / 1_000_000).toFixed(1)}m`;
  if (pounds >= 1_000) return `£${+(pounds / 1_000).toFixed(1)}k`;
  return `£${+pounds.toFixed(0)}`;
}

export type ChartSeries = { key: string; label: string; className: string };

/** A round top for the axis: 1, 2, 2.5 or 5 times a power of ten, at least the largest value. */
function niceMax(value: number): number {
  if (value <= 0) return 1;
  const power = 10 ** Math.floor(Math.log10(value));
  for (const step of [1, 2, 2.5, 5, 10]) if (step * power >= value) return step * power;
  return 10 * power;
}

const W = 640;
const H = 260;
const PAD = { top: 16, right: 12, bottom: 40, left: 84 };

function Legend({ series }: { series: ChartSeries[] }) {
  return (
    <ul className="mt-2 flex flex-wrap gap-4 text-xs" aria-hidden="true">
      {series.map((s) => (
        <li key={s.key} className="flex items-center gap-1">
          <svg width="10" height="10" aria-hidden="true">
            <rect width="10" height="10" className={s.className} />
          </svg>
          {s.label}
        </li>
      ))}
    </ul>
  );
}

/**
 * Vertical bars per category: side by side (grouped) or on top of each other (stacked).
 * `values[s][c]` is series s in category c.
 */
export function BarChart({
  id,
  title,
  categories,
  series,
  values,
  format,
  axisFormat = format,
  stacked = false,
}: {
  id: string;
  title: string;
  categories: string[];
  series: ChartSeries[];
  values: number[][];
  format: (n: number) => string;
  /** The y axis's labels, when shorter than `format` reads better there. */
  axisFormat?: (n: number) => string;
  stacked?: boolean;
}) {
  const totals = categories.map((_, c) =>
    stacked ? series.reduce((a, _s, s) => a + (values[s]?.[c] ?? 0), 0) : Math.max(0, ...series.map((_s, s) => values[s]?.[c] ?? 0)),
  );
  const top = niceMax(Math.max(0, ...totals));
  const plotW = W - PAD.left - PAD.right;
  const plotH = H - PAD.top - PAD.bottom;
  const band = plotW / Math.max(1, categories.length);
  const barW = stacked ? band * 0.6 : (band * 0.75) / Math.max(1, series.length);
  const y = (v: number) => PAD.top + plotH - (v / top) * plotH;
  const ticks = [0, 0.25, 0.5, 0.75, 1].map((f) => f * top);
  return (
    <figure data-chart={id}>
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-labelledby={`${id}-title`} className="h-auto w-full" xmlns="http://www.w3.org/2000/svg">
        <title id={`${id}-title`}>{title}</title>
        {ticks.map((t) => (
          <g key={t}>
            <line x1={PAD.left} x2={W - PAD.right} y1={y(t)} y2={y(t)} className="stroke-line" strokeWidth="1" />
            <text x={PAD.left - 6} y={y(t) + 4} textAnchor="end" fontSize="11" className="fill-current opacity-70">
              {axisFormat(t)}
            </text>
          </g>
        ))}
        {categories.map((cat, c) => {
          const x0 = PAD.left + c * band;
          let stackTop = 0;
          return (
            <g key={cat}>
              {series.map((s, si) => {
                const v = values[si]?.[c] ?? 0;
                if (v <= 0) return null;
                if (stacked) {
                  const yTop = y(stackTop + v);
                  const rect = (
                    <rect key={s.key} x={x0 + (band - barW) / 2} y={yTop} width={barW} height={y(stackTop) - yTop} className={s.className}>
                      <title>{`${cat}, ${s.label}: ${format(v)}`}</title>
                    </rect>
                  );
                  stackTop += v;
                  return rect;
                }
                const x = x0 + (band - barW * series.length) / 2 + si * barW;
                return (
                  <rect key={s.key} x={x} y={y(v)} width={Math.max(1, barW - 2)} height={y(0) - y(v)} className={s.className}>
                    <title>{`${cat}, ${s.label}: ${format(v)}`}</title>
                  </rect>
                );
              })}
              <text x={x0 + band / 2} y={H - PAD.bottom + 16} textAnchor="middle" fontSize="11" className="fill-current">
                {cat}
              </text>
            </g>
          );
        })}
      </svg>
      <Legend series={series} />
    </figure>
  );
}

/** One horizontal bar per row, longest first as given: for ranked names too long for an axis. */
export function HorizontalBarChart({
  id,
  title,
  rows,
  format,
  className,
}: {
  id: string;
  title: string;
  rows: { key: string; label: string; value: number }[];
  format: (n: number) => string;
  className: string;
}) {
  const rowH = 26;
  const labelW = 180;
  const valueW = 110;
  const height = Math.max(1, rows.length) * rowH + 8;
  const max = Math.max(1, ...rows.map((r) => r.value));
  const barSpace = W - labelW - valueW;
  return (
    <figure data-chart={id}>
      <svg viewBox={`0 0 ${W} ${height}`} role="img" aria-labelledby={`${id}-title`} className="h-auto w-full" xmlns="http://www.w3.org/2000/svg">
        <title id={`${id}-title`}>{title}</title>
        {rows.map((r, i) => {
          const yy = 4 + i * rowH;
          const w = Math.max(r.value > 0 ? 2 : 0, (r.value / max) * barSpace);
          return (
            <g key={r.key}>
              <text x={labelW - 8} y={yy + rowH / 2 + 4} textAnchor="end" fontSize="12" className="fill-current">
                {r.label.length > 26 ? `${r.label.slice(0, 25)}…` : r.label}
              </text>
              <rect x={labelW} y={yy + 4} width={w} height={rowH - 8} className={className}>
                <title>{`${r.label}: ${format(r.value)}`}</title>
              </rect>
              <text x={labelW + w + 6} y={yy + rowH / 2 + 4} fontSize="12" className="fill-current">
                {format(r.value)}
              </text>
            </g>
          );
        })}
      </svg>
    </figure>
  );
}
