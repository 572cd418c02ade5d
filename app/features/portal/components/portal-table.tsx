/** A portal table's head row: its columns (amounts right-aligned) and a last, unlabelled column for the row's download link. */
export function PortalTableHead({ columns, linkColumn }: { columns: readonly { label: string; numeric?: boolean }[]; linkColumn: string }) {
  return (
    <thead>
      <tr>
        {columns.map((c) => (
          <th key={c.label} scope="col" className={c.numeric ? "py-2 pr-4 text-right" : "py-2 pr-4"}>
            {c.label}
          </th>
        ))}
        <th scope="col" className="py-2">
          <span className="sr-only">{linkColumn}</span>
        </th>
      </tr>
    </thead>
  );
}
