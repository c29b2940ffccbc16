import { networkInterfaces } from 'node:os';
import { resolve } from 'node:path';
import { parseArgs } from './args';
import { startRoomServer } from './server';

/**
 * `npm run classroom [-- --port N] [--lan] [--room CODE]`: serves the built app and one live room,
 * and prints the teacher's URL and the students' join URL. 127.0.0.1 unless --lan (then every
 * interface, and the join URL carries this machine's address on the local network).
 */

/** This machine's IPv4 address on the local network (the first non-internal one). */
function lanAddress(): string | null {
  for (const list of Object.values(networkInterfaces())) {
    for (const a of list ?? []) if (a.family === 'IPv4' && !a.internal) return a.address;
  }
  return null;
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  if ('error' in args) {
    process.stderr.write(`${args.error}\n`);
    process.exit(2);
  }
  const lan = args.lan ? lanAddress() : null;
  if (args.lan && !lan) process.stderr.write('--lan: this machine has no network address besides 127.0.0.1; students on other devices cannot reach it\n');
  const dist = resolve(args.dist);
  let server;
  try {
    server = await startRoomServer({
      port: args.port,
      host: args.lan ? '0.0.0.0' : '127.0.0.1',
      publicHost: lan ?? undefined,
      dist,
      code: args.room,
      log: (line) => process.stderr.write(`${new Date().toISOString().slice(11, 19)} ${line}\n`),
    });
  } catch (e) {
    process.stderr.write(`classroom: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exit(2);
  }
  const { existsSync } = await import('node:fs');
  if (!existsSync(resolve(dist, 'index.html'))) process.stderr.write(`classroom: ${dist} has no built app; run \`npm run build\` first (rooms work, pages do not)\n`);
  const lines = [
    `CAP Playground live room ${server.code}`,
    `Teacher (open this yourself; it holds the room key): ${server.teacherUrl}`,
    `Students join: ${server.joinUrl}`,
    args.lan
      ? 'On the school network: students on the same Wi-Fi open the join URL or scan the QR code on your page. If they cannot connect, allow this port in the firewall.'
      : 'Only this computer can join. For students on other devices: npm run classroom -- --lan',
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  const stop = (): void => {
    void server.close().then(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

void main();
