/** Types for sourceGraph.mjs (plain JS, so vite.config.ts loads it without a TypeScript step). */
export declare function staticImports(file: string): string[];
export declare function packageImports(file: string): string[];
export declare function resolveSpec(from: string, spec: string): string | null;
export declare function closure(entries: readonly string[]): Set<string>;
export declare function jsonImports(file: string): string[];
export declare function packageName(spec: string): string;
export declare function packageClosure(names: Iterable<string>, root: string): Set<string>;
