import { makeSuggester } from '../scenario/suggest';

/**
 * The error line for an option a command does not take, with the one probably meant
 * (`--sed` → `--seed`, `--knb` → `--knob`): `name` without its dashes, `known` likewise.
 */
export function unknownOption(name: string, known: readonly string[]): string {
  const hint = makeSuggester(known)(name);
  return `unknown option "--${name}"${hint ? ` (did you mean --${hint}?)` : ''}`;
}
