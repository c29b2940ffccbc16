import { makeSuggester } from '../../scenario/suggest';

/** Arguments of `npm run classroom` (see main.ts). */

export const usage = 'usage: npm run classroom [-- --port N] [--lan] [--room CODE] [--dist DIR]';

export interface Args {
  port: number;
  lan: boolean;
  room?: string;
  dist: string;
}

export function parseArgs(argv: readonly string[]): Args | { error: string } {
  const out: Args = { port: 5180, lan: false, dist: 'dist' };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = (): string | null => (i + 1 < argv.length ? argv[++i] : null);
    if (a === '--lan') out.lan = true;
    else if (a === '--port') {
      const v = value();
      const n = v === null ? NaN : Number(v);
      if (!Number.isInteger(n) || n < 0 || n > 65535) return { error: `--port: "${v ?? ''}" is not a port number (0-65535; 0 picks a free one)` };
      out.port = n;
    } else if (a === '--room') {
      const v = value();
      if (v === null) return { error: '--room: give a room code' };
      out.room = v.toUpperCase();
    } else if (a === '--dist') {
      const v = value();
      if (v === null) return { error: '--dist: give a directory' };
      out.dist = v;
    } else if (a === '--help' || a === '-h') return { error: usage };
    else {
      const hint = a.startsWith('--') ? makeSuggester(['port', 'lan', 'room', 'dist', 'help'])(a.slice(2)) : undefined;
      return { error: `${a}: unknown argument${hint ? ` (did you mean --${hint}?)` : ''}\n${usage}` };
    }
  }
  return out;
}
