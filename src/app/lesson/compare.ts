import type { Expectation, Scenario } from '../../scenario/schema';
import { expectationApplies, isBaseId } from '../../scenario/variants';

/** Columns a 1280-px panel quarter holds at the table's type. */
const MAX_COLUMNS = 4;

/**
 * The metrics worth comparing across the shown variants: those the lesson's checks on them
 * measure, in the lesson's order (stable from step to step): first the checks that measure a
 * value or compare two runs, then those that only guard an invariant (`== 0`, or one check for
 * every variant, `*`), then the step's focused metrics the checks do not name. When there are
 * more than the card holds, the focused ones stay.
 */
export function compareMetrics(lesson: Pick<Scenario, 'expect' | 'base'>, ids: readonly string[], focused: readonly string[]): string[] {
  const applies = (e: Expectation): boolean => ids.some((id) => expectationApplies(e, isBaseId(lesson, id) ? null : id, lesson.base?.id));
  const invariant = (e: Expectation): boolean => e.variant === '*' || (e.than === undefined && e.thanAt === undefined && e.op === '==' && e.value === 0);
  const checks = (lesson.expect ?? []).filter(applies);
  const all: string[] = [];
  for (const m of [...checks.filter((e) => !invariant(e)).map((e) => e.metric), ...checks.filter(invariant).map((e) => e.metric), ...focused]) if (!all.includes(m)) all.push(m);
  if (all.length <= MAX_COLUMNS) return all;
  const keep = new Set(focused.filter((m) => all.includes(m)).slice(0, MAX_COLUMNS));
  for (const m of all) if (keep.size < MAX_COLUMNS) keep.add(m);
  return all.filter((m) => keep.has(m));
}
