import { strategyInfo } from '../protocols';
import { kafkaMisnomers, kafkaPsProblems } from '../protocols/kafka';
import { coordinationProblems } from '../protocols/coord/config';
import { scenarioSchema, type Scenario } from './schema';
import { fieldNamesOf, formatIssues, formatPath, makeSuggester } from './issues';
import { actionNodeProblems, clusterNodeIds, unknownNodeMessage } from './nodes';

/**
 * Validation of a scenario file (CONTRACTS §1): structure via the zod schema, then the rules
 * that need the whole file (node ids exist, times fall inside the run, the strategy has the
 * nodes it needs). Every problem is one line `path: message`; nothing throws.
 */

export type ValidationResult = { ok: true; scenario: Scenario } | { ok: false; errors: string[] };

/** Above this many lines the rest are summarised; a wholly wrong file should not flood the screen. */
const MAX_ERRORS = 25;

/**
 * Nodes each strategy needs. One row per strategy, so a new strategy adds its needs here
 * (e.g. raft-ps: servers ≥ 3) without touching the checks.
 */

const suggest = makeSuggester(fieldNamesOf(scenarioSchema));

export function validateScenario(input: unknown): ValidationResult {
  const parsed = scenarioSchema.safeParse(input, { reportInput: true });
  if (!parsed.success) {
    const errors = parsed.error.issues.map((issue) =>
      // A newer file deserves a clearer word than "expected 1": say what this build reads.
      issue.path.length === 1 && issue.path[0] === 'schema' && issue.code === 'invalid_value' && typeof issue.input === 'number'
        ? `schema: unsupported schema version ${issue.input}; this version of CAP Playground reads schema 1`
        : formatIssues([issue], { root: 'scenario', suggest, misnomers: kafkaMisnomers })[0],
    );
    return { ok: false, errors: cap(errors) };
  }
  const errors = wholeFileProblems(parsed.data);
  return errors.length > 0 ? { ok: false, errors: cap(errors) } : { ok: true, scenario: parsed.data };
}

function cap(errors: string[]): string[] {
  if (errors.length <= MAX_ERRORS) return errors;
  return [...errors.slice(0, MAX_ERRORS), `… and ${errors.length - MAX_ERRORS} more problems`];
}

/** Rules across fields, on a structurally valid scenario. */
export function wholeFileProblems(s: Scenario): string[] {
  const errors: string[] = [];
  const ids = clusterNodeIds(s.cluster);
  const known = new Set(ids);
  const at = (path: ReadonlyArray<string | number>, msg: string) => errors.push(`${formatPath(path)}: ${msg}`);

  const needs = strategyInfo(s.strategy.kind)?.needs ?? {};
  for (const role of ['workers', 'servers', 'brokers'] as const) {
    const min = needs[role];
    if (min !== undefined && s.cluster[role] < min) {
      const noun = min === 1 ? role.slice(0, -1) : role;
      at(['cluster', role], `strategy "${s.strategy.kind}" needs at least ${min} ${noun} (got ${s.cluster[role]})`);
    }
  }

  if (s.strategy.kind === 'kafka-ps') for (const [path, msg] of kafkaPsProblems(s.strategy, s.cluster)) at(['strategy', ...path], msg);

  if (s.coordination) for (const [path, msg] of coordinationProblems(s.coordination, s.cluster)) at(['coordination', ...path], msg);
  if (s.strategy.kind === 'ps-async') {
    if (s.strategy.writeLock === 'lease' && s.cluster.coord < 1) at(['strategy', 'writeLock'], '"lease" takes its locks from a coordination service: set cluster.coord (3 is usual)');
    if (s.strategy.fencing && s.strategy.writeLock !== 'lease') at(['strategy', 'fencing'], 'fencing checks the tokens of lock grants: it needs writeLock "lease"');
  }

  s.compute.stragglers.forEach((st, i) => {
    if (!known.has(st.node)) at(['compute', 'stragglers', i, 'node'], unknownNodeMessage(st.node, ids));
  });

  s.timeline.forEach((entry, i) => {
    if (entry.at > s.durationMs) at(['timeline', i, 'at'], afterEnd(entry.at, s.durationMs));
    for (const [field, msg] of actionNodeProblems(entry, ids)) at(['timeline', i, field], msg);
  });

  s.expect.forEach((e, i) => {
    if (e.at !== 'end' && e.at > s.durationMs) at(['expect', i, 'at'], afterEnd(e.at, s.durationMs));
    if (e.node !== undefined && !known.has(e.node)) at(['expect', i, 'node'], unknownNodeMessage(e.node, ids));
  });

  return errors;
}

function afterEnd(t: number, durationMs: number): string {
  return `${t} is after the end of the run (durationMs ${durationMs})`;
}
