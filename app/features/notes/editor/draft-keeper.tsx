import { useEffect, useRef, useState, type RefObject } from "react";
import { useNavigate } from "react-router";
import { buttonClass } from "~/components/ui/button";
import { formatDateTime } from "~/utils/dates";
import { draftOf, draftValues, dropDraft, hasWords, readDraft, sameDraft, valuesDraft, writeDraft, type EditorValues, type LocalDraft } from "./local-draft";

/** Quiet time after the last change before the draft is written, and how long 'Draft saved' shows. */
export const AUTOSAVE_MS = 1000;
export const BADGE_MS = 2000;
export const UNSAVED_MESSAGE = "You have unsaved changes. Your draft will be saved automatically.";

type Props = {
  form: RefObject<HTMLFormElement | null>;
  storageKey: string;
  /** The form as the page first showed it: what 'unsaved' is measured against. Filled on first mount. */
  baseline: RefObject<LocalDraft | null>;
  /** What the form was rendered with. */
  values: EditorValues;
  onRestore: (values: EditorValues) => void;
};

/** The autosave, the restore offer, the leave guard and the badge's state, over the form's own events. */
function useLocalDraft({ form, storageKey, baseline, values }: Omit<Props, "onRestore">) {
  // Rendered in the browser only (the editor loads after hydration), so storage can be read here.
  const [offer, setOffer] = useState<LocalDraft | null>(() => {
    const stored = readDraft(storageKey);
    return stored && !sameDraft(stored, valuesDraft(values, storageKey)) ? stored : null;
  });
  const [badge, setBadge] = useState(false);
  const [leaving, setLeaving] = useState<string | null>(null);
  const doneRef = useRef(false);

  useEffect(() => {
    const el = form.current;
    if (!el) return;
    baseline.current ??= draftOf(el, storageKey);
    let timer: ReturnType<typeof setTimeout> | undefined;
    let badgeTimer: ReturnType<typeof setTimeout> | undefined;
    /** Writes the draft when the form holds words the page did not start with; returns whether there was one. */
    const save = () => {
      clearTimeout(timer);
      const d = draftOf(el, storageKey);
      if (!hasWords(d) || sameDraft(d, baseline.current!)) return false;
      if (writeDraft(storageKey, d)) {
        setBadge(true);
        clearTimeout(badgeTimer);
        badgeTimer = setTimeout(() => setBadge(false), BADGE_MS);
      }
      return true;
    };
    const onInput = () => {
      doneRef.current = false;
      clearTimeout(timer);
      timer = setTimeout(save, AUTOSAVE_MS);
    };
    const onSubmit = (e: SubmitEvent) => {
      const intent = (e.submitter as HTMLButtonElement | null)?.value;
      if (intent !== "save" && intent !== "save-draft") return;
      clearTimeout(timer);
      doneRef.current = true;
      dropDraft(storageKey);
    };
    const onClick = (e: MouseEvent) => {
      if (doneRef.current || e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
      const a = (e.target as Element | null)?.closest?.("a[href]") as HTMLAnchorElement | null;
      if (!a || a.target || a.origin !== window.location.origin || !save()) return;
      e.preventDefault();
      e.stopPropagation();
      setLeaving(a.pathname + a.search + a.hash);
    };
    const onUnload = (e: BeforeUnloadEvent) => {
      if (doneRef.current || !save()) return;
      e.preventDefault();
      e.returnValue = UNSAVED_MESSAGE;
    };
    el.addEventListener("input", onInput);
    el.addEventListener("change", onInput);
    el.addEventListener("submit", onSubmit);
    window.addEventListener("click", onClick, true);
    window.addEventListener("beforeunload", onUnload);
    return () => {
      clearTimeout(timer);
      clearTimeout(badgeTimer);
      el.removeEventListener("input", onInput);
      el.removeEventListener("change", onInput);
      el.removeEventListener("submit", onSubmit);
      window.removeEventListener("click", onClick, true);
      window.removeEventListener("beforeunload", onUnload);
    };
  }, [form, storageKey, baseline]);
  return { offer, setOffer, badge, leaving, setLeaving, doneRef };
}

/**
 * Keeps the form as a draft in this browser: written a second after the last change (with a
 * 'Draft saved' badge for two seconds), offered back when the person returns, cleared when the
 * note is saved. Following a link away with unsaved words saves the draft first and asks.
 */
export function DraftKeeper({ form, storageKey, baseline, values, onRestore }: Props) {
  const { offer, setOffer, badge, leaving, setLeaving, doneRef } = useLocalDraft({ form, storageKey, baseline, values });
  return (
    <>
      <p role="status" className="min-h-5 text-sm font-medium text-accent-ink" data-testid="draft-badge">
        {badge ? "Draft saved" : ""}
      </p>
      {offer ? (
        <RestoreOffer
          draft={offer}
          onRestore={() => {
            setOffer(null);
            onRestore(draftValues(offer));
          }}
          onDiscard={() => {
            setOffer(null);
            dropDraft(storageKey);
          }}
        />
      ) : null}
      {leaving ? (
        <LeaveDialog
          onStay={() => setLeaving(null)}
          onLeave={() => {
            doneRef.current = true;
            setLeaving(null);
            return leaving;
          }}
        />
      ) : null}
    </>
  );
}

function RestoreOffer({ draft, onRestore, onDiscard }: { draft: LocalDraft; onRestore: () => void; onDiscard: () => void }) {
  return (
    <section aria-label="Unsaved draft" className="rounded-brand border border-line bg-surface p-3 text-sm">
      <p>
        You have an unsaved draft of this note from {formatDateTime(draft.savedAt)}
        {draft.title ? ` (“${draft.title}”)` : ""}.
      </p>
      <div className="mt-2 flex flex-wrap gap-2">
        <button type="button" className={buttonClass("primary", "px-3 py-1")} onClick={onRestore}>
          Restore draft
        </button>
        <button type="button" className={buttonClass("secondary", "px-3 py-1")} onClick={onDiscard}>
          Discard draft
        </button>
      </div>
    </section>
  );
}

/** 'Draft Saved Automatically': stay, or go where the link pointed. */
function LeaveDialog({ onStay, onLeave }: { onStay: () => void; onLeave: () => string }) {
  const ref = useRef<HTMLDialogElement>(null);
  const navigate = useNavigate();
  useEffect(() => {
    const d = ref.current;
    if (d && !d.open) d.showModal();
  }, []);
  return (
    <dialog ref={ref} aria-labelledby="draft-dialog-title" onClose={onStay} className="dialog max-w-md">
      <h2 id="draft-dialog-title" className="text-lg font-semibold">
        Draft Saved Automatically
      </h2>
      <p className="mt-2 text-sm">Your note is kept as a draft in this browser. Come back to this page to pick it up again.</p>
      <div className="mt-4 flex flex-wrap justify-end gap-2">
        <button type="button" className={buttonClass("secondary")} onClick={() => ref.current?.close()}>
          Keep Editing
        </button>
        <button type="button" className={buttonClass("primary")} onClick={() => void navigate(onLeave())}>
          Leave Editor
        </button>
      </div>
    </dialog>
  );
}
