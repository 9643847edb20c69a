import { execFile, execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * A private PostgreSQL cluster for one test file: its own data directory and port, so a test may
 * stop and restart it while other files use the machine's shared server. Made with the server's
 * own `initdb` and `pg_ctl`. initdb refuses to run as root: as root (CI, this machine) every
 * command runs as the `postgres` OS user through `runuser`, and the directory is given to it.
 */
export type PgCluster = {
  /** postgres://postgres@127.0.0.1:<port>/postgres (trust authentication, loopback only). */
  url: string;
  port: number;
  dir: string;
  /** `pg_ctl stop -m fast`: every session ends, new connections are refused. */
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Stops it and removes its directory. */
  destroy(): Promise<void>;
  /** The server's log so far (for a failure message). */
  log(): string;
};

/** The directory of initdb and pg_ctl: `pg_config --bindir`, else the newest /usr/lib/postgresql/N/bin. */
export function pgBinDir(): string | undefined {
  try {
    const dir = execFileSync('pg_config', ['--bindir'], { encoding: 'utf8' }).trim();
    if (existsSync(join(dir, 'initdb')) && existsSync(join(dir, 'pg_ctl'))) return dir;
  } catch {
    /* no pg_config on the PATH */
  }
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((v) => /^\d+$/.test(v))
    .sort((a, b) => Number(b) - Number(a));
  for (const v of versions) {
    const dir = join(root, v, 'bin');
    if (existsSync(join(dir, 'initdb')) && existsSync(join(dir, 'pg_ctl'))) return dir;
  }
  return undefined;
}

const asRoot = () => process.getuid?.() === 0;

/** Whether a private cluster can be made here (the binaries, and as root a `postgres` user). */
export function canRunPrivateCluster(): boolean {
  if (!pgBinDir()) return false;
  if (!asRoot()) return true;
  try {
    execFileSync('id', ['-u', 'postgres'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export async function startPgCluster(): Promise<PgCluster> {
  const bin = pgBinDir();
  if (!bin) throw new Error('No PostgreSQL server binaries (initdb, pg_ctl) on this machine');
  const dir = mkdtempSync(join(tmpdir(), 'parley-pg-'));
  if (asRoot()) {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    chownSync(dir, uid, gid);
  }
  const pg = (tool: string, args: string[]) =>
    asRoot()
      ? run('runuser', ['-u', 'postgres', '--', join(bin, tool), ...args], { timeout: 60_000 })
      : run(join(bin, tool), args, { timeout: 60_000 });
  const data = join(dir, 'data');
  const logFile = join(dir, 'server.log');
  const port = await freePort();
  await pg('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync']);
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c max_connections=100`;
  const start = async () => {
    await pg('pg_ctl', ['-D', data, '-o', options, '-l', logFile, '-w', '-t', '60', 'start']);
  };
  const stop = async () => {
    await pg('pg_ctl', ['-D', data, '-m', 'fast', '-w', '-t', '60', 'stop']);
  };
  await start();
  let destroyed = false;
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    dir,
    start,
    stop,
    log: () => (existsSync(logFile) ? readFileSync(logFile, 'utf8') : ''),
    destroy: async () => {
      if (destroyed) return;
      destroyed = true;
      await pg('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']).catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
