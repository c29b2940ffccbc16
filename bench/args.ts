/** The bench scripts' command-line flags: `--name value`, and a bare `--name`. */
const argv = process.argv.slice(2);

export function flag(name: string, dflt: string): string;
export function flag(name: string): string | undefined;
export function flag(name: string, dflt?: string): string | undefined {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : dflt;
}

export const has = (name: string): boolean => argv.includes(`--${name}`);
