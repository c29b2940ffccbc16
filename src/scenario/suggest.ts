/** "Did you mean …": the closest known name to a misspelt one (a field, a URL parameter, a metric). */

/** The known name a misspelt one was most likely meant to be, if any. */
export type FieldSuggester = (unknownKey: string) => string | undefined;

/**
 * Edit distance, small strings only (field names), counting two neighbouring letters swapped as
 * one edit (optimal string alignment): "lnag" is one slip from "lang", not two.
 */
function distance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.length][b.length];
}

/** Suggests the closest known name (case-insensitive match first, then edit distance ≤ 2). */
export function makeSuggester(known: Iterable<string>): FieldSuggester {
  const names = [...new Set(known)];
  return (key) => {
    const lower = key.toLowerCase();
    // A name valid elsewhere in the file (e.g. a step's "when") is no hint for this place.
    const exact = names.find((n) => n.toLowerCase() === lower && n !== key);
    if (exact) return exact;
    // Short names are too close to everything: only suggest when the typo is small for its length.
    if (key.length < 3) return undefined;
    let best: string | undefined;
    let bestD = key.length < 6 ? 2 : 3;
    for (const n of names) {
      if (n === key) continue;
      const d = distance(lower, n.toLowerCase());
      if (d < bestD) {
        bestD = d;
        best = n;
      }
    }
    return best;
  };
}
