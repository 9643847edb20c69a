import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';

/** Helpers every benchmark shares. */

/**
 * A scratch database beside the one `url` names (the benchmarks never touch a real database),
 * created now and dropped by `drop()` at the end.
 */
export async function scratchDatabase(url: string, tag: string) {
  const { default: pg } = await import('pg');
  const name = `parley_bench_${tag}_${randomBytes(4).toString('hex')}`;
  const admin = async (q: string) => {
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    await c.query(q).finally(() => c.end());
  };
  await admin(`CREATE DATABASE ${name}`);
  const u = new URL(url);
  u.pathname = `/${name}`;
  return { url: u.toString(), drop: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}

/** SIGTERM (the server's graceful shutdown), SIGKILL after 15 s; resolves once it has exited. */
export async function stopProcess(child: ChildProcess) {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
  await exited;
  clearTimeout(timer);
}
