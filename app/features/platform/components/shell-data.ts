/**
 * What the shells (the workspace's and the portal's) read from the root route's loader data.
 * root.tsx checks at compile time that its loader returns at least this, so the shells need not
 * import the root module (which renders them).
 */
export type ShellData = {
  themePreference: "system" | "light" | "dark";
  tenant: { slug: string; name: string; modules: { id: string; label: string; route: string; count?: number }[] } | null;
  user: {
    displayName: string;
    email: string;
    userStatus: "active" | "busy" | "unavailable";
    unreadNotifications: number;
    canViewUsers: boolean;
  } | null;
};
