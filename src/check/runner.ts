import { strategyInfo, strategySchema, type StrategyConfig } from '../protocols';
import { formatIssues } from '../scenario/issues';
import { Simulation } from '../engine/simulation';
import { InstantTrainer } from '../engine/testing/instantTrainer';
import { validateScenario } from '../scenario/validate';
import type { Sha256Factory } from '../sim/history';
import type { HistoryEvent } from '../sim/types';
import { checkLinearizability } from './linearizability';
import { describeVerdict } from './linearizabilityExplain';
import type { Verdict } from './linearizabilityModel';
import { allowsLoss, checkModel } from './models';
import { nemesisSchedule, type Schedule } from './nemesis';
import { opsFromHistory } from './ops';
import { truthProblems } from './truths';

/**
 * One seed of the randomized checker: a nemesis schedule over the strategy's cluster, run with the
 * engine and a stand-in trainer (protocol safety does not depend on gradient values), then the
 * checks: invariant violations, lost acknowledged updates, progress after the heal, and — where
 * the strategy promises it — linearizability of the recorded operations.
 */

export const STAND_IN_NOTE = 'training: stand-in gradients (safety does not depend on values)';

export interface CheckRunOptions {
  kind: string;
  /** Knobs over the schema's defaults. */
  config?: Record<string, unknown>;
  seed: number;
  /** Length of the fault phase (ms); the quiet period follows. */
  faultMs?: number;
  /** After the heal, every live worker must complete a counted step within this bound (ms). */
  livenessMs?: number;
  workers?: number;
  /** Servers in the cluster (default: the strategy's `checkServers`, else what it needs). */
  servers?: number;
  /** Bias the nemesis towards crashing servers, brokers and leaders (the --expect-loss mode). */
  crashServers?: boolean;
  /** Linearizability search budget per seed (ms). */
  linBudgetMs?: number;
  /**
   * Run a coordination service on three `coord` nodes (c0–c2) beside the strategy: they take faults
   * like any server, processes also pause (GC), the metadata key is written and read throughout,
   * and its operations are checked for linearizability where the service promises it.
   */
  coord?: 'etcd' | 'zookeeper';
  sha256?: Sha256Factory;
}

export interface SeedProblem {
  /** truth: what the strategy must show about availability (truths.ts), e.g. 2PC commits nothing with a participant down. */
  check: 'violation' | 'lost-updates' | 'liveness' | 'linearizability' | 'truth' | 'engine';
  detail: string;
}

export interface SeedResult {
  seed: number;
  problems: SeedProblem[];
  violations: number;
  lostUpdates: number;
  lossAllowed: boolean;
  linearizability: Verdict | null;
  /** The coordination service's metadata key, where the service promises linearizable reads. */
  metaLinearizability: Verdict | null;
  ops: number;
  faults: Record<string, number>;
  events: number;
}

const STEP_MS = 100;
const NETWORK = { latencyMs: 5, jitterMs: 2, bandwidthMbps: 1000 };
/** The coordination service of a check run: leases short enough to expire within the faults. */
const COORD_TTL_MS = 1000;
export const CHECK_META_KEY = '/check/meta';

/** The strategy's knobs: schema defaults, then the overrides; errors name the knob. */
export function strategyConfig(kind: string, over: Record<string, unknown> = {}): { ok: true; cfg: StrategyConfig } | { ok: false; error: string } {
  const parsed = strategySchema.safeParse({ ...over, kind }, { reportInput: true });
  if (parsed.success) return { ok: true, cfg: parsed.data };
  return { ok: false, error: formatIssues(parsed.error.issues, { root: 'strategy' }).join('; ') };
}

export function buildCheckScenario(o: CheckRunOptions, cfg: StrategyConfig): { scenario: unknown; schedule: Schedule; quietMs: number } {
  const info = strategyInfo(o.kind);
  const needs = info?.needs ?? {};
  const workers = Math.max(o.workers ?? 4, needs.workers ?? 1);
  const servers = Math.max(o.servers ?? info?.checkServers ?? 0, needs.servers ?? 0);
  // A replicated log is checked with three brokers (a typical replication factor), not the minimum.
  const brokers = needs.brokers ? Math.max(needs.brokers, 3) : 0;
  const faultMs = o.faultMs ?? 5000;
  const livenessMs = livenessBound(cfg, o.livenessMs, o.coord);
  const quietMs = livenessMs + 1000;
  const schedule = nemesisSchedule({
    seed: o.seed,
    workers,
    servers,
    brokers,
    startMs: 500,
    faultMs,
    meanGapMs: 400,
    network: NETWORK,
    crashServers: o.crashServers,
    ...(o.coord ? { coord: 3, coordFaults: { metaKey: CHECK_META_KEY } } : {}),
  });
  const scenario = {
    schema: 1,
    id: `check-${o.kind}-${o.seed}`,
    seed: o.seed,
    durationMs: schedule.healAt + quietMs,
    cluster: { workers, servers, brokers, ...(o.coord ? { coord: 3 } : {}) },
    ...(o.coord ? { coordination: { service: o.coord, leaseTtlMs: COORD_TTL_MS, readMeta: { key: CHECK_META_KEY, everyMs: 200 } } } : {}),
    model: { dataset: 'xor', hidden: [2], batchSize: 4, learningRate: 0.1, samples: 50 },
    compute: { stepMs: STEP_MS, jitter: 0.2 },
    network: NETWORK,
    strategy: cfg,
    timeline: schedule.timeline,
  };
  return { scenario, schedule, quietMs };
}

export async function runSeed(o: CheckRunOptions): Promise<SeedResult> {
  const conf = strategyConfig(o.kind, o.config);
  if (!conf.ok) throw new Error(conf.error);
  const cfg = conf.cfg;
  const { scenario, schedule } = buildCheckScenario(o, cfg);
  const valid = validateScenario(scenario);
  if (!valid.ok) throw new Error(`generated scenario is invalid: ${valid.errors.join('; ')}`);
  const trainer = new InstantTrainer(16, 50);
  const problems: SeedProblem[] = [];
  const sim = await Simulation.create(valid.scenario, { trainer, sampleEveryMs: 0, sha256: o.sha256 });
  try {
    await sim.runToEnd();
  } catch (e) {
    problems.push({ check: 'engine', detail: e instanceof Error ? e.message : String(e) });
  }
  const events = sim.history.events;
  const violations = sim.metric('violations') ?? 0;
  if (violations > 0) {
    const first = events.find((e): e is Extract<HistoryEvent, { type: 'violation' }> => e.type === 'violation');
    problems.push({ check: 'violation', detail: `${violations} invariant violation(s); first at t=${first?.t}: ${first?.invariant}: ${first?.detail}` });
  }
  const lostUpdates = sim.metric('lostUpdates') ?? 0;
  const lossAllowed = allowsLoss(cfg);
  if (lostUpdates > 0 && !lossAllowed) problems.push({ check: 'lost-updates', detail: `${lostUpdates} acknowledged update(s) lost, and this configuration does not allow loss` });

  const live = livenessProblem(events, valid.scenario.cluster.workers, schedule.healAt, livenessBound(cfg, o.livenessMs, o.coord), sim.now());
  if (live) problems.push({ check: 'liveness', detail: live });
  const servers = Array.from({ length: valid.scenario.cluster.servers }, (_, i) => `s${i}`);
  for (const detail of truthProblems(o.kind, events, servers)) problems.push({ check: 'truth', detail });

  const ops = opsFromHistory(events);
  const model = checkModel(cfg);
  let lin: Verdict | null = null;
  if (model.promises) {
    lin = checkLinearizability(ops, { mode: model.mode, budgetMs: o.linBudgetMs ?? 2000 });
    // A search that gave up is reported, not counted as a violation.
    if (lin.result === 'not-linearizable') problems.push({ check: 'linearizability', detail: describeVerdict(lin) });
  }
  // The metadata key as a versioned register: writes (putMeta) and reads of every worker.
  let metaLin: Verdict | null = null;
  const metaOps = opsFromHistory(events, CHECK_META_KEY);
  if (o.coord && coordPromisesLinearizable(valid.scenario)) {
    metaLin = checkLinearizability(metaOps, { mode: 'register', budgetMs: o.linBudgetMs ?? 2000 });
    if (metaLin.result === 'not-linearizable') problems.push({ check: 'linearizability', detail: `metadata ${CHECK_META_KEY}: ${describeVerdict(metaLin)}` });
  }
  return { seed: o.seed, problems, violations, lostUpdates, lossAllowed, linearizability: lin, metaLinearizability: metaLin, ops: ops.length + metaOps.length, faults: schedule.counts, events: events.length };
}

/**
 * How long progress may take to resume after the heal: the requested bound, or longer where the
 * strategy's own timeouts say a real system would wait longer (Kafka's request.timeout.ms is 30 s
 * by default: a producer whose request died with a broker waits that long before retrying).
 */
export function livenessBound(cfg: StrategyConfig, requested = 3000, coord?: 'etcd' | 'zookeeper'): number {
  let longest = 0;
  for (const [name, value] of Object.entries(cfg as Record<string, unknown>)) {
    if (!/time(out)?\.?ms$|TimeoutMs$|timeout\.ms$/i.test(name) || /lag\.time\.max/.test(name)) continue;
    const v = Array.isArray(value) ? Math.max(...value.filter((x): x is number => typeof x === 'number')) : value;
    if (typeof v === 'number' && Number.isFinite(v)) longest = Math.max(longest, v);
  }
  // With a coordination service, a lock held by a crashed or cut-off client is free only once its
  // lease expires, and a new leader may have to be elected first (etcd: up to 2 election timeouts
  // with Pre-Vote; ZooKeeper: syncLimit, then an election of a few ticks).
  const coordMs = coord === 'etcd' ? 3 * COORD_TTL_MS + 4000 : coord === 'zookeeper' ? 3 * COORD_TTL_MS + 5 * COORD_TTL_MS : 0;
  return Math.max(requested, longest + 2000) + coordMs;
}

/** Does the scenario's coordination service promise linearizable metadata reads? (etcd's default does; ZooKeeper's never.) */
function coordPromisesLinearizable(sc: { coordination?: { service: string; reads?: string } }): boolean {
  const c = sc.coordination;
  return c !== undefined && c.service === 'etcd' && (c.reads ?? 'linearizable') === 'linearizable';
}

/**
 * Progress resumes after the heal: every worker up at the end completes a counted step (one that
 * counts for availability under the strategy) within `boundMs` of the heal, and again in the last
 * `boundMs` of the run (it did not just blip and stop).
 */
export function livenessProblem(events: readonly HistoryEvent[], workers: number, healAt: number, boundMs: number, end: number): string | null {
  const up = new Map<string, boolean>();
  const first = new Map<string, number>();
  const last = new Map<string, number>();
  for (let i = 0; i < workers; i++) up.set(`w${i}`, true);
  for (const e of events) {
    if (e.type === 'crash' && up.has(e.node)) up.set(e.node, false);
    else if (e.type === 'restart' && up.has(e.node)) up.set(e.node, true);
    else if (e.type === 'counted' && e.t >= healAt) {
      if (!first.has(e.node)) first.set(e.node, e.t);
      last.set(e.node, e.t);
    }
  }
  const stuck: string[] = [];
  for (const [w, isUp] of up) {
    if (!isUp) continue;
    const f = first.get(w);
    if (f === undefined) stuck.push(`${w} made no progress after the heal at ${healAt} ms`);
    else if (f > healAt + boundMs) stuck.push(`${w} resumed only at ${f} ms, ${f - healAt} ms after the heal (bound ${boundMs} ms)`);
    else if (last.get(w)! < end - boundMs) stuck.push(`${w} stopped progressing at ${last.get(w)} ms (run ends at ${end} ms)`);
  }
  return stuck.length ? stuck.join('; ') : null;
}
