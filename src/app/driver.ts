import type { Run } from './engine';
import { s } from './i18n/strings';
import { bumpFrame, get, reportError, set } from './store';

/**
 * The co-simulation loop (DESIGN "The co-simulation loop"). Each animation frame asks the engine's
 * worker to advance the run to now + wallDelta × speed within a wall budget, so a run keeps pace
 * however slow training is; "max" advances unpaced, request after request. At most one advance
 * is in flight: frames that arrive meanwhile only add their wall time to what is owed, and what
 * is owed is capped so that a stall (tab in background, slow worker) never turns into a burst.
 */

/**
 * Wall ms of the engine worker's work per request: paced (one a frame), and at speed max. The page
 * answers input while the worker works, and an action ends the worker's slice at the next instant
 * (engine/remote/host.ts), so a long slice at max costs neither: 200 ms ran raft-ps ×16 at 0.83 of
 * its pace without UI, 100 ms at 0.71.
 */
const pacedBudgetMs = 16;
const maxBudgetMs = 200;
/** At speed max the views redraw at most this often (wall ms). */
const MAX_SPEED_FRAME_MS = 66;
/** At most this much wall time is carried over between frames. */
const maxOwedWallMs = 250;
/** One simulated microsecond (times are whole µs): stopping this short of t leaves t's events unrun. */
const EPS_MS = 0.001;

/**
 * Guided mode (lesson/runtime.ts) plugs into the loop: the other variants' runs, which advance in
 * lockstep with the shown one (one play-head drives all), and a time the runs must not pass — an
 * `interactive` timeline entry waiting for the learner (exclusive: its events stay unrun until the
 * learner acts) or a step that pauses (inclusive). With a guide, playing from a scrubbed cursor
 * replays the recorded run up to the live edge instead of jumping there.
 */
export interface Guide {
  companions(): readonly Run[];
  stop(): { t: number; inclusive: boolean } | null;
  /** ▶ pressed: true if the guide took it (at a wait, ▶ is "do it for me"). */
  beforePlay?(): boolean;
}

class Driver {
  private sim: Run | null = null;
  private raf: number | null = null;
  private lastWall: number | null = null;
  private owedWallMs = 0;
  private busy: Promise<void> | null = null;
  private guide: Guide | null = null;

  setGuide(guide: Guide | null): void {
    this.guide = guide;
  }

  /** Every run the loop advances: the shown one first, then the guide's companions. */
  private runs(sim: Run): Run[] {
    return this.guide ? [sim, ...this.guide.companions().filter((c) => c !== sim)] : [sim];
  }

  /** The live edge: how far every run has got (the play-head cannot show more). */
  edge(sim: Run): number {
    return Math.min(...this.runs(sim).map((r) => r.now()));
  }

  /** The latest time the runs may be advanced to now (Infinity: no stop ahead). */
  private limit(): number {
    const stop = this.guide?.stop();
    return stop ? (stop.inclusive ? stop.t : stop.t - EPS_MS) : Infinity;
  }

  /** Live room (src/app/room): where the room's clock says this device should be; null = the user's controls. */
  private follow: (() => number) | null = null;

  /** Makes `sim` the one the loop drives (the previous one must have been detached). */
  attach(sim: Run): void {
    this.sim = sim;
    this.owedWallMs = 0;
    this.lastWall = null;
    if (this.follow) this.startLoop();
  }

  /**
   * Live room: advance as fast as the page allows towards `target()` — the teacher's clock, never
   * past the room's horizon — instead of by the local speed and play/pause, which then do nothing.
   */
  setFollow(target: (() => number) | null): void {
    this.follow = target;
    // Back to the user's controls: the loop runs only while playing (play() starts it again).
    if (target) this.startLoop();
    else this.stopLoop();
  }

  get following(): boolean {
    return this.follow !== null;
  }

  /** Stops the loop and waits for an advance in flight, so the old trainer can be disposed safely. */
  async detach(): Promise<void> {
    this.stopLoop();
    const busy = this.busy;
    if (busy) await busy.catch(() => undefined);
    this.sim = null;
  }

  play(): void {
    const sim = this.sim;
    if (!sim || sim.failure || this.follow) return;
    if (this.guide?.beforePlay?.()) return;
    // Guided: a scrubbed cursor replays from where it is (the recorded run), even after the end.
    const replay = this.guide !== null && get().cursor !== null;
    if (this.runs(sim).every((r) => r.done) && !replay) return;
    set(replay ? { status: 'running' } : { status: 'running', cursor: null });
    this.startLoop();
  }

  pause(): void {
    if (this.follow) return;
    this.stopLoop();
    const st = get().status;
    if (st === 'running' || st === 'idle') set({ status: 'paused' });
  }

  toggle(): void {
    if (get().status === 'running') this.pause();
    else this.play();
  }

  /** Processes exactly one event (the ▶| button); pauses a running loop first. */
  async step(): Promise<void> {
    const sim = this.sim;
    if (!sim || sim.done || sim.failure || this.follow) return;
    this.pause();
    if (this.busy) await this.busy.catch(() => undefined);
    if (this.sim !== sim) return;
    const run = sim.stepEvent();
    this.busy = run;
    try {
      await run;
      this.after(sim);
    } catch (e) {
      this.fail(sim, e);
    } finally {
      if (this.busy === run) this.busy = null;
    }
  }

  /**
   * Runs unpaced until simulated time `ms` (capped at the end), every event at `ms` included,
   * then pauses there — for replays and tests (window.capPlayground.runTo). Resolves when there.
   */
  async runTo(ms: number, until?: () => boolean): Promise<void> {
    const sim = this.sim;
    if (!sim || sim.failure) return;
    this.pause();
    if (this.busy) await this.busy.catch(() => undefined);
    if (this.sim !== sim || (sim.done && this.runs(sim).every((r) => r.done))) return;
    set({ status: 'running', cursor: null });
    while (this.sim === sim && !sim.failure && !this.runs(sim).every((r) => r.done)) {
      if (until?.()) break;
      // A guide's stop ahead (an interactive entry waiting) caps the run; reaching it ends runTo.
      const target = Math.min(ms, sim.durationMs, this.limit());
      const behind = this.runs(sim).some((r) => {
        const due = r.nextEventTime();
        return !r.done && (r.now() < target || (due !== null && due <= target));
      });
      if (!behind) break;
      const run = this.advance(sim, target, maxBudgetMs);
      this.busy = run;
      await run;
      if (this.busy === run) this.busy = null;
      await new Promise<void>((resolve) => requestAnimationFrame(() => resolve()));
    }
    if (this.sim === sim && get().status === 'running') set({ status: 'paused' });
  }

  private startLoop(): void {
    if (this.raf !== null) return;
    this.lastWall = null;
    this.raf = requestAnimationFrame(this.tick);
  }

  private stopLoop(): void {
    if (this.raf !== null) cancelAnimationFrame(this.raf);
    this.raf = null;
    this.lastWall = null;
  }

  private tick = (wall: number): void => {
    this.raf = requestAnimationFrame(this.tick);
    const sim = this.sim;
    if (!sim) return;
    if (this.lastWall !== null) this.owedWallMs = Math.min(maxOwedWallMs, this.owedWallMs + (wall - this.lastWall));
    this.lastWall = wall;
    if (this.busy) return;
    const speed = get().speed;
    const cursor = get().cursor;
    if (this.guide && cursor !== null) {
      // Replaying the recorded run: the cursor moves, nothing is computed, until the live edge.
      const edge = this.edge(sim);
      const next = speed === 'max' ? edge : cursor + this.owedWallMs * speed;
      this.owedWallMs = 0;
      if (next >= edge) {
        set({ cursor: null });
        if (this.runs(sim).every((r) => r.done)) {
          this.stopLoop();
          set({ status: 'done' });
        }
      } else set({ cursor: next });
      return;
    }
    const runs = this.runs(sim);
    if (runs.every((r) => r.done)) return;
    const end = Math.max(...runs.map((r) => r.durationMs));
    let target: number;
    let budget: number;
    if (this.follow) {
      target = Math.min(sim.durationMs, this.follow());
      budget = maxBudgetMs;
      if (target <= sim.now()) return;
    } else if (speed === 'max') {
      this.owedWallMs = 0;
      this.pump(sim);
      return;
    } else {
      // From the slowest run: no variant runs ahead of the others on screen.
      target = Math.min(end, this.edge(sim) + this.owedWallMs * speed);
      budget = pacedBudgetMs;
    }
    this.owedWallMs = 0;
    const limit = this.limit();
    if (sim.now() >= limit) return; // waiting at the guide's stop: the lesson pauses the loop
    const run = this.advance(sim, Math.min(target, limit), budget);
    this.busy = run;
    void run.then(() => {
      if (this.busy === run) this.busy = null;
    });
  };

  /**
   * Speed max: slices of engine work back to back, yielding to the page between them (input and
   * frames go first), instead of one slice per animation frame — waiting for the next frame left
   * the training workers idle, and a run took five times as long as without the UI.
   */
  private pump(sim: Run): void {
    const run = (async () => {
      while (this.sim === sim && !this.follow && get().status === 'running' && get().speed === 'max' && !(this.guide && get().cursor !== null)) {
        const runs = this.runs(sim);
        if (runs.every((r) => r.done)) break;
        const limit = this.limit();
        if (sim.now() >= limit) break; // waiting at the guide's stop
        await this.advance(sim, Math.min(Math.max(...runs.map((r) => r.durationMs)), limit), maxBudgetMs);
        await yieldToPage();
        // A click or key was handled there: the next frame shows its answer before more engine
        // work, which would otherwise run between the two.
        if (takeInput()) await nextFrame();
      }
    })();
    this.busy = run;
    void run.then(() => {
      if (this.busy === run) this.busy = null;
    });
  }

  /** Never rejects: an engine error becomes the `error` status. */
  private async advance(sim: Run, target: number, budget: number): Promise<void> {
    try {
      // Companions (other variants) advance to where the shown run got, concurrently: they share
      // the worker pool, and each run's schedule is its own whatever the interleaving.
      await sim.advanceTo(target, { wallBudgetMs: budget, interrupt: inputPending });
      const others = this.runs(sim).slice(1);
      const to = sim.done ? target : Math.min(target, sim.now());
      if (others.length > 0) await Promise.all(others.map((r) => r.advanceTo(to, { wallBudgetMs: budget, interrupt: inputPending })));
      for (const r of others) if (r.failure) throw new Error(r.failure);
      this.after(sim);
    } catch (e) {
      this.fail(sim, e);
    }
  }

  /** After every advance: publish progress, status, and any newly failed node. */
  private after(sim: Run): void {
    if (this.sim !== sim) return;
    const lang = get().lang;
    for (const n of sim.nodes()) {
      if (n.failed) reportError(s(lang, 'workerFailed', { node: n.id, cause: n.failed }), undefined, `failed:${n.id}`);
    }
    // In thousandths: the bar is a few hundred pixels wide, and an unchanged value re-renders nothing.
    const progress = sim.durationMs > 0 ? Math.round((sim.now() / sim.durationMs) * 1000) / 1000 : 1;
    // `&at=`: the cursor goes to the shared moment once the run has reached it (CONTRACTS §5).
    const at = get().pendingAt;
    if (at !== null && (sim.now() >= at || sim.done)) set({ cursor: Math.min(at, sim.now()), pendingAt: null });
    if (sim.failure) {
      this.stopLoop();
      reportError(s(lang, 'engineFailed', { cause: sim.failure }), undefined, `engine:${sim.failure}`);
      set({ status: 'error', progress });
    } else if (this.runs(sim).every((r) => r.done)) {
      this.stopLoop();
      set({ status: 'done', progress: 1 });
    } else set({ progress });
    this.publish();
  }

  private lastPublish = -Infinity;
  private publishTimer: ReturnType<typeof setTimeout> | null = null;

  /**
   * A new frame for the views. At speed max, at most every MAX_SPEED_FRAME_MS (a trailing timer
   * shows the last state): the run is a blur there anyway, and on two cores every redraw is CPU
   * the training workers do not get. Otherwise (and when the run stops) at once.
   */
  private publish(): void {
    const gap = get().speed === 'max' && get().status === 'running' && !this.follow ? MAX_SPEED_FRAME_MS : 0;
    const now = performance.now();
    if (now - this.lastPublish >= gap) {
      if (this.publishTimer !== null) clearTimeout(this.publishTimer);
      this.publishTimer = null;
      this.lastPublish = now;
      bumpFrame();
    } else
      this.publishTimer ??= setTimeout(() => {
        this.publishTimer = null;
        this.lastPublish = performance.now();
        bumpFrame();
      }, gap - (now - this.lastPublish));
  }

  private fail(sim: Run, e: unknown): void {
    if (this.sim !== sim) return;
    this.stopLoop();
    const cause = e instanceof Error ? e.message : String(e);
    reportError(s(get().lang, 'engineFailed', { cause }), undefined, `engine:${cause}`);
    set({ status: 'error' });
    bumpFrame();
  }
}

/**
 * Is a click, tap or key waiting (Chromium's `navigator.scheduling.isInputPending`)? An engine slice
 * ends there, between two instants, instead of at its wall budget: at speed max, slices run back to
 * back, and a click that waited out a slice, then its answer another slice before the next frame,
 * took up to 100 ms to show. Where the browser lacks it, the budget alone bounds a slice.
 */
const inputPending: (() => boolean) | undefined = (() => {
  const scheduling = (globalThis.navigator as { scheduling?: { isInputPending?: () => boolean } } | undefined)?.scheduling;
  return scheduling?.isInputPending ? () => scheduling.isInputPending!() : undefined;
})();

/** Whether a click, tap or key has been handled since the last call (capture listeners: before any handler). */
let inputSeen = false;
if (typeof window !== 'undefined') for (const type of ['pointerdown', 'pointerup', 'keydown'] as const) window.addEventListener(type, () => void (inputSeen = true), { capture: true, passive: true });
function takeInput(): boolean {
  const seen = inputSeen;
  inputSeen = false;
  return seen;
}

/** Resolves in a task after the next frame has been drawn. */
function nextFrame(): Promise<void> {
  return new Promise((resolve) => requestAnimationFrame(() => void yieldToPage().then(resolve)));
}

/**
 * Resolves in a new task, after what the page has queued (input, a frame): a MessageChannel
 * message, because nested setTimeout(0) is clamped to 4 ms.
 */
const yieldQueue: Array<() => void> = [];
let yieldChannel: MessageChannel | null = null;
function yieldToPage(): Promise<void> {
  if (!yieldChannel) {
    yieldChannel = new MessageChannel();
    yieldChannel.port1.onmessage = () => yieldQueue.shift()?.();
  }
  const ch = yieldChannel;
  return new Promise((resolve) => {
    yieldQueue.push(resolve);
    ch.port2.postMessage(null);
  });
}

/** The one driver of the page. */
export const driver = new Driver();
