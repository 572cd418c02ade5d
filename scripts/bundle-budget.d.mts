export type PageSize = { id: string; files: number; raw: number; gzip: number };
export type BrowserManifest = {
  entry: { module: string; imports?: string[] };
  routes: Record<string, { id: string; parentId?: string; module?: string; imports?: string[]; hasDefaultExport?: boolean }>;
};
export declare const BUDGET_BYTES: number;
export declare const CEILINGS_KB: Record<string, number>;
export declare const CEILING_LIMIT_KB: number;
export declare const KEY_PAGES: [label: string, routeId: string][];
export declare function budgetFor(id: string): number;
export declare function readManifest(clientDir?: string): BrowserManifest;
export declare function firstLoadFiles(manifest: BrowserManifest, routeId: string): string[];
export declare function pageRouteIds(manifest: BrowserManifest): string[];
export declare function measure(options?: { clientDir?: string; manifest?: BrowserManifest }): PageSize[];
export declare function report(rows: PageSize[], options?: { quiet?: boolean }): { ok: boolean; text: string };
export declare const SERVER_ONLY_LIBRARIES: { name: string; markers: string[] }[];
export declare function serverOnlyLibrariesIn(files: Iterable<[file: string, text: string]>): { file: string; library: string }[];
export declare function clientScripts(clientDir?: string): [file: string, text: string][];
