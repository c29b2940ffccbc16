import { createServer } from 'node:http';
import { existsSync, readFileSync } from 'node:fs';
import { extname, join, normalize } from 'node:path';

const types: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.wasm': 'application/wasm', '.json': 'application/json', '.svg': 'image/svg+xml', '.woff': 'font/woff', '.ttf': 'font/ttf', '.png': 'image/png' };

/**
 * A built site served on a local port (a free one unless `port` is given), cross-origin isolated as
 * the app's preview server is (the profilers load a build from any folder: `--dist`; bench:web
 * serves RaftScope with it).
 */
export async function serveDist(dist: string, port = 0): Promise<{ port: number; close(): void }> {
  const server = createServer((req, res) => {
    const path = normalize(decodeURIComponent((req.url ?? '/').split('?')[0]));
    const file = join(dist, path.endsWith('/') ? `${path}index.html` : path);
    if (!file.startsWith(dist) || !existsSync(file)) return void res.writeHead(404).end();
    res
      .writeHead(200, { 'Content-Type': types[extname(file)] ?? 'application/octet-stream', 'Cross-Origin-Opener-Policy': 'same-origin', 'Cross-Origin-Embedder-Policy': 'require-corp' })
      .end(readFileSync(file));
  });
  await new Promise<void>((r) => server.listen(port, '127.0.0.1', () => r()));
  return { port: (server.address() as { port: number }).port, close: () => server.close() };
}
