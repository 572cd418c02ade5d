import type { Plugin } from "vite";
export declare const MATCH_LOOP: string;
export declare const MEMO_MODULE: string;
export declare function withMatchMemo(code: string, memoModule?: string): string;
export declare function routeMatchMemo(): Plugin;
