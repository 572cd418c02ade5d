/**
 * Refuses guessable passwords wherever one is set: zxcvbn's estimate (common passwords, names,
 * English words, keyboard patterns, dates, l33t) with the person's own e-mail, name and
 * workspace as extra words, and at least MIN_PASSWORD_SCORE of 4. The dictionaries are large:
 * they stay on the server (this is a .server module) and are loaded on the first check in an
 * isolate, then kept for the isolate's life.
 */
import type { ZxcvbnFactory } from "@zxcvbn-ts/core";

/** zxcvbn's 0-4 scale: 3 is 'safely unguessable' against an online attack with throttling and more. */
export const MIN_PASSWORD_SCORE = 3;
/** Beyond this, the estimate's cost grows and the answer does not change. */
const CHECKED_LENGTH = 100;

export const WEAK_PASSWORD_MESSAGE = "Choose a stronger password: avoid common words, names and patterns";

let estimator: Promise<ZxcvbnFactory> | null = null;

function loadEstimator(): Promise<ZxcvbnFactory> {
  estimator ??= Promise.all([import("@zxcvbn-ts/core"), import("@zxcvbn-ts/language-common"), import("@zxcvbn-ts/language-en")])
    .then(
      ([core, common, en]) =>
        new core.ZxcvbnFactory({
          dictionary: { ...common.dictionary, ...en.dictionary },
          graphs: common.adjacencyGraphs,
          translations: en.translations,
        }),
    )
    .catch((err: unknown) => {
      // A failed load is tried again on the next check rather than remembered.
      estimator = null;
      throw err;
    });
  return estimator;
}

/** Who the password is for: their e-mail, names and workspace become words to avoid. */
export type PasswordContext = { email?: string | null; names?: (string | null | undefined)[]; workspace?: string | null };

/** Each input as given, lower-cased, its words, and its words run together ('Acme Construction' → 'acmeconstruction'). */
export function personalWords(ctx: PasswordContext): string[] {
  const out = new Set<string>();
  const add = (raw: string | null | undefined) => {
    const s = raw?.trim().toLowerCase();
    if (!s) return;
    out.add(s);
    const words = s.split(/[^\p{L}\p{N}]+/u).filter((w) => w.length >= 3);
    for (const w of words) out.add(w);
    if (words.length > 1) out.add(words.join(""));
  };
  add(ctx.email);
  add(ctx.email?.split("@")[0]);
  for (const n of ctx.names ?? []) add(n);
  add(ctx.workspace);
  return [...out];
}

/** True when the password is hard enough to guess for this person. */
export async function isStrongPassword(password: string, ctx: PasswordContext): Promise<boolean> {
  const zxcvbn = await loadEstimator();
  return zxcvbn.check(password.slice(0, CHECKED_LENGTH), personalWords(ctx)).score >= MIN_PASSWORD_SCORE;
}
