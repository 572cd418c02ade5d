import { useEffect, useRef, useState, type KeyboardEvent } from "react";
import { buttonClass } from "~/components/ui/button";
import { existingTime, nowRounded, type WallClock } from "../domain/date-time-picker";
import { longDay, type Ymd } from "../domain/time";
import { DayGrid } from "./date-time-picker-days";
import { TimeChoice } from "./date-time-picker-time";

type Tab = "date" | "time";
const TABS: { tab: Tab; label: string }[] = [
  { tab: "date", label: "Date" },
  { tab: "time", label: "Time" },
];

/** The Date and Time tabs (arrow keys switch between them, as tabs do). */
function Tabs({ id, tab, onTab }: { id: string; tab: Tab; onTab: (tab: Tab, focus: boolean) => void }) {
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key !== "ArrowLeft" && e.key !== "ArrowRight") return;
    e.preventDefault();
    onTab(tab === "date" ? "time" : "date", true);
  };
  return (
    <div role="tablist" aria-label="Date or time" className="mt-3 grid grid-cols-2 gap-1 rounded-brand border border-line p-1" onKeyDown={onKeyDown}>
      {TABS.map((t) => (
        <button
          key={t.tab}
          type="button"
          role="tab"
          id={`${id}-tab-${t.tab}`}
          aria-selected={tab === t.tab}
          aria-controls={`${id}-panel-${t.tab}`}
          tabIndex={tab === t.tab ? 0 : -1}
          onClick={() => onTab(t.tab, false)}
          className={`rounded-brand px-3 py-2 text-sm font-medium focus-visible:outline-2 focus-visible:outline-accent-ink ${tab === t.tab ? "bg-accent text-accent-foreground" : "hover:bg-surface"}`}
        >
          {t.label}
        </button>
      ))}
    </div>
  );
}

/** Now (fills the current time, on the step), Cancel (Escape does the same) and Confirm. */
function Actions({ onNow, onCancel, onConfirm }: { onNow: () => void; onCancel: () => void; onConfirm: () => void }) {
  return (
    <div className="mt-4 flex flex-wrap items-center gap-2">
      <button type="button" className={buttonClass("ghost", "border border-line")} onClick={onNow}>
        Now
      </button>
      <span className="flex-1" />
      <button type="button" className={buttonClass("secondary")} onClick={onCancel}>
        Cancel
      </button>
      <button type="button" className={buttonClass("primary")} onClick={onConfirm}>
        Confirm
      </button>
    </div>
  );
}

/**
 * The picker's popup: a modal dialog (the page behind is inert) with the Date tab (a month grid)
 * and the Time tab (hours and quarter hours), and Now, Cancel and Confirm. Focus starts on the
 * chosen day and returns to the field when the dialog closes; Escape is Cancel. Only Confirm
 * hands the choice back.
 */
export function PickerDialog({
  id,
  title,
  initial,
  today,
  onConfirm,
  onClose,
}: {
  id: string;
  title: string;
  initial: WallClock;
  today: Ymd;
  onConfirm: (v: WallClock) => void;
  onClose: () => void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [pick, setPick] = useState(initial);
  const [cursor, setCursor] = useState(initial.date);
  const [tab, setTab] = useState<Tab>("date");
  const focusPanel = useRef(false);
  useEffect(() => {
    const d = dialog.current;
    if (!d || d.open) return;
    d.showModal();
    d.querySelector<HTMLElement>(`[data-day="${initial.date}"]`)?.focus();
    // Opened once, on the value it was given.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  useEffect(() => {
    if (!focusPanel.current) return;
    focusPanel.current = false;
    dialog.current?.querySelector<HTMLElement>(`#${id}-panel-time [aria-checked="true"]`)?.focus();
  }, [tab, id]);
  const showTab = (next: Tab, focusTab: boolean) => {
    setTab(next);
    if (focusTab) dialog.current?.querySelector<HTMLElement>(`#${id}-tab-${next}`)?.focus();
  };
  const pickDay = (date: Ymd) => {
    setPick(existingTime({ date, time: pick.time }));
    setCursor(date);
    // Choosing a day moves to the Time tab.
    focusPanel.current = true;
    setTab("time");
  };
  const now = () => {
    const n = nowRounded(Date.now());
    setPick(n);
    setCursor(n.date);
  };
  const confirm = () => {
    onConfirm(pick);
    dialog.current?.close();
  };
  return (
    <dialog
      ref={dialog}
      aria-labelledby={`${id}-title`}
      aria-describedby={`${id}-chosen`}
      onClose={onClose}
      className="m-auto max-h-[calc(100dvh-1rem)] w-[calc(100%-1rem)] max-w-sm overflow-y-auto rounded-brand border border-line bg-elevated p-4 text-gray-900 shadow-xl backdrop:bg-black/40 dark:text-gray-100"
    >
      <h2 id={`${id}-title`} className="text-lg font-semibold">
        {title}
      </h2>
      <p id={`${id}-chosen`} className="text-sm" aria-live="polite">
        {`${longDay(pick.date)}, ${pick.time} (UK time)`}
      </p>
      <Tabs id={id} tab={tab} onTab={showTab} />
      <div role="tabpanel" id={`${id}-panel-date`} aria-labelledby={`${id}-tab-date`} hidden={tab !== "date"} className="mt-3">
        <DayGrid id={id} cursor={cursor} picked={pick.date} today={today} onCursor={setCursor} onPick={pickDay} />
      </div>
      <div role="tabpanel" id={`${id}-panel-time`} aria-labelledby={`${id}-tab-time`} hidden={tab !== "time"} className="mt-3">
        <TimeChoice id={id} pick={pick} onTime={(time) => setPick(existingTime({ date: pick.date, time }))} />
      </div>
      <Actions onNow={now} onCancel={() => dialog.current?.close()} onConfirm={confirm} />
    </dialog>
  );
}
