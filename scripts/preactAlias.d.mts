/** Types for preactAlias.mjs (plain JS, so vite.config.ts loads it without a TypeScript step). */
export declare const preactAlias: ReadonlyArray<{ find: RegExp; replacement: string }>;
