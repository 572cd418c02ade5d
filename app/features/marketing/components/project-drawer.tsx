import { useEffect, useRef, useState } from "react";
import { useFetcher } from "react-router";
import { DRAWER_CLOSE_AFTER_MS, PROJECT_REQUEST_THANKS } from "../messages";
import { ProjectRequestForm, type ProjectRequestActionData } from "./project-form";

export type DrawerPhase = "closed" | "open" | "sending" | "success";

/**
 * The 'Start a project' drawer on / (JavaScript only; without it the navigation's link leads to
 * the page form). closed → open → sending → success, which thanks the person and, after 2 s,
 * closes and clears the form. A submit while sending or after success is ignored; a refusal
 * (field errors, 'Could not send') goes back to open with the input kept.
 */
export function ProjectDrawer({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const fetcher = useFetcher<ProjectRequestActionData>({ key: "project-request" });
  // The answer already dealt with by a close: the next opening starts from an empty form.
  const [cleared, setCleared] = useState<ProjectRequestActionData | undefined>(undefined);
  const [generation, setGeneration] = useState(0);
  const answer = fetcher.data !== cleared ? fetcher.data : undefined;
  // After the answer arrives the fetcher still reloads the page's data ("loading"): the answer counts from then on.
  const sending = fetcher.state === "submitting" || (fetcher.state === "loading" && !answer);
  const success = answer?.status === "sent";
  const phase: DrawerPhase = !open ? "closed" : sending ? "sending" : success ? "success" : "open";
  const panelRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!success) return;
    const timer = window.setTimeout(() => {
      onOpenChange(false);
      setCleared(answer);
      setGeneration((g) => g + 1);
    }, DRAWER_CLOSE_AFTER_MS);
    return () => window.clearTimeout(timer);
  }, [success, answer, onOpenChange]);

  useEffect(() => {
    if (!open) return;
    panelRef.current?.querySelector<HTMLInputElement>("input[name=name]")?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape") onOpenChange(false);
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [open, onOpenChange]);

  if (!open) return null;
  return (
    <div className="fixed inset-0 z-40" data-drawer-state={phase}>
      <button type="button" aria-label="Close" tabIndex={-1} className="absolute inset-0 h-full w-full bg-black/40" onClick={() => onOpenChange(false)} />
      <div
        ref={panelRef}
        role="dialog"
        aria-modal="true"
        aria-labelledby="project-drawer-title"
        className="absolute inset-y-0 right-0 flex w-full max-w-md flex-col overflow-y-auto bg-elevated p-6 shadow-xl"
      >
        <div className="flex items-start justify-between gap-4">
          <h2 id="project-drawer-title" className="text-xl font-semibold">
            Start a project
          </h2>
          <button type="button" onClick={() => onOpenChange(false)} className="rounded-brand px-2 py-1 text-sm hover:bg-surface">
            Close
          </button>
        </div>
        <p className="mt-2 text-sm opacity-80">Tell us a little about your business. We reply within one business day.</p>
        <div className="mt-6">
          <ProjectRequestForm
            key={generation}
            id={`project-drawer-${generation}`}
            lastResult={answer?.status === "error" ? answer.result : undefined}
            fetcher={fetcher}
            pending={sending}
            disabled={success}
            onSubmit={(event) => {
              if (sending || success) event.preventDefault();
            }}
            status={
              success ? (
                <p role="status" className="rounded-brand border border-success bg-success/10 p-3 text-sm">
                  {PROJECT_REQUEST_THANKS}
                </p>
              ) : null
            }
          />
        </div>
      </div>
    </div>
  );
}
