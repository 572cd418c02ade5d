import type { MouseEvent, ReactNode } from "react";
import { showToast } from "~/components/ui/toaster";
import { DOWNLOAD_SIGNAL_PARAM, downloadSignalCookie } from "../download-signal";
import { FILE_MESSAGES } from "../file-rules";

/** How long to wait for the file's answer before treating the download as failed. */
const START_TIMEOUT_MS = 30_000;
const POLL_MS = 150;

/**
 * A download link. Without JavaScript it is a plain link to the attachment. With it, the page
 * says 'Preparing download...', fetches the file in a hidden frame (so nothing is held in the
 * page's memory, and the download is logged once), says 'Download started' when the server's
 * answer arrives, and on an error answer says 'Download failed. Opening in new tab...' and opens
 * the link in a new tab, where the person sees what went wrong.
 */
export function DownloadLink({ href, className, children }: { href: string; className?: string; children: ReactNode }) {
  function onClick(e: MouseEvent<HTMLAnchorElement>) {
    if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    startDownload(e.currentTarget.getAttribute("href") ?? href);
  }
  return (
    <a href={href} className={className} onClick={onClick} data-download-link="">
      {children}
    </a>
  );
}

function randomNonce(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

export function startDownload(href: string): void {
  const nonce = randomNonce();
  const cookie = downloadSignalCookie(nonce);
  const url = new URL(href, window.location.href);
  url.searchParams.set(DOWNLOAD_SIGNAL_PARAM, nonce);
  showToast({ type: "info", title: FILE_MESSAGES.downloadPreparing });

  const frame = document.createElement("iframe");
  frame.hidden = true;
  frame.title = "Download";
  frame.setAttribute("aria-hidden", "true");
  let settled = false;
  const began = () => document.cookie.split("; ").some((c) => c.startsWith(`${cookie}=`));
  const finish = (ok: boolean) => {
    if (settled) return;
    settled = true;
    clearInterval(timer);
    clearTimeout(deadline);
    document.cookie = `${cookie}=; Path=/; Max-Age=0; SameSite=Strict`;
    if (ok) showToast({ type: "success", title: FILE_MESSAGES.downloadStarted });
    else {
      showToast({ type: "error", title: FILE_MESSAGES.downloadFailed });
      // A blocked pop-up still gets the person to the answer, in this tab.
      // ("noopener" would make open() return null even when it worked, so the opener is cut by hand.)
      const tab = window.open(href, "_blank");
      if (tab) tab.opener = null;
      else window.location.assign(href);
    }
    // The frame goes once the download has surely been handed to the browser.
    setTimeout(() => frame.remove(), 60_000);
  };
  const timer = setInterval(() => {
    if (began()) finish(true);
  }, POLL_MS);
  const deadline = setTimeout(() => finish(began()), START_TIMEOUT_MS);
  // A page loaded in the frame is an error answer; an attachment does not load one.
  frame.addEventListener("load", () => finish(began()));
  frame.src = url.toString();
  document.body.appendChild(frame);
}
