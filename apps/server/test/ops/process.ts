import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export type Server = {
  child: ChildProcess;
  dataDir: string;
  /** Resolves with the URL the server printed ("Parley is ready: <url>"). */
  ready: Promise<string>;
  exited: Promise<number | null>;
  output: () => string;
  /** Stops the whole process group if a test left it running. */
  kill(): void;
};

/** The environment of a real server: a fresh DATA_DIR, a free port, no inherited services. */
export function serverEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const key of ['DATABASE_URL', 'REDIS_URL', 'PUBLIC_BASE_URL', 'NODE_OPTIONS', 'VITEST'])
    delete env[key];
  return {
    ...env,
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: mkdtempSync(join(tmpdir(), 'parley-ops-')),
    LOG_LEVEL: 'warn',
    // Races fire many chats at once on a loaded machine: none is shed (docs/testing.md "Overload").
    CHAT_SHED_AFTER_MS: '0',
    CHAT_SHED_LOOP_DELAY_MS: '0',
    CHAT_START_TARGET_MS: '0',
    ...extra,
  };
}

/** Spawns a real server in its own process group. */
export function startServer(
  command: string,
  args: string[],
  opts: { cwd: string; env: NodeJS.ProcessEnv },
): Server {
  const child = spawn(command, args, { cwd: opts.cwd, env: opts.env, detached: true, stdio: 'pipe' });
  let out = '';
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const ready = new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const m = /Parley is ready: (http:\/\/\S+)/.exec(out);
      if (m?.[1]) resolve(m[1]);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    void exited.then((code) => reject(new Error(`server exited with ${code} before it was ready:\n${out}`)));
  });
  return {
    child,
    dataDir: opts.env.DATA_DIR ?? '',
    ready,
    exited,
    output: () => out,
    kill: () => {
      if (child.exitCode !== null || child.signalCode !== null || !child.pid) return;
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        /* already gone */
      }
    },
  };
}
