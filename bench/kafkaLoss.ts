/**
 * Lost acknowledged updates in kafka-ps per configuration, under random leader crashes
 * (src/engine/testing/kafkaFaults.ts: 1–3 episodes per run; in 60% the leader is first cut off
 * from its followers for up to 2 s). `npx tsx bench/kafkaLoss.ts [seeds=50]`.
 * Prints a table and one JSON line. Deterministic: a seed names one run.
 */
import { runWithLeaderCrashes } from '../src/engine/testing/kafkaFaults';

const seeds = Number(process.argv[2] ?? 50);
const configs: Array<{ name: string; knobs: Record<string, unknown> }> = [];
for (const acks of ['0', '1', 'all'] as const)
  for (const unclean of [false, true])
    configs.push({ name: `acks=${acks} unclean=${unclean}`, knobs: { acks, 'min.insync.replicas': acks === 'all' ? 2 : 1, 'unclean.leader.election.enable': unclean } });

const rows: Array<Record<string, number | string>> = [];
for (const c of configs) {
  let lost = 0;
  let losing = 0;
  let maxLost = 0;
  let violations = 0;
  let unclean = 0;
  let rejected = 0;
  let steps = 0;
  for (let seed = 1; seed <= seeds; seed++) {
    const sim = await runWithLeaderCrashes(seed, c.knobs);
    if (sim.failure) throw new Error(`${c.name} seed ${seed}: ${sim.failure}`);
    const l = sim.metric('lostUpdates')!;
    lost += l;
    maxLost = Math.max(maxLost, l);
    if (l > 0) losing++;
    violations += sim.metric('violations')!;
    unclean += sim.metric('uncleanElections')!;
    rejected += sim.metric('rejectedWrites')!;
    steps += sim.metric('steps')!;
  }
  rows.push({ config: c.name, 'min.insync': c.knobs['min.insync.replicas'] as number, seedsLosing: losing, lostTotal: lost, lostMeanPerRun: +(lost / seeds).toFixed(2), lostMax: maxLost, uncleanElections: unclean, rejectedWrites: rejected, stepsMean: Math.round(steps / seeds), violations });
}
console.table(rows);
console.log(JSON.stringify({ seeds, rows }));
