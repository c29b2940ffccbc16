/**
 * tfjs-core's gradient functions in Node (CLI, tests, benchmarks). tfjs-core publishes them only
 * as extensionless ES modules, which Node cannot load; the union package's Node build bundles them
 * and registers them in tfjs's global registry, the one the Node build of tfjs-core reads. Size
 * does not matter here; the browser build takes gradients.browser.ts (package.json "imports").
 */
import '@tensorflow/tfjs';
