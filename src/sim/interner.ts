/**
 * Strings numbered in the order first seen (node ids, message kinds, the compact stores' strings):
 * a column holds the number, `at` gives the string back.
 */
export class Interner {
  private readonly list: string[] = [];
  private readonly ids = new Map<string, number>();

  id(s: string): number {
    let i = this.ids.get(s);
    if (i === undefined) {
      i = this.list.length;
      this.list.push(s);
      this.ids.set(s, i);
    }
    return i;
  }

  at(i: number): string {
    return this.list[i];
  }

  /** How many strings are numbered. */
  get size(): number {
    return this.list.length;
  }

  /** The strings numbered `from` to `to` (excluded; all later ones by default), in order (another interner's `learn` gives them the same numbers). */
  since(from: number, to = this.list.length): string[] {
    return this.list.slice(from, to);
  }

  /** Numbers `strings` next, in order: a copy of another interner, kept up to date with its `since`. */
  learn(strings: readonly string[]): void {
    for (const s of strings) {
      this.ids.set(s, this.list.length);
      this.list.push(s);
    }
  }
}
