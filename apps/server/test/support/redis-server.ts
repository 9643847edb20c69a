import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { Socket } from 'node:net';
import { freePort } from './pg-cluster.ts';
import { waitFor } from './wait.ts';

/**
 * A private Redis for one test file (`redis-server` on a free port, nothing saved to disk), so a
 * test may kill it and start it again on the same port while other files use the machine's Redis.
 */
export type RedisServer = {
  url: string;
  port: number;
  /** SIGKILL: connections drop at once, as when the host goes away. */
  kill(): Promise<void>;
  /** Starts it again on the same port (empty: nothing was saved). */
  start(): Promise<void>;
};

export function hasRedisServer(): boolean {
  try {
    execFileSync('redis-server', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

const answers = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = new Socket();
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(500, () => done(false));
    socket.once('error', () => done(false));
    socket.connect(port, '127.0.0.1', () => done(true));
  });

export async function startRedisServer(): Promise<RedisServer> {
  const port = await freePort();
  let child: ChildProcess | undefined;
  const start = async () => {
    const proc = spawn(
      'redis-server',
      [
        '--port',
        String(port),
        '--bind',
        '127.0.0.1',
        '--save',
        '',
        '--appendonly',
        'no',
        '--loglevel',
        'warning',
      ],
      { stdio: 'ignore' },
    );
    child = proc;
    await waitFor(() => answers(port), 10_000, `redis-server on port ${port}`);
  };
  const kill = async () => {
    const proc = child;
    child = undefined;
    if (!proc || proc.exitCode !== null) return;
    const exited = new Promise((resolve) => proc.once('exit', resolve));
    proc.kill('SIGKILL');
    await exited;
  };
  await start();
  return { url: `redis://127.0.0.1:${port}`, port, kill, start };
}
