import type * as Y from 'yjs';
import type { Scenario } from '../scenario/schema';
import { readRoom, type LogEntry, type RoomView } from './doc';
import { followTarget, type RoomClock } from './rules';

/**
 * Every device in a room — the teacher's too — runs the same deterministic simulation from the
 * room document: the run's scenario, then the log's actions, each scheduled at its time. A device
 * that joins late or reloads builds the run from the start and schedules the whole log, then
 * catches up; one that ever finds an action in its past (it should not: it never runs beyond the
 * published horizon) logs why and replays the run from the start. No rollback, no state transfer.
 */

/** What the follower needs from a device: build a run, tell the time, schedule an action. */
export interface RoomDevice {
  /** Builds a fresh simulation of `scenario`; resolves true once it is the device's current one. */
  load(scenario: Scenario, run: number): Promise<boolean>;
  /**
   * Schedules an accepted action at its time; resolves to the reason if the simulation refused it.
   * Entries are asked in order and must be taken in that order (the engine's worker serves a run's
   * requests one at a time), before any later advance of the run.
   */
  schedule(entry: LogEntry): Promise<string | null>;
}

export interface FollowerDeps {
  wall: () => number;
  log: (line: string) => void;
  /** Called after every change of the room document, with what was read. */
  onView?: (view: RoomView) => void;
}

export class RoomFollower {
  view: RoomView;
  private loadedRun = 0;
  private loading: number | null = null;
  /** How many of the run's entries the device has scheduled. */
  private scheduled = 0;
  /** Counts the runs the device has taken: a refusal of an older one's entry changes nothing. */
  private generation = 0;
  private clock: RoomClock | null = null;
  private clockAt = 0;
  private readonly logged = new Set<string>();
  private readonly onUpdate = (): void => this.update();

  constructor(
    private readonly doc: Y.Doc,
    private readonly device: RoomDevice,
    private readonly deps: FollowerDeps,
  ) {
    this.view = readRoom(doc);
    doc.on('update', this.onUpdate);
  }

  destroy(): void {
    this.doc.off('update', this.onUpdate);
  }

  /** The run the device has loaded (0: none yet). */
  get run(): number {
    return this.loadedRun;
  }

  /**
   * The device built run `run` itself (the teacher's page, which creates runs): take it as loaded
   * with nothing scheduled yet, instead of building it again.
   */
  adopt(run: number): void {
    this.loadedRun = run;
    this.loading = null;
    this.scheduled = 0;
    this.generation++;
  }

  /** Re-reads the document: new run → build it; new entries → schedule them. */
  update(): void {
    const v = readRoom(this.doc);
    this.view = v;
    for (const p of v.problems) this.logOnce(`room: ignored a bad value in the room document: ${p}`);
    if (!sameClock(v.clock, this.clock)) {
      this.clock = v.clock;
      this.clockAt = this.deps.wall();
    }
    if (v.scenario && v.run !== this.loadedRun && v.run !== this.loading) this.load(v.scenario, v.run);
    else if (v.run === this.loadedRun) this.scheduleNew();
    this.deps.onView?.(v);
  }

  private load(scenario: Scenario, run: number): void {
    this.loading = run;
    void this.device.load(scenario, run).then((ok) => {
      if (this.loading !== run) return; // a newer run arrived meanwhile
      this.loading = null;
      if (!ok) return;
      this.loadedRun = run;
      this.scheduled = 0;
      this.generation++;
      this.scheduleNew();
      this.deps.onView?.(this.view);
    });
  }

  private scheduleNew(): void {
    const entries = this.view.entries;
    const generation = this.generation;
    while (this.scheduled < entries.length) {
      const e = entries[this.scheduled++];
      void this.device.schedule(e).then((refused) => {
        // The first refusal of this run's entries replays it; later answers about it change nothing.
        if (refused === null || generation !== this.generation) return;
        this.generation++;
        this.deps.log(`room: action ${e.seq} (at ${e.at} ms) could not be scheduled (${refused}); replaying the run from the start`);
        this.loadedRun = 0;
        if (this.view.scenario) this.load(this.view.scenario, this.view.run);
      });
    }
  }

  /** Where this device should be now (simulated ms): the teacher's clock, never past its horizon. */
  target(): number {
    return this.clock ? followTarget(this.clock, this.clockAt, this.deps.wall()) : 0;
  }

  /** Whether the teacher's clock says the run is playing. */
  get running(): boolean {
    return this.clock?.running ?? false;
  }

  private logOnce(line: string): void {
    if (this.logged.has(line)) return;
    this.logged.add(line);
    this.deps.log(line);
  }
}

function sameClock(a: RoomClock | null, b: RoomClock | null): boolean {
  if (a === null || b === null) return a === b;
  return a.run === b.run && a.now === b.now && a.horizon === b.horizon && a.running === b.running && a.speed === b.speed;
}
