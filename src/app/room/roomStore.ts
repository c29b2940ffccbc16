import { create } from 'zustand';
import type { LogEntry, Member, RefusalRecord } from '../../room/doc';

/**
 * What the page shows about its live room (none outside a room). Kept apart from the app's store
 * and free of Yjs, so the app's own components can ask "am I a student?" without loading the room.
 */

export type RoomRole = 'teacher' | 'student';

export interface RoomControls {
  setLocked(locked: boolean): void;
  exportRun(): void;
  setName(name: string): string | null;
}

export interface RoomState {
  role: RoomRole | null;
  code: string;
  /** This device's public id (students). */
  pub: string | null;
  joinUrl: string | null;
  connected: boolean;
  teacherOnline: boolean;
  run: number;
  members: Member[];
  myNode: string | null;
  locked: boolean;
  entries: LogEntry[];
  refused: RefusalRecord[];
  /** A student's name is asked for before she joins. */
  needName: boolean;
  /** The big join card (teacher). */
  showJoin: boolean;
  showActivity: boolean;
  /** A problem that stops the room (no such room, wrong key, server gone). */
  problem: string | null;
  controls: RoomControls | null;
}

export const useRoom = create<RoomState>()(() => ({
  role: null,
  code: '',
  pub: null,
  joinUrl: null,
  connected: false,
  teacherOnline: false,
  run: 0,
  members: [],
  myNode: null,
  locked: false,
  entries: [],
  refused: [],
  needName: false,
  showJoin: false,
  showActivity: false,
  problem: null,
  controls: null,
}));

export const setRoom = useRoom.setState;
export const getRoom = useRoom.getState;

/** True on a student's page: the room owns time, the lesson and the run controls there. */
export function useIsStudent(): boolean {
  return useRoom((st) => st.role === 'student');
}

/** `?room=CODE[&role=teacher&key=K]` (CONTRACTS §5 "Live room"); null outside a room. */
export function roomParamsFrom(search: string): { code: string; role: RoomRole; key: string | null } | null {
  const q = new URLSearchParams(search);
  const code = q.get('room');
  if (code === null) return null;
  return { code: code.trim().toUpperCase(), role: q.get('role') === 'teacher' ? 'teacher' : 'student', key: q.get('key') };
}
