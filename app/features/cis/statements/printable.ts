import { statementHtml, type StatementDocument } from "./document";

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c);

/**
 * The statement document as a page to print: the same HTML as the download, plus a bar (not
 * printed) with a way back, and a nonce'd script that opens the print dialog when JavaScript runs.
 */
export function printableStatementHtml(doc: StatementDocument, opts: { nonce: string; backHref: string }): string {
  const bar = `<nav class="no-print" aria-label="Statement"><p><a href="${esc(opts.backHref)}">Back to statements</a> · Issued for printing: use your browser's Print command if the print dialog did not open.</p></nav>`;
  const style = `<style>.no-print{border-bottom:1px solid #999;margin-bottom:1rem}@media print{.no-print{display:none}}</style>`;
  const script = `<script nonce="${esc(opts.nonce)}">window.addEventListener("load",function(){window.print()});</script>`;
  return statementHtml(doc).replace("</head>", `${style}\n</head>`).replace("<body>", `<body>\n${bar}`).replace("</body>", `${script}\n</body>`);
}
