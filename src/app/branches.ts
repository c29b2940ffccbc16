import { runScenario, userEntriesUpTo } from '../engine/runExport';
import { createRun, type Run } from './engine';
import type { Action, SimTime } from '../sim/types';
import { driver } from './driver';
import { explainReady } from './load';
import { rs } from './i18n/runStrings';
import { problemTextOr } from './problemTextLoad';
import { get, reportError, set, setNotice, type Branch } from './store';

/**
 * Forking a run (CONTRACTS §5): acting while the cursor is scrubbed into the past starts a new
 * branch there. A new run replays the prefix deterministically — the scenario's timeline
 * plus the user's earlier actions up to t, at full speed — then applies the new action at t and
 * carries on; the branch it left is kept and the B key returns to it.
 */

/** Wall ms of replay per slice, so the page keeps painting its progress. */
const SLICE_MS = 30;

const seconds = (t: number) => (t / 1000).toFixed(2);

function nextFrame(): Promise<void> {
  return new Promise((resolve) => requestAnimationFrame(() => resolve()));
}

/** The current branch's record. */
export function currentBranch(): Branch | undefined {
  const { branches, branchId } = get();
  return branches.find((b) => b.id === branchId);
}

/**
 * The prefix of `old` up to t as a fresh run on the same trainer, with every event at or
 * before t processed — the state the screen showed at t. Null if a newer load replaced the run.
 */
async function replayPrefix(old: Run, t: SimTime): Promise<Run | null> {
  const sc = userEntriesUpTo(runScenario(old.scenario, old.userActions()), t);
  // A fork runs the old run's strategy, whose text normally loaded with it; asking again retries a load that failed.
  const [sim] = await Promise.all([createRun(sc, old.trainer), explainReady(sc)]);
  for (;;) {
    if (sim.failure) throw new Error(sim.failure);
    const due = sim.nextEventTime();
    if (due === null || due > t) break;
    await sim.advanceTo(t, { wallBudgetMs: SLICE_MS });
    set({ forking: { t, progress: t > 0 ? Math.min(1, sim.now() / t) : 1 } });
    await nextFrame();
    if (get().sim?.trainer !== old.trainer) {
      void sim.dispose().catch(() => undefined);
      return null;
    }
  }
  await sim.advanceTo(t); // no event is due before t now: this only moves the clock to t
  return sim;
}

/** The replayed prefix must be the old run's, event for event (else determinism is broken). */
function divergence(old: Run, fork: Run, t: SimTime): string | null {
  const a = old.history;
  const b = fork.history;
  let n = 0;
  while (n < a.length && a.at(n).t <= t) n++;
  if (b.length !== n) return `${b.length} events replayed, the run had ${n} up to t = ${t} ms`;
  if (n > 0 && JSON.stringify(a.at(n - 1)) !== JSON.stringify(b.at(n - 1))) return `the last event differs: ${JSON.stringify(b.at(n - 1))}`;
  return null;
}

/** Forks the current run at t with `actions` as the new branch's first own actions. */
export async function fork(actions: readonly Action[], t: SimTime): Promise<boolean> {
  const st = get();
  const old = st.sim;
  const parent = currentBranch();
  if (!old || !parent || st.forking) return false;
  const lang = st.lang;
  const wasRunning = st.status === 'running';
  driver.pause();
  set({ forking: { t, progress: 0 }, menu: null });
  let sim: Run | null;
  try {
    sim = await replayPrefix(old, t);
  } catch (e) {
    set({ forking: null });
    reportError(rs(lang, 'forkFailed', { t: seconds(t), cause: e instanceof Error ? e.message : String(e) }));
    return false;
  }
  if (!sim) return false; // a new scenario was loaded meanwhile
  const diverged = divergence(old, sim, sim.now());
  if (diverged) reportError(rs(lang, 'forkDiverged', { cause: diverged }));
  for (const action of actions) {
    const r = await sim.apply(action);
    if (!r.ok) {
      set({ forking: null });
      void sim.dispose().catch(() => undefined);
      reportError(rs(lang, 'forkFailed', { t: seconds(t), cause: await problemTextOr((w) => w.actionRefusalText(lang, r), r.error) }));
      return false;
    }
  }
  await driver.detach();
  const id = Math.max(...get().branches.map((b) => b.id)) + 1;
  const branch: Branch = { id, sim, parent: { id: parent.id, t: sim.now() } };
  set((s) => ({
    branches: [...s.branches, branch],
    branchId: id,
    previousBranch: parent.id,
    sim,
    forking: null,
    cursor: null,
    status: sim.done ? 'done' : 'paused',
    progress: sim.now() / sim.durationMs,
    frame: s.frame + 1,
  }));
  driver.attach(sim);
  setNotice(rs(lang, 'forked', { t: seconds(branch.parent!.t) }));
  if (wasRunning) driver.play();
  return true;
}

/** Shows branch `id` where it stands (paused, or done); the branch shown before becomes the previous one. */
export async function switchBranch(id: number): Promise<void> {
  const st = get();
  const target = st.branches.find((b) => b.id === id);
  if (!target || id === st.branchId || st.forking) return;
  const from = st.branchId;
  await driver.detach();
  set((s) => ({
    sim: target.sim,
    branchId: id,
    previousBranch: from,
    cursor: null,
    status: target.sim.failure ? 'error' : target.sim.done ? 'done' : 'paused',
    progress: target.sim.now() / target.sim.durationMs,
    frame: s.frame + 1,
  }));
  driver.attach(target.sim);
}

/** The B key: back to the previous branch (pressed again, forward to the one left). */
export function toggleBranch(): void {
  const prev = get().previousBranch;
  if (prev !== null) void switchBranch(prev);
}
