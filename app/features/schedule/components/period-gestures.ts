/**
 * The calendar's gestures, loaded with a dynamic import() after hydration so they cost the view's
 * first load nothing: arrow keys, a horizontal swipe or wheel move go to the previous / next period
 * (the addresses of the page's Prev / Next links), the new period sliding in from that side; a
 * double-click on a day pastes the held event there (its 'Paste here' form) or opens a new event on
 * it. Everything is read from the rendered page, so without JavaScript the links and forms do it all.
 */

/** The spec's swipe figures: a swipe over 15% of the screen's width completes; 10 px of movement tells its direction; the slide takes 0.25 s. */
export const SWIPE = { completeRatio: 0.15, directionPx: 10, slideMs: 250 } as const;
/** Horizontal wheel (trackpad) movement, in pixels, that moves one period. */
const WHEEL_STEP = 80;

type Navigate = (to: string) => unknown;
type Cleanup = () => void;

const typing = (t: EventTarget | null) => t instanceof HTMLElement && (t.isContentEditable || /^(INPUT|SELECT|TEXTAREA)$/.test(t.tagName));

function listen<K extends keyof HTMLElementEventMap>(
  target: Window | HTMLElement,
  type: K,
  fn: (e: HTMLElementEventMap[K]) => void,
  opts?: AddEventListenerOptions,
): Cleanup {
  target.addEventListener(type, fn as EventListener, opts);
  return () => target.removeEventListener(type, fn as EventListener, opts);
}

/**
 * Attaches the gestures to the view (`root`, holding the Prev / Next links and `[data-period]`, the
 * period's grid); returns the clean-up. `navigate` is React Router's, so moves are client navigations.
 */
export function attachPeriodGestures(root: HTMLElement, navigate: Navigate): Cleanup {
  let pending: -1 | 1 | 0 = 0;
  const grid = () => root.querySelector<HTMLElement>("[data-period]") ?? root;
  const go = (dir: -1 | 1) => {
    const href = root.querySelector<HTMLAnchorElement>(`a[data-nav="${dir < 0 ? "prev" : "next"}"]`)?.getAttribute("href");
    if (!href) return;
    pending = dir;
    void navigate(href);
  };
  // The new period slides in once the page shows it (its date attribute changes).
  const observer = new MutationObserver(() => {
    const dir = pending;
    pending = 0;
    if (dir) slideIn(grid(), dir);
  });
  observer.observe(root, { attributes: true, attributeFilter: ["data-date", "data-schedule-view"] });
  const onKey = (e: KeyboardEvent) => {
    if (e.altKey || e.ctrlKey || e.metaKey || e.shiftKey || typing(e.target)) return;
    if (e.key === "ArrowLeft") go(-1);
    else if (e.key === "ArrowRight") go(1);
    else return;
    e.preventDefault();
  };
  const cleanups = [
    listen(window, "keydown", onKey),
    ...swipe(root, grid, go),
    wheel(root, go),
    listen(root, "dblclick", (e) => onDoubleClick(e, root, navigate)),
  ];
  root.dataset.gestures = "on";
  return () => {
    observer.disconnect();
    cleanups.forEach((c) => c());
    delete root.dataset.gestures;
  };
}

function slideIn(el: HTMLElement, dir: -1 | 1) {
  if (window.matchMedia?.("(prefers-reduced-motion: reduce)").matches || !el.animate) return;
  el.animate(
    [
      { transform: `translateX(${dir * 30}%)`, opacity: 0.4 },
      { transform: "none", opacity: 1 },
    ],
    { duration: SWIPE.slideMs, easing: "ease-out" },
  );
}

/** A finger dragging sideways drags the grid with it; let go past the threshold and the period changes. */
function swipe(root: HTMLElement, grid: () => HTMLElement, go: (dir: -1 | 1) => void): Cleanup[] {
  let x0 = 0;
  let y0 = 0;
  let axis: "x" | "y" | null = null;
  const passive = { passive: true };
  const onStart = (e: TouchEvent) => {
    x0 = e.touches[0]!.clientX;
    y0 = e.touches[0]!.clientY;
    axis = null;
    grid().style.transition = "";
  };
  const onMove = (e: TouchEvent) => {
    const dx = e.touches[0]!.clientX - x0;
    const dy = e.touches[0]!.clientY - y0;
    if (!axis && Math.max(Math.abs(dx), Math.abs(dy)) >= SWIPE.directionPx) axis = Math.abs(dx) > Math.abs(dy) ? "x" : "y";
    if (axis === "x") grid().style.transform = `translateX(${dx}px)`;
  };
  const onEnd = (e: TouchEvent) => {
    const dx = e.changedTouches[0]!.clientX - x0;
    const el = grid();
    el.style.transition = `transform ${SWIPE.slideMs}ms ease-out`;
    el.style.transform = "";
    if (axis === "x" && Math.abs(dx) > window.innerWidth * SWIPE.completeRatio) go(dx > 0 ? -1 : 1);
    axis = null;
  };
  return [listen(root, "touchstart", onStart, passive), listen(root, "touchmove", onMove, passive), listen(root, "touchend", onEnd)];
}

function wheel(root: HTMLElement, go: (dir: -1 | 1) => void): Cleanup {
  let sum = 0;
  return listen(
    root,
    "wheel",
    (e) => {
      if (Math.abs(e.deltaX) <= Math.abs(e.deltaY)) return;
      sum += e.deltaX;
      if (Math.abs(sum) < WHEEL_STEP) return;
      const dir = sum > 0 ? 1 : -1;
      sum = 0;
      go(dir);
    },
    { passive: true },
  );
}

/** On a day's empty space: submit its 'Paste here' form when an event is held, else open a new event on that day. */
function onDoubleClick(e: MouseEvent, root: HTMLElement, navigate: Navigate) {
  const target = e.target instanceof Element ? e.target : null;
  if (!target || target.closest("a,button,input,select,textarea,label")) return;
  const cell = target.closest<HTMLElement>("[data-day]");
  const day = cell?.dataset.day;
  if (!cell || !day) return;
  const paste = cell.querySelector("form");
  if (paste) return paste.requestSubmit();
  const add = root.querySelector<HTMLAnchorElement>('a[href^="/schedule/new"]')?.getAttribute("href");
  if (!add) return;
  const url = new URL(add, window.location.origin);
  url.searchParams.set("date", day);
  void navigate(`${url.pathname}${url.search}`);
}
