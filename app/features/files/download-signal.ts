/**
 * How a download tells the page it has started. The page cannot see an attachment response, so
 * it adds a random nonce to the download URL and the server answers the file with a short-lived
 * cookie named after it; the page watches for that cookie. The cookie carries no secret: it only
 * says "the response for this nonce began", and only to the page that made the nonce up.
 */
export const DOWNLOAD_SIGNAL_PARAM = "dl";
export const DOWNLOAD_SIGNAL_PATTERN = /^[A-Za-z0-9]{16,40}$/;
export const DOWNLOAD_SIGNAL_MAX_AGE_S = 120;

export function downloadSignalCookie(nonce: string): string {
  return `file_dl_${nonce}`;
}

/** The Set-Cookie for a download answer, or null when the request carried no valid nonce. */
export function downloadSignalHeader(url: URL): string | null {
  const nonce = url.searchParams.get(DOWNLOAD_SIGNAL_PARAM);
  if (!nonce || !DOWNLOAD_SIGNAL_PATTERN.test(nonce)) return null;
  const secure = url.protocol === "https:" ? "; Secure" : "";
  return `${downloadSignalCookie(nonce)}=1; Path=/; Max-Age=${DOWNLOAD_SIGNAL_MAX_AGE_S}; SameSite=Strict${secure}`;
}
