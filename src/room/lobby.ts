import { openInbox, openLobby, type OpenDoc, type RoomLink } from './connect';
import { readInbox } from './doc';
import { PUBLIC_ID_PATTERN } from './names';
import type { TeacherRoom } from './teacher';

/**
 * The teacher's device watches the lobby (the server lists everyone who opened an inbox), opens
 * each student's inbox read-only, admits her once she has a name (online while her inbox shows her
 * presence) and decides her requests as they arrive. Used by the teacher's page and the load test.
 */
export function watchLobby(link: RoomLink, teacher: TeacherRoom): { destroy(): void } {
  const lobby = openLobby(link);
  const inboxes = new Map<string, OpenDoc>();
  const clients = lobby.doc.getMap<unknown>('clients');
  const admit = (pub: string, order: number, inbox: OpenDoc): void => {
    const name = readInbox(inbox.doc, Number.MAX_SAFE_INTEGER).name;
    if (!name) return; // no name chosen yet: no node for her so far
    const online = [...inbox.provider.awareness.getStates().keys()].some((id) => id !== inbox.doc.clientID);
    teacher.admit(pub, order, name, online);
  };
  const sync = (): void => {
    for (const [pub, order] of clients.entries()) {
      if (inboxes.has(pub) || !PUBLIC_ID_PATTERN.test(pub) || typeof order !== 'number') continue;
      const inbox = openInbox(link, pub, false);
      inboxes.set(pub, inbox);
      inbox.doc.on('update', () => {
        admit(pub, order, inbox);
        teacher.processInbox(pub, inbox.doc);
      });
      inbox.provider.awareness.on('change', () => admit(pub, order, inbox));
    }
  };
  clients.observe(sync);
  sync();
  return {
    destroy: () => {
      for (const d of inboxes.values()) d.destroy();
      lobby.destroy();
    },
  };
}
