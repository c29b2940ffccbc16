import { unknownOption } from '../../check/unknownOption';

/** Arguments of `npm run classroom:load` (main.ts). */
export const usage = 'usage: npm run classroom:load [-- --students N --actions K]';

export interface LoadArgs {
  students: number;
  actionsEach: number;
}

/** Every argument is checked: a misspelt one (`--studnets 5`) ran 40 students without a word. */
export function parseLoadArgs(argv: readonly string[]): LoadArgs | { help: true } | { error: string } {
  const out: LoadArgs = { students: 40, actionsEach: 4 };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '-h' || a === '--help') return { help: true };
    const name = a === '--students' ? 'students' : a === '--actions' ? 'actionsEach' : null;
    if (!name) return { error: a.startsWith('--') ? unknownOption(a.slice(2), ['students', 'actions', 'help']) : `unexpected argument "${a}"` };
    const raw = argv[++i];
    const v = raw === undefined ? NaN : Number(raw);
    if (!Number.isInteger(v) || v < 1 || v > 64) return { error: `${a}: "${raw ?? ''}" is not a whole number from 1 to 64` };
    out[name] = v;
  }
  return out;
}
