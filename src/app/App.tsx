import { lazy, Suspense, useEffect, useMemo, useState, type CSSProperties, type ReactNode } from 'react';
import type { Action } from '../sim/types';
import { act, parseSelection } from './act';
import { ActionTools } from './components/ActionTools';
import { branchBar } from './components/branchBarLoad';
import { contextMenu, openContextMenu } from './components/contextMenuOpen';
import { shareDialog } from './components/shareDialogLoad';
import { ErrorPanel } from './components/ErrorPanel';
import { ChecksPanel } from './components/ChecksPanel';
import { ExplainLine } from './components/ExplainLine';
import { MetricsStrip } from './components/MetricsStrip';
import { MaxProgress } from './components/RunControls';
import { StrategyControls } from './components/StrategyControls';
import { TopBar } from './components/TopBar';
import { ViewBoundary } from './components/ViewBoundary';
import { lineageMarks } from './branchMarks';
import { rs } from './i18n/runStrings';
import { s } from './i18n/strings';
import { useShortcuts } from './keys';
import { boot, followHashChanges } from './load';
import { secondsNumber } from './format';
import { frameSource, get, set, useApp } from './store';
import { LossCharts } from './views/LossCharts';
import { ReplicaBoundaries } from './views/ReplicaBoundaries';
import { imageDataset } from './views/fashionTileLoad';
import { serverStates } from './views/serverStatesLoad';
import { indexOf, staticOf } from './views/runView';
import { showServers } from './views/serverModel';
import { timeDomain } from './views/timelineModel';
import { TopologyView } from './views/TopologyView';
import { VersionTimeline } from './views/VersionTimeline';
import { useLesson } from './lesson/store';
import { Doors } from './lesson/ui/Doors';
import './lesson/ui/lesson.css';
import { roomParamsFrom } from './room/roomStore';

// Live room (src/app/room): loaded only when the URL names a room, so pages outside one never
// download Yjs.
const roomParams = typeof location !== 'undefined' ? roomParamsFrom(location.search) : null;
const RoomUi = lazy(() => import('./room/RoomUi'));

// Guided mode's panels and the lesson index: loaded when a lesson opens or the index does, so the
// first paint of free play does not wait for them.
const LessonPanel = lazy(() => import('./lesson/ui/LessonPanel').then((m) => ({ default: m.LessonPanel })));
const BackToLesson = lazy(() => import('./lesson/ui/LessonPanel').then((m) => ({ default: m.BackToLesson })));
const VariantPanels = lazy(() => import('./lesson/ui/VariantPanels').then((m) => ({ default: m.VariantPanels })));
const FocusStyle = lazy(() => import('./lesson/ui/FocusStyle').then((m) => ({ default: m.FocusStyle })));
const LessonIndex = lazy(() => import('./lesson/ui/LessonIndex').then((m) => ({ default: m.LessonIndex })));

/** Page-level settings that live outside React's tree: <html lang>, theme, presenter size, motion. */
function useDocumentSettings(): void {
  const lang = useApp((st) => st.lang);
  const theme = useApp((st) => st.theme);
  const presenter = useApp((st) => st.presenter);
  useEffect(() => {
    document.documentElement.lang = lang === 'zh' ? 'zh-CN' : 'en';
    document.title = s(lang, 'appTitle');
  }, [lang]);
  useEffect(() => {
    document.documentElement.dataset.theme = theme;
  }, [theme]);
  useEffect(() => {
    document.documentElement.classList.toggle('presenter', presenter);
  }, [presenter]);
  useEffect(() => {
    const motion = matchMedia('(prefers-reduced-motion: reduce)');
    const update = (): void => set({ reducedMotion: motion.matches });
    update();
    motion.addEventListener('change', update);
    return () => motion.removeEventListener('change', update);
  }, []);
}

/**
 * Bottom of the right column: the replicas' decision boundaries, or — when the strategy has
 * consensus servers or brokers (Raft, Kafka) — the servers panel, with a switch between the two.
 * Servers win by default there: under a strong strategy the replicas look alike, and the story
 * (who leads, which term, what is committed) is in the logs. The panel keeps its full width,
 * which the aligned log columns need.
 */
function BottomRight() {
  const lang = useApp((st) => st.lang);
  // Logs, terms and boundaries change at events, not continuously: ten times a second is enough.
  const { sim, t, frame } = useRunFrame('panel');
  const [pick, setPick] = useState<'servers' | 'replicas'>('servers');
  const servers = sim ? showServers(indexOf(sim)) : false;
  const view = servers ? pick : 'replicas';
  return (
    <section className="view view-replicas" aria-label={s(lang, view === 'servers' ? 'serversTitle' : 'replicas')}>
      {sim && servers && (
        <div className="view-switch" role="group">
          {(['servers', 'replicas'] as const).map((v) => (
            <button key={v} type="button" aria-pressed={view === v} onClick={() => setPick(v)} data-testid={`show-${v}`}>
              {s(lang, v === 'servers' ? (sim.scenario.strategy.kind === 'kafka-ps' ? 'brokersTab' : 'serversTab') : 'replicasTab')}
            </button>
          ))}
        </div>
      )}
      {sim && view === 'servers' && (
        <ViewBoundary name={s(lang, 'serversTitle')}>
          <serverStates.Part sim={sim} t={t} frame={frame} lang={lang} />
        </ViewBoundary>
      )}
      {sim && view === 'replicas' && (
        <ViewBoundary name={s(lang, 'replicas')}>
          <ReplicaBoundaries sim={sim} t={t} frame={frame} lang={lang} />
        </ViewBoundary>
      )}
    </section>
  );
}

/**
 * The run, the time the views show (the cursor, or now when following the run) and the frame
 * counter, for components that re-render with the run (the topology and the timeline draw from
 * `engineFrames` instead). `panel`: at most ten times a second while running (store.panelFrame)
 * — for what is read, not watched moving; `frame`: every engine frame (the scrub banner).
 */
function useRunFrame(rate: 'frame' | 'panel' = 'frame'): { sim: ReturnType<typeof get>['sim']; t: number; frame: number } {
  const sim = useApp((st) => st.sim);
  const frame = useApp((st) => (rate === 'frame' ? st.frame : st.panelFrame));
  const cursor = useApp((st) => st.cursor);
  return { sim, t: cursor ?? (sim ? sim.now() : 0), frame };
}

/** Renders `children(t)` with the view time, re-rendered as panels are (store.panelFrame). */
function AtT({ children }: { children: (t: number, frame: number) => ReactNode }) {
  const { t, frame } = useRunFrame('panel');
  return children(t, frame);
}

/** Engine frames for the animated views, at the cursor or the run's now. */
const engineFrames = frameSource(() => {
  const st = get();
  return st.cursor ?? (st.sim ? st.sim.now() : 0);
});

function Topology() {
  const lang = useApp((st) => st.lang);
  const loading = useApp((st) => st.loading);
  const selected = useApp((st) => st.selected);
  const sim = useApp((st) => st.sim);
  // A scrub redraws through the frame source's time; the cursor re-renders for the draw's deps.
  const cursor = useApp((st) => st.cursor);
  return sim ? (
    <ViewBoundary name={s(lang, 'topology')}>
      <TopologyView sim={sim} t={cursor ?? undefined} frames={engineFrames} lang={lang} selected={selected} onSelect={onSelect} onAction={onAction} />
    </ViewBoundary>
  ) : (
    <div className="placeholder">{s(lang, loading ? 'starting' : 'loading')}</div>
  );
}

function Timeline() {
  const lang = useApp((st) => st.lang);
  const sim = useApp((st) => st.sim);
  const cursor = useApp((st) => st.cursor);
  const branches = useApp((st) => st.branches);
  const branchId = useApp((st) => st.branchId);
  const marks = useMemo(() => lineageMarks(branches, branchId, (n) => `${rs(lang, 'branchMark')} ← ${rs(lang, 'branchLabel', { n })}`), [branches, branchId, lang]);
  return sim ? (
    <ViewBoundary name={s(lang, 'timeline')}>
      <VersionTimeline sim={sim} frames={engineFrames} lang={lang} cursor={cursor} onScrub={onScrub} marks={marks} />
    </ViewBoundary>
  ) : null;
}

function Charts() {
  const lang = useApp((st) => st.lang);
  // Charts draw engine samples (one per sample period): ten times a second is enough.
  const { sim, t, frame } = useRunFrame('panel');
  return sim ? (
    <ViewBoundary name={s(lang, 'charts')}>
      <LossCharts sim={sim} t={t} frame={frame} lang={lang} />
    </ViewBoundary>
  ) : null;
}

let booted = false;

function onSelect(id: string | null): void {
  const sel = parseSelection(id);
  set(sel === null ? { selected: null } : { selected: id, toolTab: 'node' in sel ? 'node' : 'links' });
}

function onAction(a: Action): void {
  act(a);
}

/** A press in the topology may be a right-click: its menu loads on demand, so start now. */
function preloadMenu(): void {
  contextMenu.preload().catch(() => undefined); // a failure shows when the menu opens
}

function onScrub(t: number | null): void {
  set({ cursor: t });
}

/**
 * The run's views in two columns: topology, tools and checks on the left; timeline, charts and
 * the servers or replicas on the right — the whole screen in free play, the stage of a lesson's
 * "all views".
 */
function RunViews({ guided }: { guided: boolean }) {
  const lang = useApp((st) => st.lang);
  const sim = useApp((st) => st.sim);
  const cursor = useApp((st) => st.cursor);
  return (
    <>
      <div className="col-left">
        {/* Right-click a node or a link: its actions, from the action table. */}
        <section className="view view-topology" aria-label={s(lang, 'topology')} onPointerDown={preloadMenu} onContextMenu={openContextMenu}>
          <Topology />
        </section>
        {/* One block of fixed height: when the tools panel grows with the selection, the checks
            give it the room, so the topology (the node just clicked) does not move. */}
        <div className="tools-and-checks">
          <ActionTools />
          <AtT>{(t) => <ChecksPanel t={t} onScrub={onScrub} />}</AtT>
        </div>
      </div>
      {/* The timeline gets at least ~1.25 rem a lane (Raft: 4 workers + 5 servers), the servers
          panel a row per server, image tiles their ten classes at the smallest type. */}
      <div
        className="col-right"
        style={{ '--lanes': sim ? staticOf(sim).nodes.length : 4, '--servers': sim && showServers(indexOf(sim)) ? staticOf(sim).nodes.filter((n) => n.role !== 'worker').length : 0, '--image-tiles': sim && imageDataset(sim.scenario) ? 1 : 0 } as CSSProperties}
      >
        {/* In a lesson the cursor is the lesson's play-head: the step panel says where it is. */}
        {cursor !== null && !guided && <ScrubBanner cursor={cursor} />}
        <section className="view view-timeline" aria-label={s(lang, 'timeline')}>
          <Timeline />
        </section>
        <section className="view view-charts" aria-label={s(lang, 'charts')}>
          <Charts />
        </section>
        <BottomRight />
      </div>
    </>
  );
}

/**
 * At the end of the timeline away from the cursor, so the cursor and its time label stay in view:
 * right of the lane labels, or left of the "live" button. Follows frames (the window moves with now).
 */
function ScrubBanner({ cursor }: { cursor: number }) {
  const lang = useApp((st) => st.lang);
  const { sim } = useRunFrame();
  return (
    <div className={`scrub-banner ${sim && scrubFraction(cursor, sim) >= 0.47 ? 'at-left' : 'at-right'}`} role="status">
      <span>{s(lang, 'scrubbed', { t: secondsNumber(cursor) })}</span>
      <button type="button" onClick={() => set({ cursor: null })}>
        {s(lang, 'now')}
      </button>
    </div>
  );
}

export function App() {
  useDocumentSettings();
  useShortcuts();
  useEffect(() => {
    // StrictMode mounts twice in development; the page boots once.
    if (booted) return;
    booted = true;
    if (roomParams) void import('./room/roomApp').then((m) => m.bootRoom(roomParams));
    else void boot();
  }, []);
  useEffect(() => followHashChanges(), []);
  const showSettings = useApp((st) => st.showSettings);
  const shareOpen = useApp((st) => st.shareOpen);
  const menuOpen = useApp((st) => st.menu !== null);
  const lesson = useLesson((st) => st.lesson);
  const mode = useLesson((st) => st.mode);
  const stage = useLesson((st) => st.stage);
  const guided = lesson !== null && mode === 'guided';
  const backToLesson =
    lesson !== null && mode === 'free' ? (
      <Suspense fallback={null}>
        <BackToLesson />
      </Suspense>
    ) : null;
  const indexOpen = useApp((st) => st.indexOpen);
  // The branch bar (and the forking code) load with the first fork.
  const forked = useApp((st) => st.forking !== null || st.branches.length > 1);

  return (
    <div className={`app${guided ? ' guided' : ''}`}>
      <header className="topbar">
        <TopBar />
        {showSettings && !guided && (
          <div className="bar-row" id="settings-row">
            <StrategyControls />
          </div>
        )}
        {forked && <branchBar.Part />}
        {roomParams && (
          <Suspense fallback={null}>
            <RoomUi />
          </Suspense>
        )}
        <MaxProgress />
      </header>
      {shareOpen && <shareDialog.Part />}
      <ErrorPanel />
      {/* Once loaded it stays mounted: closing it gives the focus back to its opener. */}
      {(menuOpen || contextMenu.ready()) && <contextMenu.Part />}
      {guided ? (
        <main className="main lesson-main">
          <Suspense fallback={null}>
            <div className={`lesson-stage ${stage}`}>{stage === 'multiples' ? <VariantPanels /> : <RunViews guided />}</div>
            <LessonPanel />
            <FocusStyle />
          </Suspense>
        </main>
      ) : (
        <main className="main">
          <RunViews guided={false} />
        </main>
      )}
      {(!guided || stage === 'single') && <AtT>{(t) => <MetricsStrip t={t} />}</AtT>}
      {(!guided || stage === 'single') && <AtT>{(t) => <ExplainLine t={t} end={backToLesson} />}</AtT>}
      <Doors />
      {indexOpen && (
        <Suspense fallback={null}>
          <LessonIndex />
        </Suspense>
      )}
    </div>
  );
}

/** Where the cursor sits along the timeline's time axis (0 left … 1 right). */
function scrubFraction(cursor: number, sim: { now(): number; durationMs: number }): number {
  const [t0, t1] = timeDomain(sim.now(), sim.durationMs);
  return t1 > t0 ? (cursor - t0) / (t1 - t0) : 0.5;
}
