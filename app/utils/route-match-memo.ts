/**
 * Which of React Router's ranked route branches a path matches, remembered per path (ADR 0084).
 *
 * React Router finds a request's routes by trying its route branches (one per route, about 110
 * here, ranked most specific first) one after another until one matches, and it does so three or
 * four times a request (the request handler, the data query, the ancestors of the path for the
 * page's route manifest). Every try runs the root route's pattern and builds its match, so a page
 * whose route ranks late paid about 0.6 ms a request. The first branch that matches depends only on
 * the branches and the path, so it is kept here: a path seen before is matched against that one
 * branch, and the answer is the same match object the full search would build.
 *
 * Bounded: paths longer than MAX_PATH_LENGTH are never kept, and a list that reaches MAX_PATHS
 * starts again empty, so addresses made up by a visitor cost at most that much memory.
 */
export const MAX_PATHS = 500;
export const MAX_PATH_LENGTH = 256;

const NO_MATCH = -1;
const remembered = new WeakMap<readonly unknown[], Map<string, number>>();
let answeredFromMemory = 0;

/** How many searches were answered from what was remembered (for tests and diagnostics). */
export function rememberedAnswers(): number {
  return answeredFromMemory;
}

export function firstMatchingBranch<Branch, Match>(
  branches: readonly Branch[],
  pathname: string,
  allowPartial: boolean,
  matchBranch: (branch: Branch, pathname: string, allowPartial: boolean) => Match | null,
): Match | null {
  const key = pathname.length <= MAX_PATH_LENGTH ? `${allowPartial ? "p" : "e"}${pathname}` : null;
  const known = key === null ? undefined : remembered.get(branches)?.get(key);
  if (known === NO_MATCH) {
    answeredFromMemory++;
    return null;
  }
  if (known !== undefined) {
    const match = matchBranch(branches[known], pathname, allowPartial);
    // Matching is a pure function of the branch and the path, so this always holds; if it ever
    // did not, the full search below answers.
    if (match != null) {
      answeredFromMemory++;
      return match;
    }
  }
  let found = NO_MATCH;
  let match: Match | null = null;
  for (let i = 0; i < branches.length; i++) {
    match = matchBranch(branches[i], pathname, allowPartial);
    if (match != null) {
      found = i;
      break;
    }
  }
  if (key !== null) remember(branches, key, found);
  return match;
}

function remember(branches: readonly unknown[], key: string, index: number) {
  let paths = remembered.get(branches);
  if (!paths) {
    paths = new Map();
    remembered.set(branches, paths);
  }
  if (paths.size >= MAX_PATHS) paths.clear();
  paths.set(key, index);
}
