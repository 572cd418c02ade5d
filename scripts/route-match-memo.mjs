import path from "node:path";

/**
 * A Vite plugin for the Worker's build: React Router's route search (matchRoutesImpl) asks
 * app/utils/route-match-memo.ts which branch a path matched last time instead of trying every
 * branch again (ADR 0084). Only where React Router passes its ranked branches kept from start-up
 * (the request handler and the data query); anywhere else its own loop runs unchanged.
 *
 * The loop is found by its exact text: when a React Router upgrade changes it, the Worker's build
 * fails here, naming this plugin, rather than shipping without it unnoticed.
 */
export const MATCH_LOOP = "for (let i = 0; matches == null && i < branches.length; ++i) matches = matchRouteBranch(branches[i], decoded, allowPartial);";

const ROUTER_UTILS = /[\\/]node_modules[\\/]react-router[\\/]dist[\\/](production|development)[\\/]lib[\\/]router[\\/]utils\.js$/;
/** The module the transformed search imports its memo from. */
export const MEMO_MODULE = path.resolve(import.meta.dirname, "..", "app", "utils", "route-match-memo.ts");

/** React Router's utils module with the search going through the memo, or an error when the loop is not there. */
export function withMatchMemo(code, memoModule = MEMO_MODULE) {
  const at = code.indexOf(MATCH_LOOP);
  if (at === -1 || code.indexOf(MATCH_LOOP, at + 1) !== -1) {
    throw new Error(
      "react-router's route search loop (matchRoutesImpl) was not found exactly once: update scripts/route-match-memo.mjs for this React Router version (ADR 0084)",
    );
  }
  const memoised = `if (precomputedBranches) matches = __firstMatchingBranch(branches, decoded, allowPartial, matchRouteBranch);\n\telse ${MATCH_LOOP}`;
  return `import { firstMatchingBranch as __firstMatchingBranch } from ${JSON.stringify(memoModule)};\n${code.slice(0, at)}${memoised}${code.slice(at + MATCH_LOOP.length)}`;
}

/** @returns {import("vite").Plugin} */
export function routeMatchMemo() {
  let applied = false;
  return {
    name: "route-match-memo",
    apply: "build",
    transform(code, id) {
      if (this.environment?.name !== "ssr" || !ROUTER_UTILS.test(id)) return null;
      applied = true;
      return { code: withMatchMemo(code), map: null };
    },
    buildEnd(error) {
      if (this.environment?.name === "ssr" && !error && !applied)
        this.error("react-router's lib/router/utils.js never reached the route-match-memo plugin (ADR 0084)");
    },
  };
}
