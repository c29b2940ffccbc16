/**
 * tfjs-core's gradient functions, registered for the bundled (browser) build. tfjs-core's entry
 * leaves them out so that inference-only bundles can drop them; training needs every op's.
 * Chosen through package.json "imports" (#tfjs-gradients): Node cannot load this file's
 * extensionless ES modules, and takes gradients.node.ts instead.
 */
import '@tensorflow/tfjs-core/dist/register_all_gradients';
