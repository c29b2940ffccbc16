import { spawn, type ChildProcess } from 'node:child_process';

/**
 * Helpers for the live-room tests: start `npm run classroom` as a teacher would and read the URLs
 * it prints.
 */

export interface Classroom {
  teacherUrl: string;
  joinUrl: string;
  log: string[];
  stop(): void;
}

export async function startClassroom(): Promise<Classroom> {
  // Its own process group, so stopping it also stops the tsx/node process npm starts.
  const child: ChildProcess = spawn('npm', ['run', '-s', 'classroom', '--', '--port', '0'], { detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  const log: string[] = [];
  let out = '';
  const urls = await new Promise<{ teacherUrl: string; joinUrl: string }>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`npm run classroom printed no URLs within 60 s:\n${out}\n${log.join('\n')}`)), 60_000);
    child.stdout!.on('data', (b: Buffer) => {
      out += b.toString();
      const teacher = /Teacher[^:]*: (\S+)/.exec(out);
      const join = /Students join: (\S+)/.exec(out);
      if (teacher && join) {
        clearTimeout(timer);
        resolve({ teacherUrl: teacher[1], joinUrl: join[1] });
      }
    });
    child.stderr!.on('data', (b: Buffer) => log.push(...b.toString().split('\n').filter(Boolean)));
    child.once('exit', (code) => reject(new Error(`npm run classroom exited (${code}):\n${out}\n${log.join('\n')}`)));
  });
  return {
    ...urls,
    log,
    stop: () => {
      try {
        process.kill(-child.pid!, 'SIGTERM');
      } catch {
        // already gone
      }
    },
  };
}
