import type { Note, NoteData, NoteName } from '../../protocols/notes';
import type { Lang } from '../i18n/lang';
import { notesEn } from './noteWords.en';
import { loadOnce } from '../../protocols/loadOnce';
import { wordsIn } from './tables';

/**
 * The strategies' typed notes (CURRICULUM §C.6) in words: timeline labels and tooltips. The
 * sentences are per language (NoteTable): English's in the first load but the consensus
 * protocols' (loaded with a run that has one), the others' in their language's chunk (tables.ts).
 * `who` is the node the note is about ('' for cluster-wide notes).
 */

/**
 * Whose election notes these are: Paxos reuses Raft's notes with a ballot for the term, ZooKeeper's
 * Zab with an epoch (its leader's epoch) — the words follow the protocol.
 */
export type Voice = 'raft' | 'paxos' | 'zab';
export type Coord = 'etcd' | 'zookeeper';
type Say<K extends NoteName> = (d: NoteData[K], who: string, voice: Voice, coord: Coord | undefined) => string;
/**
 * Every note in one language's words (noteWords.en.ts, noteWords.zh.ts): one entry per note name,
 * so a note added to facts.ts does not compile until each language can say it.
 */
export type NoteTable = { [K in NoteName]: Say<K> };

/** The consensus protocols' notes (Raft, Kafka, the coordination service, 2PC, Multi-Paxos): English loads them with a run that has one. */
export const consensusNoteNames = [
  'electionStarted', 'leaderElected', 'leaderStepDown', 'commit', 'entryOverwritten', 'snapshotTaken', 'snapshotInstalled', 'updateAbandoned', 'staleRead', 'timeoutIgnored',
  'brokerFenced', 'isrShrink', 'isrExpand', 'partitionOffline', 'uncleanElection', 'notEnoughReplicas', 'truncate', 'offlinePartition', 'produceError', 'offsetOutOfRange', 'consumerCaughtUp',
  'paramsRead', 'requestTooLarge', 'lockAcquired', 'lockReleased', 'leaseExpired', 'sessionLost', 'metaWritten', 'metaRead', 'coordFailover',
  '2pc.prepareSent', '2pc.inDoubt', '2pc.decided', '2pc.resolved', 'paxos.recovered',
] as const satisfies readonly NoteName[];
export type ConsensusNote = (typeof consensusNoteNames)[number];
export type ConsensusNotes = Pick<NoteTable, ConsensusNote>;
export type CoreNotes = Omit<NoteTable, ConsensusNote>;

const consensusEn = loadOnce((_: 'consensus') => import('./noteWords.consensus.en').then((m) => m.consensusNotesEn));
const consensusKinds: ReadonlySet<string> = new Set(['raft-ps', 'kafka-ps', 'paxos-ps', '2pc-ps']);

/**
 * Loads the English words of the consensus notes (once) where the run has a consensus protocol: its
 * strategy, or a coordination service. Started with the run's explanation (load.ts), so they are
 * there when it is shown; another language has all its notes in its chunk.
 */
export function loadNoteWords(run: NoteRun): Promise<void> {
  return consensusKinds.has(run.strategy.kind) || run.coordination ? consensusEn.load('consensus') : Promise.resolve();
}

let english: Partial<NoteTable> = notesEn;

function englishNotes(): Partial<NoteTable> {
  if (english === notesEn) {
    const more = consensusEn.get('consensus');
    if (more) english = { ...notesEn, ...more };
  }
  return english;
}
/** The integrity checks a tamper or replay note names. */
export type CheckKind = NoteData['replayRejected']['check'];

/** The run a note comes from: its strategy (Paxos words its election notes in ballots) and coordination service. */
export interface NoteRun {
  strategy: { kind: string };
  coordination?: { service: 'etcd' | 'zookeeper' };
}

/**
 * A note in words. A note of a coordination server (c0…; CURRICULUM §C.1) speaks its service's
 * protocol (ZooKeeper: Zab epochs; etcd: Raft terms); any other speaks the strategy's.
 */
export function noteText(n: Note | { what: NoteName; node?: string; data: unknown }, lang: Lang, run?: NoteRun): string {
  const f = wordsIn<Partial<NoteTable>>(lang, englishNotes(), (t) => t.notes)[n.what] as Say<NoteName> | undefined;
  if (!f) {
    // A consensus note before its words arrived (a run shown without load.ts's explainReady): its
    // name now, its words from the next frame on.
    consensusEn.load('consensus').catch(() => undefined);
    return n.node ? `${n.node}: ${n.what}` : n.what;
  }
  const coordNode = n.node !== undefined && /^c\d+$/.test(n.node) && run?.coordination !== undefined;
  const voice: Voice = coordNode ? (run!.coordination!.service === 'zookeeper' ? 'zab' : 'raft') : run?.strategy.kind === 'paxos-ps' ? 'paxos' : 'raft';
  return f(n.data as never, n.node ?? '', voice, run?.coordination?.service);
}

/**
 * Notes worth a mark on the version timeline: the turning points a teacher scrubs to. Frequent
 * per-update notes (apply, commit, sspBlocked …) would bury them.
 */
export const timelineNotes: ReadonlySet<NoteName> = new Set<NoteName>([
  'electionStarted',
  'leaderElected',
  'leaderStepDown',
  'entryOverwritten',
  'staleRead',
  'isrShrink',
  'isrExpand',
  'partitionOffline',
  'uncleanElection',
  'consumerCaughtUp',
  'partitionDetected',
  'modeSwitch',
  'merge',
  'mergeAborted',
  'staleWriteAccepted',
  'fenced',
  'epochGranted',
  'requestTooLarge',
  'lockAcquired',
  'leaseExpired',
  'sessionLost',
  'metaWritten',
  'resumed',
  '2pc.inDoubt',
  '2pc.resolved',
  'paxos.recovered',
  'targetReached',
]);
