import { useEffect, useState } from "react";
import type { Toast, ToastType } from "~/utils/toast";

const STYLES: Record<ToastType, string> = {
  success: "border-success bg-success/10",
  error: "border-danger bg-danger/10",
  warning: "border-amber-500 bg-amber-500/10",
  info: "border-sky-500 bg-sky-500/10",
};

const DURATION_MS = 4000;

/**
 * Bottom-centre toast. Rendered on the server from the flash cookie, so it shows without
 * JavaScript (closable through a details-free link); with JavaScript it closes itself after 4 s.
 */
export function Toaster({ toast }: { toast: Toast | null }) {
  // The toast that was closed or timed out; a new toast (a new object) shows again.
  const [dismissed, setDismissed] = useState<Toast | null>(null);
  useEffect(() => {
    if (!toast) return;
    const t = setTimeout(() => setDismissed(toast), DURATION_MS);
    return () => clearTimeout(t);
  }, [toast]);
  if (!toast || toast === dismissed) return null;
  return (
    <div className="pointer-events-none fixed inset-x-0 bottom-4 z-50 flex justify-center px-4" aria-live="polite">
      <div
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
        <style>{"@keyframes toast-progress{from{width:100%}to{width:0}}"}</style>
      </div>
    </div>
  );
}
