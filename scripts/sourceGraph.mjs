// The source's static import graph, read from the files themselves (no bundler): what a module
// needs before it runs. The first-load test (src/protocols/firstLoad.test.ts) checks what the
// page's first load reaches with it; vite.config.ts puts the app's first-load modules in one chunk.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

const stripComments = (code) => code.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');

/** Relative specifiers of a file's static imports and re-exports that are not `import type` (dynamic `import()` excluded). */
export function staticImports(file) {
  const code = stripComments(readFileSync(file, 'utf8'));
  return [...code.matchAll(/^\s*(?:import|export)\s+(?!type\b)(?:[^'";]*?\s+from\s+)?['"](\.[^'"]+)['"]/gm)].map((m) => m[1]);
}

/** Bare (package) specifiers of a file's static value imports. */
export function packageImports(file) {
  const code = stripComments(readFileSync(file, 'utf8'));
  return [...code.matchAll(/^\s*(?:import|export)\s+(?!type\b)(?:[^'";]*?\s+from\s+)?['"]([^.'"][^'"]*)['"]/gm)].map((m) => m[1]);
}

/** The TypeScript file a relative specifier names, or null (a stylesheet, a JSON file). */
export function resolveSpec(from, spec) {
  const base = resolve(dirname(from), spec.replace(/\?.*$/, ''));
  for (const f of [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts'), join(base, 'index.tsx')]) if (/\.tsx?$/.test(f) && existsSync(f)) return f;
  return null;
}

/** Every source file the entries reach by static imports, the entries included. */
export function closure(entries) {
  const seen = new Set();
  const visit = (f) => {
    if (seen.has(f)) return;
    seen.add(f);
    for (const spec of staticImports(f)) {
      const next = resolveSpec(f, spec);
      if (next) visit(next);
    }
  };
  entries.forEach(visit);
  return seen;
}

/** The JSON files a source file imports statically (a catalog), as paths. */
export function jsonImports(file) {
  const code = stripComments(readFileSync(file, 'utf8'));
  return [...code.matchAll(/^\s*import\s+(?!type\b)[^'";]*?\s+from\s+['"](\.[^'"]+\.json)['"]/gm)].map((m) => resolve(dirname(file), m[1]));
}

/** A specifier's package name: `d3-scale`, `@noble/hashes/hmac.js` → `@noble/hashes`. */
export function packageName(spec) {
  const parts = spec.split('/');
  return spec.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

/** The packages `names` need, with everything they depend on (their package.json's dependencies), from `root`'s node_modules. */
export function packageClosure(names, root) {
  const seen = new Set();
  const visit = (name) => {
    if (seen.has(name)) return;
    const manifest = join(root, 'node_modules', name, 'package.json');
    if (!existsSync(manifest)) return;
    seen.add(name);
    for (const dep of Object.keys(JSON.parse(readFileSync(manifest, 'utf8')).dependencies ?? {})) visit(dep);
  };
  names.forEach(visit);
  return seen;
}
