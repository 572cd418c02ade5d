export declare const DEFAULT_DEV_PORT: number;
export declare function devPort(options?: { env?: Record<string, string | undefined>; argv?: string[] }): number;
export declare function devAppDomain(port: number): string;
