/** The frame of every public page: the site's name, its navigation and footer links. Client-safe. */

export const SITE_NAME = "Workspace";

/** The in-page sections of / that the navigation scrolls to. */
export const NAV_SECTIONS = [
  { href: "/#top", label: "Home" },
  { href: "/#industries", label: "Industries" },
  { href: "/#process", label: "Process" },
  { href: "/#about", label: "About" },
] as const;

export const FOOTER_LINKS = [
  { href: "/vision", label: "Our vision" },
  { href: "/help", label: "Help" },
  { href: "/terms", label: "Terms of service" },
  { href: "/privacy", label: "Privacy notice" },
  { href: "/login", label: "Log in" },
  { href: "/portal/login", label: "Subcontractor portal" },
] as const;

/** Fixed header height: anchored sections scroll to 80 px below the top of the window. */
export const ANCHOR_OFFSET_PX = 80;
/** Smooth scrolling to an anchor never takes longer than this. */
export const ANCHOR_SCROLL_MAX_MS = 450;
