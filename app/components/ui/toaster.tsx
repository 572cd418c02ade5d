import { useEffect, useState } from "react";
import type { Toast, ToastType } from "~/utils/toast";

const STYLES: Record<ToastType, string> = {
  success: "border-success bg-success/10",
  error: "border-danger bg-danger/10",
  warning: "border-amber-500 bg-amber-500/10",
  info: "border-sky-500 bg-sky-500/10",
};

const DURATION_MS = 4000;
const CLIENT_TOAST_EVENT = "app:toast";

/**
 * Shows a toast from the browser (a step of something running in the page, like a download),
 * replacing whatever toast is showing. A no-op on the server.
 */
export function showToast(toast: Toast): void {
  if (typeof window === "undefined") return;
  window.dispatchEvent(new CustomEvent<Toast>(CLIENT_TOAST_EVENT, { detail: toast }));
}

/**
 * Bottom-centre toast. Rendered on the server from the flash cookie, so it shows without
 * JavaScript (closable through a details-free link); with JavaScript it closes itself after 4 s.
 */
export function Toaster({ toast: fromServer }: { toast: Toast | null }) {
  // The newest toast, from the server's flash or from showToast(); each is a new object.
  const [toast, setToast] = useState<Toast | null>(fromServer);
  const [lastFromServer, setLastFromServer] = useState<Toast | null>(fromServer);
  if (fromServer !== lastFromServer) {
    // A new flash after a navigation takes over, and a navigation without one ends the old
    // flash; a toast from the page itself stays (React's adjust-state-while-rendering pattern).
    setLastFromServer(fromServer);
    setToast(fromServer ?? (toast === lastFromServer ? null : toast));
  }
  // The toast that was closed or timed out; a new toast (a new object) shows again.
  const [dismissed, setDismissed] = useState<Toast | null>(null);
  useEffect(() => {
    const onToast = (e: Event) => {
      if (e instanceof CustomEvent) setToast({ ...(e.detail as Toast) });
    };
    window.addEventListener(CLIENT_TOAST_EVENT, onToast);
    return () => window.removeEventListener(CLIENT_TOAST_EVENT, onToast);
  }, []);
  useEffect(() => {
    if (!toast) return;
    const t = setTimeout(() => setDismissed(toast), DURATION_MS);
    return () => clearTimeout(t);
  }, [toast]);
  if (!toast || toast === dismissed) return null;
  return (
    <div className="pointer-events-none fixed inset-x-0 bottom-4 z-50 flex justify-center px-4" aria-live="polite">
      <div
        key={`${toast.type}:${toast.title}`}
        role={toast.type === "error" ? "alert" : "status"}
        data-toast-type={toast.type}
        className={`pointer-events-auto relative w-full max-w-md overflow-hidden rounded-brand border-l-4 bg-elevated p-4 pr-10 shadow-lg ${STYLES[toast.type]}`}
      >
        <p className="font-semibold">{toast.title}</p>
        {toast.message ? <p className="mt-1 text-sm opacity-80">{toast.message}</p> : null}
        <button
          type="button"
          onClick={() => setDismissed(toast)}
          className="absolute right-2 top-2 rounded p-1 text-lg leading-none opacity-70 hover:opacity-100"
          aria-label="Close notification"
        >
          ×
        </button>
        <div
          className="toast-progress absolute bottom-0 left-0 h-1 bg-current opacity-30"
          style={{ animation: `toast-progress ${DURATION_MS}ms linear forwards` }}
        />
      </div>
    </div>
  );
}
