import { Form, Link } from "react-router";
import { buttonClass } from "./button";

/**
 * A list's Export and Import buttons. Export posts the list's current filters (as hidden fields, in
 * the order given) to the export route as a plain form, so the download works without JavaScript.
 */
export function ExportImportButtons({
  exportAction,
  filters,
  importTo,
  canExport,
  canImport,
}: {
  exportAction: string;
  filters: Record<string, string>;
  importTo: string;
  canExport: boolean;
  canImport: boolean;
}) {
  return (
    <>
      {canExport ? (
        <Form method="post" action={exportAction} reloadDocument>
          {Object.entries(filters).map(([name, value]) => (
            <input key={name} type="hidden" name={name} value={value} />
          ))}
          <button type="submit" className={buttonClass("secondary")}>
            Export
          </button>
        </Form>
      ) : null}
      {canImport ? (
        <Link to={importTo} className={buttonClass("secondary")}>
          Import
        </Link>
      ) : null}
    </>
  );
}
