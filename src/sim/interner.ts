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
}
