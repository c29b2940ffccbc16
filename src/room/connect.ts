import { Awareness } from 'y-protocols/awareness';
import { WebsocketProvider } from 'y-websocket';
import * as Y from 'yjs';
import { docNames, YJS_PATH } from './names';

/**
 * Opening a room's documents over y-websocket, in the browser and in Node (the load test passes
 * the `ws` package as its WebSocket). Cross-tab BroadcastChannel sync is off: every change must go
 * through the server, which enforces who may write what.
 */

export type Credentials = { role: 'teacher'; key: string } | { role: 'student'; cid: string } | { role: 'viewer' };

export interface RoomLink {
  /** http(s)://host:port of the room server (the page's own origin in the browser). */
  origin: string;
  code: string;
  credentials: Credentials;
  WebSocket?: unknown;
}

export interface OpenDoc {
  doc: Y.Doc;
  provider: WebsocketProvider;
  /** Resolves once the first sync with the server is complete. */
  synced: Promise<void>;
  destroy(): void;
}

function params(c: Credentials): Record<string, string> {
  if (c.role === 'teacher') return { role: 'teacher', key: c.key };
  if (c.role === 'student') return { cid: c.cid };
  return {};
}

/**
 * Opens one document. `presence`: whether this connection announces itself (only where it may
 * write: the server drops presence elsewhere). Read-only connections re-ask for the document every
 * 10 s, which also keeps y-websocket's 30 s silence watchdog from reconnecting needlessly.
 */
export function openDoc(link: RoomLink, name: string, opts: { presence?: Record<string, unknown> | null } = {}): OpenDoc {
  const doc = new Y.Doc();
  const awareness = new Awareness(doc);
  awareness.setLocalState(opts.presence ?? null);
  const wsUrl = link.origin.replace(/^http/, 'ws') + YJS_PATH;
  // y-websocket's resync timer reads the global `WebSocket.OPEN` even when given a polyfill; in
  // Node 20 (the load test, `npm run classroom:load`) there is none, and every resync threw.
  if (link.WebSocket && typeof globalThis.WebSocket === 'undefined') Object.assign(globalThis, { WebSocket: link.WebSocket });
  const provider = new WebsocketProvider(wsUrl, name, doc, {
    params: params(link.credentials),
    awareness,
    disableBc: true,
    resyncInterval: opts.presence ? -1 : 10_000,
    ...(link.WebSocket ? { WebSocketPolyfill: link.WebSocket as typeof WebSocket } : {}),
  });
  const synced = new Promise<void>((resolve) => {
    if (provider.synced) return resolve();
    const onSync = (ok: boolean): void => {
      if (!ok) return;
      provider.off('sync', onSync);
      resolve();
    };
    provider.on('sync', onSync);
  });
  return {
    doc,
    provider,
    synced,
    destroy: () => {
      provider.destroy();
      doc.destroy();
    },
  };
}

export function openRoomDoc(link: RoomLink, presence: Record<string, unknown> | null = null): OpenDoc {
  return openDoc(link, docNames.room(link.code), { presence });
}

export function openLobby(link: RoomLink): OpenDoc {
  return openDoc(link, docNames.lobby(link.code));
}

export function openInbox(link: RoomLink, pub: string, owner: boolean): OpenDoc {
  return openDoc(link, docNames.inbox(link.code, pub), { presence: owner ? { online: true } : null });
}
