import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { docs, getYDoc, setupWSConnection } from '@y/websocket-server/utils';
import sirv from 'sirv';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import { cspHeader } from '../../../scripts/csp.mjs';
import { readRoom } from '../doc';
import { roomRunFile } from '../export';
import { CODE_PATTERN, docNames, parseDocName, roomCodeFrom, YJS_PATH } from '../names';
import { grantFor, MessageBudget, screenMessage } from './access';

/**
 * The classroom server: one Node process serving the built app (dist/) and the rooms' Yjs
 * documents over y-websocket (@y/websocket-server), with our access rules in front of it. The
 * documents live in memory for as long as the process runs, so a teacher's reload loses nothing.
 */

export interface RoomServerOptions {
  port: number;
  /** 127.0.0.1 by default; 0.0.0.0 only when the teacher asks for the LAN. */
  host: string;
  /** The built app to serve; null serves only the rooms (tests, the load test). */
  dist: string | null;
  /** The address students use (the LAN address with --lan); defaults to `host`. */
  publicHost?: string;
  code?: string;
  key?: string;
  log: (line: string) => void;
}

export interface RoomServer {
  port: number;
  code: string;
  key: string;
  teacherUrl: string;
  joinUrl: string;
  close(): Promise<void>;
}

/** Teacher connections carry the whole room (scenario, log); a student's messages are small. */
const TEACHER_MAX_PAYLOAD = 8 * 1024 * 1024;
const STUDENT_MAX_PAYLOAD = 64 * 1024;

/** What `vite preview` sends too (vite.config.ts): cross-origin isolation and the app's CSP. */
const isolation = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
};
const pageHeaders = { ...isolation, 'Content-Security-Policy': cspHeader };

export async function startRoomServer(opts: RoomServerOptions): Promise<RoomServer> {
  const code = opts.code ?? roomCodeFrom(randomBytes(8));
  if (!CODE_PATTERN.test(code)) throw new Error(`--room: "${code}" is not a room code (4–8 of ${'A-Z without I, L, O; 2-9'})`);
  const key = opts.key ?? randomBytes(12).toString('hex');
  const rooms = new Map([[code, { key, arrivals: 0 }]]);
  const log = (line: string): void => opts.log(`[room ${code}] ${line}`);

  const statics = opts.dist && existsSync(opts.dist) ? sirv(opts.dist, { etag: true, dev: false, setHeaders: (res) => Object.entries(pageHeaders).forEach(([k, v]) => res.setHeader(k, v)) }) : null;
  let joinUrl = '';

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const api = /^\/api\/room\/([^/]+)(\/run\.json)?$/.exec(url.pathname);
    if (api) return answerApi(res, api[1], api[2] !== undefined, url.searchParams);
    if (statics) return statics(req, res, () => notFound(res));
    notFound(res);
  });

  function json(res: ServerResponse, status: number, body: unknown): void {
    res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store', ...isolation });
    res.end(JSON.stringify(body, null, status === 200 ? 2 : 0));
  }

  function notFound(res: ServerResponse): void {
    res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' });
    res.end(statics ? 'not found' : 'this room server was started without the built app (run `npm run build`)');
  }

  /** `/api/room/CODE`: the join URL and whether a teacher key is right; `/run.json`: the run file. */
  function answerApi(res: ServerResponse, roomCode: string, runFile: boolean, q: URLSearchParams): void {
    const room = rooms.get(roomCode);
    if (!room) return json(res, 404, { error: `room: no room "${roomCode.slice(0, 12)}" on this server` });
    const teacher = q.get('key') === room.key;
    if (!runFile) return json(res, 200, { room: roomCode, joinUrl, teacher });
    if (!teacher) return json(res, 403, { error: 'key: the run file needs the room key' });
    const view = readRoom(getYDoc(docNames.room(roomCode)));
    if (!view.scenario) return json(res, 404, { error: 'room: no lesson has been started yet' });
    json(res, 200, roomRunFile(view.scenario, view.entries));
  }

  const teacherWss = new WebSocketServer({ noServer: true, maxPayload: TEACHER_MAX_PAYLOAD });
  const studentWss = new WebSocketServer({ noServer: true, maxPayload: STUDENT_MAX_PAYLOAD });

  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const refuse = (status: number, reason: string): void => {
      log(`refused a connection to ${url.pathname.slice(0, 80)}: ${reason}`);
      socket.end(`HTTP/1.1 ${status} ${status === 404 ? 'Not Found' : 'Bad Request'}\r\nConnection: close\r\n\r\n`);
    };
    if (!url.pathname.startsWith(`${YJS_PATH}/`)) return refuse(404, 'not the room endpoint');
    const docName = decodeURIComponent(url.pathname.slice(YJS_PATH.length + 1));
    const ref = parseDocName(docName);
    if (!ref) return refuse(400, `"${docName.slice(0, 60)}" is not a room document`);
    const room = rooms.get(ref.code);
    if (!room) return refuse(404, `no room "${ref.code}"`);
    const grant = grantFor(ref, url.searchParams, room.key);
    const wss = grant.ok && grant.teacher ? teacherWss : studentWss;
    wss.handleUpgrade(req, socket, head, (ws) => {
      if (!grant.ok) {
        // Accept, then close with a 44xx code: y-websocket stops retrying and reports the reason.
        log(`refused ${docName}: ${grant.reason}`);
        ws.close(grant.code, grant.reason.slice(0, 120));
        return;
      }
      if (ref.kind === 'inbox' && grant.write) arrive(ref.code, ref.pub);
      guard(ws, docName, grant.write, grant.who);
      setupWSConnection(ws, req, { docName });
    });
  });

  /** A student opened her inbox: the lobby tells the teacher's device she is here. */
  function arrive(roomCode: string, pub: string): void {
    const room = rooms.get(roomCode)!;
    const clients = getYDoc(docNames.lobby(roomCode)).getMap('clients');
    if (!clients.has(pub)) clients.set(pub, ++room.arrivals);
  }

  /**
   * Puts our screen in front of the Yjs server's message handler: setupWSConnection registers its
   * 'message' listener on the socket, so the socket hands it a filtered stream instead.
   */
  function guard(ws: WebSocket, docName: string, write: boolean, who: string): void {
    const budget = new MessageBudget(200, 50, Date.now());
    let reported = 0;
    const report = (reason: string): void => {
      if (reported++ < 5) log(`dropped a message from ${who} on ${docName}: ${reason}`);
    };
    const on = ws.on.bind(ws);
    (ws as { on: (event: string, fn: (...args: unknown[]) => void) => WebSocket }).on = (event, fn) => {
      if (event !== 'message') return on(event as 'close', fn as () => void);
      return on('message', (data: RawData, isBinary: boolean) => {
        if (!budget.take(Date.now())) return report('too many messages (more than 50 a second)');
        const bytes = toBytes(data);
        const verdict = screenMessage(bytes, write);
        if (verdict.ok) fn(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength), isBinary);
        else if (!verdict.quiet) report(verdict.reason);
      });
    };
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const localHost = opts.host === '0.0.0.0' ? '127.0.0.1' : opts.host;
  const base = (host: string): string => `http://${host.includes(':') ? `[${host}]` : host}:${port}/`;
  joinUrl = `${base(opts.publicHost ?? localHost)}?room=${code}`;
  const teacherUrl = `${base(localHost)}?room=${code}&role=teacher&key=${key}`;

  return {
    port,
    code,
    key,
    teacherUrl,
    joinUrl,
    close: async () => {
      for (const c of [...teacherWss.clients, ...studentWss.clients]) c.terminate();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      for (const name of [...docs.keys()]) if (name === code || name.startsWith(`${code}/`)) docs.delete(name);
    },
  };
}

function toBytes(data: RawData): Uint8Array {
  if (Array.isArray(data)) return new Uint8Array(Buffer.concat(data));
  if (data instanceof ArrayBuffer) return new Uint8Array(data);
  return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
}
