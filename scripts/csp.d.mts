/** Types for csp.mjs (plain JS, so vite.config.ts loads it without a TypeScript step). */
export declare const cspDirectives: Readonly<Record<string, readonly string[]>>;
export declare const headerOnlyDirectives: Readonly<Record<string, readonly string[]>>;
export declare const cspMeta: string;
export declare const cspHeader: string;
