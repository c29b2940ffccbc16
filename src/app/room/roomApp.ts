import type { Scenario } from '../../scenario/schema';
import { parseUrlParams } from '../../scenario/url';
import type { Action } from '../../sim/types';
import { openInbox, openRoomDoc, type OpenDoc, type RoomLink } from '../../room/connect';
import { watchLobby } from '../../room/lobby';
import { readRoom, type RoomView } from '../../room/doc';
import { roomRunFile } from '../../room/export';
import { RoomFollower, type RoomDevice } from '../../room/follower';
import { CLIENT_ID_PATTERN, CODE_PATTERN, newClientId, publicIdOf } from '../../room/names';
import { studentRefusal } from '../../room/rules';
import { StudentInbox } from '../../room/student';
import { TeacherRoom } from '../../room/teacher';
import { describeAction } from '../../scenario/describeAction';
import { setActionRouter } from '../act';
import { driver } from '../driver';
import { boot, browserLang, loadBuiltinList, loadBuiltinTitles, loadScenario } from '../load';
import { bumpFrame, get, reportError, set, setNotice, useApp } from '../store';
import { getRoom, setRoom, type RoomRole } from './roomStore';
import { refusalText } from './refusalText';
import { rs } from './strings';
import { loadLangOrSay } from '../langLoad';

/**
 * The page's side of a live room (issue 10): connects to the room server, turns the room
 * document into this page's run — every device builds the lesson's Simulation and schedules the
 * log's actions (src/room/follower.ts) — and routes the user's actions to the room instead of the
 * local simulation. The teacher's page also orders: it runs the TeacherRoom over every student's
 * inbox and publishes its clock; a student's page follows that clock and never runs past it.
 * Loaded only when the URL names a room.
 */

const wall = (): number => performance.now();
const log = (line: string): void => console.warn(line);
/** The room run's nodes (this page runs it), against which an invalid action's problems are worded. */
const runNodes = (): string[] => get().sim?.nodes().map((n) => n.id) ?? [];

/** Scenarios this module asked the app to load: a sim built from anything else is the user's doing. */
const roomLoads = new Set<Scenario>();

const device: RoomDevice = {
  async load(sc) {
    const copy = structuredClone(sc);
    roomLoads.add(copy);
    const ok = await loadScenario(copy, { variantChoice: null }); // the room picks the run, not a variant menu
    roomLoads.delete(copy);
    return ok && get().scenario === copy;
  },
  async schedule(e) {
    const sim = get().sim;
    if (!sim) return 'no simulation';
    const r = await sim.apply(e.action, e.at);
    if (!r.ok) return r.error;
    bumpFrame(true);
    return null;
  },
};

function problem(text: string): void {
  setRoom({ problem: text });
  reportError(text);
}

/** This browser's secret client id for rooms: reloading or rejoining keeps the same node. */
function clientId(): string {
  const k = 'cap-room-client';
  const stored = localStorage.getItem(k);
  if (stored && CLIENT_ID_PATTERN.test(stored)) return stored;
  const fresh = newClientId((n) => crypto.getRandomValues(new Uint8Array(n)));
  localStorage.setItem(k, fresh);
  return fresh;
}

function showView(v: RoomView, extra: Partial<Parameters<typeof setRoom>[0]> = {}): void {
  const pub = getRoom().pub;
  setRoom({
    run: v.run,
    members: v.members,
    locked: v.locked,
    entries: v.entries,
    refused: v.refused,
    myNode: pub ? (v.members.find((m) => m.pub === pub)?.node ?? null) : null,
    ...extra,
  });
}

function download(name: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'application/json' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

export async function bootRoom(p: { code: string; role: RoomRole; key: string | null }): Promise<void> {
  setRoom({ role: p.role, code: p.code });
  const u = parseUrlParams(location.search, location.hash, { lang: browserLang() });
  // main.tsx loaded this language's catalog before the first render: at once, unless it failed.
  const lang = await loadLangOrSay(u.lang);
  set({ lang, speed: u.speed, backend: u.backend });
  if (!CODE_PATTERN.test(p.code)) return problem(rs(lang, 'noRoom', { code: p.code.slice(0, 12) }));
  let info: { joinUrl: string; teacher: boolean };
  try {
    const r = await fetch(`/api/room/${p.code}${p.key ? `?key=${encodeURIComponent(p.key)}` : ''}`);
    if (r.status === 404) return problem(rs(lang, 'noRoom', { code: p.code }));
    if (!r.ok) throw new Error(`HTTP ${r.status}`);
    info = (await r.json()) as { joinUrl: string; teacher: boolean };
  } catch (e) {
    return problem(rs(lang, 'serverGone', { cause: e instanceof Error ? e.message : String(e) }));
  }
  setRoom({ joinUrl: info.joinUrl });
  if (p.role === 'teacher') {
    if (!info.teacher || !p.key) return problem(rs(lang, 'badKey'));
    await startTeacher({ origin: location.origin, code: p.code, credentials: { role: 'teacher', key: p.key } });
  } else {
    const cid = clientId();
    setRoom({ pub: publicIdOf(cid) });
    await startStudent({ origin: location.origin, code: p.code, credentials: { role: 'student', cid } });
  }
}

function trackConnection(doc: OpenDoc): void {
  doc.provider.on('status', ({ status }: { status: string }) => setRoom({ connected: status === 'connected' }));
  // The server refuses a connection with a 44xx code and its reason in English (its log's words):
  // a wrong teacher key in the page's language, anything else quoted inside a sentence of it.
  doc.provider.on('closed', ({ code, reason }: { code: number; reason: string }) => {
    const lang = get().lang;
    problem(code === 4403 && reason.startsWith('key:') ? rs(lang, 'badKey') : rs(lang, 'closedByServer', { code: String(code), reason }));
  });
}

// ---------------------------------------------------------------- the teacher's page

async function startTeacher(link: RoomLink): Promise<void> {
  const room = openRoomDoc(link, { role: 'teacher' });
  trackConnection(room);
  await room.synced;
  const teacher = new TeacherRoom({ doc: room.doc, now: () => get().sim?.now() ?? 0, wall, log });
  const follower = new RoomFollower(room.doc, device, { wall, log, onView: (v) => showView(v) });
  let catchingUp = false;

  useApp.subscribe((st, prev) => {
    // A new run, not a switch between a run's branches (a room's run never forks, but be sure).
    if (st.sim && st.sim !== prev.sim && st.scenario && !prev.branches.some((b) => b.sim === st.sim)) {
      if (!roomLoads.has(st.scenario)) {
        // The teacher chose a lesson, restarted (◀◀) or edited it: a new run for everyone.
        const run = follower.view.run + 1;
        follower.adopt(run);
        teacher.newRun(st.scenario, { running: st.status === 'running', speed: st.speed });
      } else if ((follower.view.clock?.now ?? 0) > 0 || follower.view.clock?.running) {
        // The teacher's page reloaded: replay the run up to where the room is, then go on.
        catchingUp = true;
        driver.setFollow(() => follower.view.clock?.now ?? 0);
      }
    }
    const sim = st.sim;
    if (!sim) return;
    if (catchingUp) {
      const clock = follower.view.clock;
      if (sim.done || !clock || sim.now() >= clock.now) {
        catchingUp = false;
        driver.setFollow(null);
        if (clock?.running && !sim.done) driver.play();
        else if (!sim.done && sim.now() > 0) set({ status: 'paused' });
      }
      return;
    }
    if (st.frame !== prev.frame || st.status !== prev.status || st.speed !== prev.speed) {
      teacher.tick({ now: sim.now(), running: st.status === 'running', speed: st.speed });
    }
  });

  setActionRouter((action: Action) => {
    const r = teacher.act(action);
    if (!r.ok) reportError(rs(get().lang, 'cannotAct', { reason: refusalText(r.reason, get().lang, runNodes()) }));
    return r.ok;
  });
  setRoom({
    teacherOnline: true,
    controls: {
      setLocked: (locked) => teacher.setLocked(locked),
      exportRun: () => {
        const v = follower.view;
        if (!v.scenario) return;
        const file = roomRunFile(v.scenario, v.entries);
        download(`${v.scenario.id}-room-${link.code}-run${v.run}.json`, `${JSON.stringify(file, null, 2)}\n`);
      },
      setName: () => null,
    },
  });
  watchLobby(link, teacher);

  follower.update();
  if (follower.view.scenario) void loadBuiltinTitles(await loadBuiltinList()); // the run is the room's: the follower loads it
  else {
    await boot(); // the first lesson: from the URL (?scenario=, #scenario=) or the default
    setRoom({ showJoin: true });
  }
}

// ---------------------------------------------------------------- a student's page

async function startStudent(link: RoomLink): Promise<void> {
  const pub = getRoom().pub!;
  // The run's settings are the room's (disabled on this page): on a phone their rows took 120 px
  // above the topology. Folded there; the ⚙ button shows them. The width is css/narrow.css's phone
  // breakpoint: keep the two together.
  if (matchMedia('(max-width: 600px)').matches) set({ showSettings: false });
  const inbox = openInbox(link, pub, true);
  const room = openRoomDoc(link);
  trackConnection(room);
  const student = new StudentInbox(inbox.doc);
  await inbox.synced;
  const nameKey = 'cap-room-name';
  const setName = (name: string): string | null => {
    const err = student.setName(name);
    if (err === null) {
      localStorage.setItem(nameKey, name.trim());
      setRoom({ needName: false });
    }
    return err;
  };
  const known = student.name() ?? localStorage.getItem(nameKey);
  if (known === null || setName(known) !== null) setRoom({ needName: true });
  setRoom({ controls: { setName, setLocked: () => undefined, exportRun: () => undefined } });

  const teacherPresent = (): boolean => [...room.provider.awareness.getStates().values()].some((st) => (st as { role?: unknown }).role === 'teacher');
  room.provider.awareness.on('change', () => setRoom({ teacherOnline: teacherPresent() }));

  await room.synced;
  // Answers from before this page loaded are old news.
  let answered = readRoom(room.doc).replies.get(pub)?.id ?? 0;
  let selectedOnce = false;
  const mirrorStatus = (): void => {
    const st = get();
    if (!st.sim || st.status === 'done' || st.status === 'error') return;
    const want = follower.running ? 'running' : 'paused';
    if (st.status !== want) set({ status: want });
    // The room's speed, for the (disabled) speed control: this device follows the teacher's clock.
    const speed = follower.view.clock?.speed;
    if (speed !== undefined && st.speed !== speed) set({ speed });
  };
  const onView = (v: RoomView): void => {
    showView(v, { teacherOnline: teacherPresent() });
    mirrorStatus();
    const reply = v.replies.get(pub);
    if (reply && reply.id > answered) {
      answered = reply.id;
      if (reply.ok) setNotice(null);
      else if (reply.reason) reportError(rs(get().lang, 'refusedBy', { reason: refusalText(reply.reason, get().lang, runNodes()) }));
    }
    const myNode = getRoom().myNode;
    if (myNode && !selectedOnce && get().sim) {
      selectedOnce = true;
      set({ selected: myNode, toolTab: 'node' });
    }
  };
  const follower = new RoomFollower(room.doc, device, { wall, log, onView });

  useApp.subscribe((st, prev) => {
    if (st.sim && st.sim !== prev.sim && st.scenario && !roomLoads.has(st.scenario)) {
      // Only the room chooses a student's run; anything else is put back.
      log('room: this page loaded a scenario of its own; going back to the room’s run');
      follower.adopt(0);
      follower.update();
    }
    if (st.status !== prev.status) mirrorStatus();
  });

  setActionRouter((action: Action) => {
    const lang = get().lang;
    const v = follower.view;
    const me = v.members.find((m) => m.pub === pub);
    const reason = !me ? ({ code: 'notMember' } as const) : v.locked ? ({ code: 'locked' } as const) : studentRefusal(action, me.node);
    if (reason) {
      reportError(rs(lang, 'cannotAct', { reason: refusalText(reason, lang, runNodes()) }));
      return false;
    }
    student.request(action, v.run, get().sim?.now() ?? 0);
    setNotice(rs(lang, 'sent', { action: describeAction(action, lang) }));
    return true;
  });

  follower.update();
  driver.setFollow(() => follower.target());
  void loadBuiltinList().then(loadBuiltinTitles);
}
