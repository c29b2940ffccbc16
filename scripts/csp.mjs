/**
 * The app's Content-Security-Policy (one definition: the build writes it into index.html as a
 * <meta http-equiv>, the preview server sends it as a header, the e2e security spec checks both).
 *
 * - Scripts only from the app's own origin; no inline script, no eval. `'wasm-unsafe-eval'`
 *   lets tfjs compile its WebAssembly backend and nothing else (CSP Level 3).
 * - connect-src 'self': no request leaves the origin; the tfjs WASM binaries and the scenario
 *   files are served by the app.
 * - Workers (the training pool) from the app's origin only.
 * - Styles from the app's stylesheets; React and D3 set element styles through the CSSOM, which
 *   CSP does not restrict. Images: the app's own, the inline SVG favicon (data:) and exports (blob:).
 */
export const cspDirectives = {
  'default-src': ["'self'"],
  'script-src': ["'self'", "'wasm-unsafe-eval'"],
  'worker-src': ["'self'"],
  'connect-src': ["'self'"],
  'style-src': ["'self'"],
  'img-src': ["'self'", 'data:', 'blob:'],
  'font-src': ["'self'"],
  'object-src': ["'none'"],
  'base-uri': ["'none'"],
  'form-action': ["'none'"],
};

/** Directives a <meta> policy ignores; only the header can carry them. */
export const headerOnlyDirectives = {
  'frame-ancestors': ["'none'"],
};

/** @param {Readonly<Record<string, readonly string[]>>} d */
function serialize(d) {
  return Object.entries(d)
    .map(([k, v]) => `${k} ${v.join(' ')}`)
    .join('; ');
}

/** The policy for the <meta http-equiv="Content-Security-Policy"> of the built page. */
export const cspMeta = serialize(cspDirectives);
/** The policy the preview server sends as a header. */
export const cspHeader = serialize({ ...cspDirectives, ...headerOnlyDirectives });
