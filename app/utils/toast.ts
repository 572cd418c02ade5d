/** Toast kinds and shape: the one definition the flash cookie, its schema and the Toaster share. */
export const TOAST_TYPES = ["success", "error", "warning", "info"] as const;
export type ToastType = (typeof TOAST_TYPES)[number];
export type Toast = { type: ToastType; title: string; message?: string };
