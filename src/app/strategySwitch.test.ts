import { describe, expect, it } from 'vitest';
import { builtin, builtins, editBase } from './testing/edits';
import { strategies } from '../protocols';
import { resolveVariant, validateScenario } from '../scenario/validate';
import { withStrategy } from './strategySwitch';

const base = editBase;

describe('strategy switch', () => {
  it('switching to every registered strategy builds a cluster it accepts (raft: 3 servers, kafka: brokers and a PS replica)', () => {
    for (const info of strategies) {
      const e = withStrategy(base, info.kind);
      expect(e, info.kind).not.toBeNull();
      const v = validateScenario(e!.scenario);
      expect(v.ok ? '' : JSON.stringify(v), info.kind).toBe('');
    }
    expect(withStrategy(base, 'raft-ps')!.scenario.cluster.servers).toBeGreaterThanOrEqual(3);
    const k = withStrategy(base, 'kafka-ps')!.scenario.cluster;
    expect(k.brokers).toBeGreaterThanOrEqual(1);
    expect(k.servers).toBeGreaterThanOrEqual(1);
    expect(withStrategy(base, 'degrade')!.scenario.cluster.servers ?? 0).toBe(0);
  });

  it('switching the strategy of any built-in makes a run, leaving out the variants, the checks and the lesson written for the old one', () => {
    const refused: string[] = [];
    for (const { id, scenario } of builtins()) {
      for (const info of strategies) {
        if (info.kind === scenario.strategy.kind) continue;
        const e = withStrategy(scenario, info.kind)!;
        const r = validateScenario(e.scenario);
        if (!r.ok) {
          refused.push(`${id} → ${info.kind}`);
          continue;
        }
        // What stays resolves; what went is named.
        for (const x of r.scenario.variants ?? []) expect(resolveVariant(r.scenario, x.id).ok, `${id} → ${info.kind}: ${x.id}`).toBe(true);
        const before = (scenario.variants ?? []).map((x) => x.id);
        expect([...(r.scenario.variants ?? []).map((x) => x.id), ...(e.droppedVariants ?? [])].sort()).toEqual([...before].sort());
      }
    }
    // Only where the scenario's security cannot apply: a ring carries no parameter-server updates to sign
    // (the page says so, naming security, and keeps the run).
    expect(refused).toEqual(['secure-updates-byzantine → allreduce', 'secure-updates-byzantine → degrade']);
    // raft-ps-majority's local-reads variant sets Raft's readMode: under ps-sync it goes, and the lesson with it.
    const e = withStrategy(builtin('raft-ps-majority'), 'ps-sync')!;
    expect(e.droppedVariants).toContain('local-reads');
    // ps-sync puts one server to work: Raft's other four would stand idle (nothing names them).
    expect(e.scenario.cluster.servers).toBe(1);
    expect(e.scenario.acts).toBeUndefined();
    expect(e.scenario.expect.some((x) => x.variant === 'local-reads')).toBe(false);
    // Raft's own metrics were claims about Raft; the engine's (availability, lost updates) compare the
    // two — but for `leaders`, which nothing in a ps-sync run elects (the engine would say 0).
    expect([...e.droppedChecks].sort()).toEqual(['leaders', 'maxCommitGapMs', 'staleReads']);
    expect(e.scenario.expect.map((x) => x.metric)).not.toContain('leaders');
    expect(e.scenario.expect.map((x) => x.metric)).toContain('availability');
    expect(e.scenario.expect.map((x) => x.metric)).not.toContain('maxCommitGapMs');
    // Paxos vs 2PC switched to 2PC: the lesson goes (its story is Paxos's), the 2pc variant — a run of
    // its own strategy, unchanged — keeps its check on inDoubt.
    const two = withStrategy(builtin('paxos-vs-2pc'), '2pc-ps')!;
    expect(two.droppedVariants).toEqual([]);
    expect(two.scenario.acts).toBeUndefined();
    expect(two.scenario.lesson).toBeUndefined();
    expect(two.scenario.expect.some((x) => x.variant === '2pc' && x.metric === 'inDoubt')).toBe(true);
  });

  it('nodes the new strategy would leave idle go, with the entries that name them', () => {
    const raft = withStrategy({ ...base, timeline: [...base.timeline, { at: 7000, do: 'crash', node: 's2' }] }, 'raft-ps')!.scenario;
    expect(raft.cluster.servers).toBe(5);
    const sync = withStrategy(raft, 'ps-sync')!;
    expect(sync.scenario.cluster.servers).toBe(1);
    expect(sync.pruned).toBe(1); // the crash of s2
    expect(sync.scenario.timeline.some((e) => e.do === 'crash' && e.node === 's2')).toBe(false);
    expect(withStrategy(sync.scenario, 'allreduce')!.scenario.cluster.servers).toBe(0);
    // Kafka's brokers (and a crash of one) under Raft: gone.
    const kafka = withStrategy({ ...base, timeline: [{ at: 7000, do: 'crash', node: 'b1' }] }, 'kafka-ps')!.scenario;
    expect(kafka.cluster.brokers).toBe(3);
    const back = withStrategy(kafka, 'raft-ps')!;
    expect(back.scenario.cluster.brokers).toBe(0);
    expect(back.scenario.timeline).toEqual([]);
  });

  it('switching to ps-async adds s0 and gives default knobs; the result validates', () => {
    const e = withStrategy(base, 'ps-async');
    expect(e).not.toBeNull();
    expect(e!.scenario.cluster.servers).toBe(1);
    expect(e!.scenario.strategy).toMatchObject({ kind: 'ps-async', pushTimeoutMs: 300 });
    expect(validateScenario(e!.scenario).ok).toBe(true);
  });

  it('switching back to all-reduce drops an unreferenced server', () => {
    const ps = withStrategy(base, 'ps-async')!.scenario;
    expect(withStrategy(ps, 'allreduce')!.scenario.cluster.servers).toBe(0);
  });
});
