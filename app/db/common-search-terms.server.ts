/**
 * Search terms a tenant's trigram index recently found common, kept per isolate (ADR 0085).
 *
 * A search through the trigram index first asks the index how many rows match (up to the probe
 * limit) to choose between reading the index's matches and scanning the list in order with LIKE;
 * both give the same rows. A common term ("roofing", "ltd") always ends up scanning, yet each of
 * the page's statements pays for the probe first, for every page and filter of the same search.
 * Once a search's count has reported the term common, the tenant's next searches for it go
 * straight to the scan for a while. The note only chooses the plan, never the rows: a term that
 * has since become rare is still answered correctly by the scan, only more slowly, until the note
 * expires.
 *
 * Notes are keyed by index, tenant and term, so one tenant's searches never change another's plan
 * (nor its timing). At most COMMON_TERMS_KEPT notes: the store is emptied when full, so a stream of
 * new terms cannot grow the isolate's heap.
 */

/** How long a term stays noted as common. */
export const COMMON_TERM_TTL_MS = 10 * 60_000;
/** The most notes one isolate keeps. */
export const COMMON_TERMS_KEPT = 500;
/** Longer terms are never noted (a long term is rarely common, and its key would be large). */
const LONGEST_NOTED_TERM = 100;

let notes: Map<string, number> | undefined;

const noteKey = (index: string, tenantId: string, term: string) => `${index}\u0000${tenantId}\u0000${term}`;

/** Whether `term` was found common in the tenant's `index` less than COMMON_TERM_TTL_MS before `now`. */
export function knownCommonTerm(index: string, tenantId: string, term: string, now: number = Date.now()): boolean {
  if (notes === undefined || term.length > LONGEST_NOTED_TERM) return false;
  const key = noteKey(index, tenantId, term);
  const until = notes.get(key);
  if (until === undefined) return false;
  if (until > now) return true;
  notes.delete(key);
  return false;
}

/** Notes that a search for `term` in the tenant's `index` found it common at `now`. */
export function noteCommonTerm(index: string, tenantId: string, term: string, now: number = Date.now()): void {
  if (term.length > LONGEST_NOTED_TERM) return;
  const store = (notes ??= new Map());
  const key = noteKey(index, tenantId, term);
  if (!store.has(key) && store.size >= COMMON_TERMS_KEPT) store.clear();
  store.set(key, now + COMMON_TERM_TTL_MS);
}

/** How many notes the isolate holds (tests). */
export function commonTermNotes(): number {
  return notes?.size ?? 0;
}

/** Forgets every note (tests). */
export function forgetCommonTerms(): void {
  notes = undefined;
}
