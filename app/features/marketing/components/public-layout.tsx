import { type MouseEvent, type ReactNode, useEffect } from "react";
import { buttonClass } from "~/components/ui/button";
import { ANCHOR_OFFSET_PX, ANCHOR_SCROLL_MAX_MS, FOOTER_LINKS, NAV_SECTIONS, SITE_NAME } from "../site";

const easeInOut = (t: number) => (t < 0.5 ? 4 * t * t * t : 1 - (-2 * t + 2) ** 3 / 2);

/**
 * With JavaScript, a link to a section of this page glides there in at most 0.45 s and stops
 * 80 px below the top, under the fixed header. Without it the browser jumps, and the sections'
 * scroll-margin keeps the same offset.
 */
function useAnchorScrolling() {
  useEffect(() => {
    function onClick(event: globalThis.MouseEvent) {
      if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
      const link = event.target instanceof Element ? event.target.closest("a[href]") : null;
      if (!(link instanceof HTMLAnchorElement)) return;
      const url = new URL(link.href);
      if (url.origin !== window.location.origin || url.pathname !== window.location.pathname || !url.hash) return;
      const target = document.getElementById(decodeURIComponent(url.hash.slice(1)));
      if (!target) return;
      event.preventDefault();
      const from = window.scrollY;
      const to = Math.max(0, target.getBoundingClientRect().top + from - ANCHOR_OFFSET_PX);
      window.history.pushState(window.history.state, "", url.hash);
      const reduced = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
      const duration = reduced ? 0 : Math.min(ANCHOR_SCROLL_MAX_MS, 150 + Math.abs(to - from) / 4);
      const start = performance.now();
      const step = (now: number) => {
        const t = duration === 0 ? 1 : Math.min(1, (now - start) / duration);
        window.scrollTo(0, from + (to - from) * easeInOut(t));
        if (t < 1) requestAnimationFrame(step);
        else target.focus({ preventScroll: true });
      };
      requestAnimationFrame(step);
    }
    document.addEventListener("click", onClick);
    return () => document.removeEventListener("click", onClick);
  }, []);
}

/**
 * The frame of every public page: the navigation bar, the page and the footer. `onHome` makes
 * the section links plain fragments; `onStartProject` lets / open its drawer instead of
 * following the link to the page form (only once JavaScript runs).
 */
// eslint-disable-next-line max-lines-per-function -- one layout: header, navigation and footer share the menu state
export function PublicLayout({
  contactEmail,
  onHome = false,
  onStartProject,
  children,
}: {
  contactEmail: string;
  onHome?: boolean;
  onStartProject?: (event: MouseEvent<HTMLAnchorElement>) => void;
  children: ReactNode;
}) {
  useAnchorScrolling();
  return (
    <div id="top" tabIndex={-1} className="min-h-screen outline-none">
      <a href="#main" className="sr-only-focusable fixed left-2 top-2 z-50 rounded bg-accent px-3 py-2 text-accent-foreground">
        Skip to content
      </a>
      <header className="sticky top-0 z-30 border-b border-line bg-primary-bg/95 backdrop-blur">
        <nav className="mx-auto flex min-h-20 max-w-6xl flex-wrap items-center justify-between gap-x-6 gap-y-2 px-6 py-3" aria-label="Main">
          <a href={onHome ? "#top" : "/"} className="flex items-center gap-2 text-lg font-bold">
            <span aria-hidden="true" className="inline-block h-6 w-6 rounded-brand bg-accent" />
            {SITE_NAME}
          </a>
          <ul className="flex flex-wrap items-center gap-x-5 gap-y-1 text-sm">
            {NAV_SECTIONS.map((s) => (
              <li key={s.href}>
                <a href={onHome ? s.href.slice(1) : s.href} className="hover:text-accent-ink">
                  {s.label}
                </a>
              </li>
            ))}
            <li>
              <a href={`mailto:${contactEmail}`} className="hover:text-accent-ink">
                Contact
              </a>
            </li>
          </ul>
          <div className="flex items-center gap-3 text-sm">
            <a href="/login" className={buttonClass("ghost")}>
              Log in
            </a>
            <a href="/start-a-project" onClick={onStartProject} className={buttonClass("primary")}>
              Start a project
            </a>
          </div>
        </nav>
      </header>
      <main id="main" tabIndex={-1} className="outline-none">
        {children}
      </main>
      <footer className="mt-16 border-t border-line bg-surface">
        <div className="mx-auto grid max-w-6xl gap-8 px-6 py-10 text-sm sm:grid-cols-3">
          <div>
            <p className="font-semibold">{SITE_NAME}</p>
            <p className="mt-2 opacity-80">Modular business apps for UK construction contractors, billed per module, and bespoke work as a service.</p>
          </div>
          <nav aria-label="Footer">
            <ul className="space-y-2">
              {FOOTER_LINKS.map((l) => (
                <li key={l.href}>
                  <a href={l.href} className="underline-offset-2 hover:underline">
                    {l.label}
                  </a>
                </li>
              ))}
            </ul>
          </nav>
          <div>
            <p className="font-semibold">Talk to us</p>
            <p className="mt-2 opacity-80">
              <a href={`mailto:${contactEmail}`} className="underline">
                {contactEmail}
              </a>
              <br />
              We reply within one business day.
            </p>
          </div>
        </div>
        <p className="border-t border-line py-4 text-center text-xs opacity-70">© {SITE_NAME}. Registered in England and Wales.</p>
      </footer>
    </div>
  );
}

/** A content page's article: one heading, a lead paragraph and the sections. */
export function ContentPage({ title, lead, updated, children }: { title: string; lead: string; updated?: string; children: ReactNode }) {
  return (
    <div className="mx-auto max-w-3xl px-6 py-16">
      <h1 className="text-4xl font-bold tracking-tight">{title}</h1>
      <p className="mt-4 text-lg opacity-80">{lead}</p>
      {updated ? <p className="mt-2 text-sm opacity-60">Last updated {updated}</p> : null}
      <div className="prose-public mt-10 space-y-8 [&_h2]:scroll-mt-20 [&_h2]:text-2xl [&_h2]:font-semibold [&_li]:ml-6 [&_li]:list-disc [&_p]:mt-3 [&_p]:leading-relaxed [&_ul]:mt-3 [&_ul]:space-y-1 [&_a]:underline">
        {children}
      </div>
    </div>
  );
}
