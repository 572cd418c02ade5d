import { z } from "zod";
import { isClientId } from "./domain/rules";

const id = z.string().min(1).max(80);
const ids = z.preprocess((v) => (v === undefined ? [] : Array.isArray(v) ? v : [v]), z.array(id).max(500));

/** What the new direct chat page posts. */
export const directFormSchema = z.object({ userId: id });

/** What the new group page posts. */
export const groupFormSchema = z.object({ name: z.string().max(1000).default(""), everyone: z.literal("on").optional(), members: ids });

/** What a room page's forms post. */
export const roomFormSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("send"), text: z.string().max(100_000).default(""), clientId: z.string().refine(isClientId), fileId: ids }),
  z.object({ intent: z.literal("rename"), name: z.string().max(1000).default("") }),
  z.object({ intent: z.literal("add"), members: ids }),
  z.object({ intent: z.literal("remove"), userId: id }),
  z.object({ intent: z.literal("leave") }),
  z.object({ intent: z.literal("make_admin"), userId: id }),
  z.object({ intent: z.literal("remove_admin"), userId: id }),
]);

/** What the attach page posts: a message with the files chosen. */
export const attachFormSchema = z.object({ text: z.string().max(100_000).default(""), clientId: z.string().refine(isClientId), fileId: ids });

/** What the edit page of a message posts. */
export const editFormSchema = z.object({ text: z.string().max(100_000).default("") });

/** Fields a form may repeat (checkboxes). */
const LIST_FIELDS = new Set(["members", "fileId"]);

/** A form's fields, with repeated names (checkboxes) as lists. */
export function formFields(form: FormData): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const key of new Set(form.keys())) {
    const all = form.getAll(key).filter((v): v is string => typeof v === "string");
    out[key] = LIST_FIELDS.has(key) ? all : (all[0] ?? "");
  }
  return out;
}
