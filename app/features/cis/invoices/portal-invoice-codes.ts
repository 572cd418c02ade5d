// Limits and messages of portal invoice submissions that the form renders as well as the server:
// kept out of *.server.ts so the route component can import them.

/** The subcontractor's own invoice PDF, sent with a portal submission. */
export const PORTAL_PDF_MAX_BYTES = 10 * 1024 * 1024;

export type PortalAttachmentErrorCode = "not_pdf" | "too_large" | "unreadable";

export const PORTAL_ATTACHMENT_MESSAGES: Readonly<Record<PortalAttachmentErrorCode, string>> = {
  not_pdf: "The attachment must be a PDF file",
  too_large: "The attachment must be 10 MB or smaller",
  unreadable: "The attachment could not be read. Please attach it again.",
};

/** Said next to the file input after any refused submission: browsers never keep a chosen file. */
export const ATTACH_AGAIN = "If you attached a PDF, attach it again before submitting.";
