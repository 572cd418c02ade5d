import { z } from "zod";

/** Exporting one return as CSV. */
export const returnExportSchema = z.object({ id: z.string().min(1).max(64) });

/** The returns page's forms: compile, nil return, amend, unlock (the last three confirmed first). */
export const returnsActionSchema = z.object({
  intent: z.enum(["compile", "nil", "amend", "unlock"]),
  month: z.string().max(20).default(""),
  id: z.string().max(64).optional(),
  confirmed: z.literal("yes").optional().catch(undefined),
});

/** The most months a notice of no payments given another way is recorded for (as an inactivity declaration). */
export const NOTICE_MAX_MONTHS = 6;

export const NOTICE_ERROR_CODES = ["given_on_invalid", "given_on_future", "first_month_invalid", "months_invalid"] as const;
export type NoticeErrorCode = (typeof NOTICE_ERROR_CODES)[number];
export const NOTICE_ERROR_MESSAGES: Readonly<Record<NoticeErrorCode, string>> = {
  given_on_invalid: "Enter the date the notice was given to HMRC",
  given_on_future: "The date the notice was given must be today or in the past",
  first_month_invalid: "Choose the first tax month the notice covers",
  months_invalid: `Choose how many months the notice covers (1 to ${NOTICE_MAX_MONTHS})`,
};
export type NoticeField = "givenOn" | "firstMonth" | "months";

/** A notice of no payments given to HMRC another way: the date given, the first tax month, how many months. */
export function parseNoticeForm(
  form: { givenOn: unknown; firstMonth: unknown; months: unknown },
  londonToday: string,
): { ok: true; value: { givenOn: string; firstMonth: string; months: number } } | { ok: false; errors: Partial<Record<NoticeField, NoticeErrorCode>> } {
  const errors: Partial<Record<NoticeField, NoticeErrorCode>> = {};
  const givenOn = typeof form.givenOn === "string" ? form.givenOn.trim() : "";
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(givenOn);
  const realDate = match && new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]))).toISOString().slice(0, 10) === givenOn;
  if (!realDate) errors.givenOn = "given_on_invalid";
  else if (givenOn > londonToday) errors.givenOn = "given_on_future";
  const firstMonth = typeof form.firstMonth === "string" ? form.firstMonth.trim() : "";
  if (!/^\d{4}-(0[1-9]|1[0-2])$/.test(firstMonth)) errors.firstMonth = "first_month_invalid";
  const months = typeof form.months === "string" && /^\d+$/.test(form.months.trim()) ? Number(form.months) : NaN;
  if (!Number.isInteger(months) || months < 1 || months > NOTICE_MAX_MONTHS) errors.months = "months_invalid";
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  return { ok: true, value: { givenOn, firstMonth, months } };
}
