import { describe, expect, it } from 'vitest';
import { resolveVariant } from '../../scenario/validate';
import type { Scenario } from '../../scenario/schema';
import { explainAt, runBuiltin } from '../testing/runs';
import { explain } from '.';

/**
 * The what-you-see line under attack (L13's run, free play): it names the attacker first and says
 * what the receiver's check did with its messages, counted from this run's notes — never
 * "Healthy" while an attacker is at work.
 */
const L13 = 'secure-updates-byzantine';
const variant = (id: string) => (s: Scenario) => {
  const v = resolveVariant(s, id);
  if (!v.ok) throw new Error(v.errors.join('\n'));
  return v.scenario;
};

function lineAt(sim: Awaited<ReturnType<typeof runBuiltin>>, t: number) {
  const { st } = explainAt(sim, t);
  return { st, en: explain(st, 'en'), zh: explain(st, 'zh') };
}

describe('the line under attack (L13)', () => {
  it('SHA-256: the man-in-the-middle recomputes the digest and every altered update is applied; the barrier still holds', async () => {
    const sim = await runBuiltin(L13);
    const { st, en, zh } = lineAt(sim, 6000);
    // The count is the strip's: as of the metric sample it shows, the same messages its counter counts.
    const took = st.metrics.tamperedAccepted;
    expect(took).toBeGreaterThan(0);
    expect(st.countNotes('tamperAccepted', undefined, st.sampledAt ?? 0)).toBe(took);
    expect(en).toContain('An attacker on w1 → s0 negates what w1 sends (×10) and recomputes the SHA-256 digest');
    expect(en).toContain(`applies every altered update (${took} so far)`);
    expect(en).toContain('poisoned or not');
    expect(en).not.toContain('Healthy');
    expect(zh).toContain('重新计算 SHA-256 摘要');
    expect(zh).not.toContain('运行正常');
    // Before the attack and after it stops, the strategy's own sentence alone.
    expect(lineAt(sim, 3000).en).toMatch(/^Healthy barrier/);
    expect(lineAt(sim, 9500).st.attacked).toBe(false);
  });

  it('HMAC: tampered updates are rejected, replays are not; with the step inside the MAC they are', async () => {
    const hmac = await runBuiltin(L13, variant('hmac'));
    const tamper = lineAt(hmac, 6000);
    expect(tamper.en).toContain(`cannot forge an HMAC tag without w1's key: s0 rejects each altered update (${tamper.st.metrics.tamperedRejected} so far)`);
    const replay = lineAt(hmac, 12_000);
    expect(replay.en).toContain('their HMAC tags are genuine');
    expect(replay.en).toContain(`applies old updates again (${replay.st.countNotes('replayAccepted', undefined, replay.st.sampledAt ?? 0)} so far)`);
    const stepped = await runBuiltin(L13, variant('hmac-step'));
    const dropped = lineAt(stepped, 12_000);
    expect(dropped.st.countNotes('replayAccepted')).toBe(0);
    expect(dropped.en).toContain(`so it drops every replay (${dropped.st.metrics.replayRejected} so far)`);
  });

  it('a Byzantine insider passes every check: the mean gives way, the median holds', async () => {
    const mean = lineAt(await runBuiltin(L13, variant('hmac-step')), 20_000);
    expect(mean.en).toMatch(/^w6 is Byzantine: it holds a valid key and sends its gradient negated \(×10\), so every channel check passes/);
    expect(mean.en).toContain('The mean lets one worker drag the average');
    expect(mean.zh).toContain('w6 是拜占庭节点');
    // The replay attacker spent its 20 messages by then: no longer at work, no longer named.
    expect(mean.en).not.toContain('re-sends');
    // Without keys (the base's SHA-256) there is no key to hold: it is still the worker itself that sends.
    const unkeyed = lineAt(await runBuiltin(L13), 20_000);
    expect(unkeyed.en).toMatch(/^w6 is Byzantine: a cluster member that sends its gradient negated \(×10\); no channel check could catch it/);
    const median = lineAt(await runBuiltin(L13, variant('median')), 20_000);
    expect(median.en).toContain('The coordinate-wise median keeps the outlier from steering the update.');
  });
});
