import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// Cross-origin isolation keeps SharedArrayBuffer available should a backend want it,
// and costs nothing: every asset (WASM included) is served by the app itself.
const isolation = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
};

export default defineConfig({
  base: './',
  plugins: [react()],
  worker: { format: 'es' },
  server: { headers: isolation },
  preview: { headers: isolation },
  build: {
    target: 'es2022',
    chunkSizeWarningLimit: 4000,
    // The benchmark page ships with the app so `npm run bench` measures the built worker pool.
    rollupOptions: { input: { main: 'index.html', bench: 'bench.html' } },
  },
});
