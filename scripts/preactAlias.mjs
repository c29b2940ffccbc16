/**
 * The app is written against React's API and types, but the page ships Preact through
 * preact/compat: React and react-dom were ~63 KiB gzip of the main-thread JS, Preact with compat adds ~6.
 * Vite (build and dev) and Vitest both resolve through this list, so what ships is what is tested.
 * Exact matches only: a React entry not listed here fails to resolve rather than mixing two runtimes.
 */
export const preactAlias = [
  { find: /^react$/, replacement: 'preact/compat' },
  { find: /^react-dom$/, replacement: 'preact/compat' },
  { find: /^react-dom\/client$/, replacement: 'preact/compat/client' },
  // compat's JSX runtimes load preact/compat first, so its option hooks (onChange, className…) are installed.
  { find: /^react\/jsx-runtime$/, replacement: 'preact/compat/jsx-runtime' },
  { find: /^react\/jsx-dev-runtime$/, replacement: 'preact/compat/jsx-dev-runtime' },
];
