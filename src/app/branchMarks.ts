import type { Branch } from './store';

/**
 * The branch points on the current branch's line of descent, for the timeline: where this run
 * left its parent, where that one left its own, and so on.
 */
export function lineageMarks(branches: readonly Branch[], id: number, label: (parent: number) => string): Array<{ t: number; label: string }> {
  const out: Array<{ t: number; label: string }> = [];
  for (let b = branches.find((x) => x.id === id); b?.parent; b = branches.find((x) => x.id === b!.parent!.id)) {
    out.push({ t: b.parent.t, label: label(b.parent.id) });
  }
  return out;
}
