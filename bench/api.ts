/**
 * docs/performance.md "The API benchmark": the two hottest authenticated reads, through the real server,
 * beside a floor measured in the same run (bench/floor-server.ts: bare node:http, same credential lookup and
 * one-row SELECT through the same driver). Each target runs in its own process; autocannon runs
 * here. PostgreSQL when DATABASE_URL is set (point it at a scratch database), else PGlite.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { closeSync, cpSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { seedOwner, stopProcess } from './support.ts';

const serverDir = fileURLToPath(new URL('../apps/server/', import.meta.url));
const floorScript = fileURLToPath(new URL('./floor-server.ts', import.meta.url));

export type ApiBenchOptions = {
  durationSeconds?: number;
  connections?: number;
  warmupSeconds?: number;
  rounds?: number;
};

/** Starts a target process, its output into a file (the app logs every request at info, as in production). */
export async function startTarget(
  args: string[],
  cwd: string,
  env: NodeJS.ProcessEnv,
  logFile: string,
  ready: RegExp,
) {
  const fd = openSync(logFile, 'w');
  const child = spawn(process.execPath, ['--import', 'tsx', ...args], {
    cwd,
    env,
    stdio: ['ignore', fd, fd],
  });
  closeSync(fd);
  const deadline = Date.now() + 120_000;
  for (;;) {
    const m = ready.exec(readFileSync(logFile, 'utf8').slice(0, 20_000));
    if (m?.[1]) return { child, port: Number(m[1]) };
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`target did not start:\n${readFileSync(logFile, 'utf8').slice(-4000)}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

export type Sample = { rps: number; p50: number; p99: number; requests: number };

export async function sample(
  url: string,
  headers: Record<string, string>,
  connections: number,
  seconds: number,
) {
  const r = await autocannon({ url, headers, connections, duration: seconds });
  if (r.non2xx > 0 || r.errors > 0 || r.timeouts > 0) {
    throw new Error(`${url}: ${r.non2xx} non-2xx, ${r.errors} errors, ${r.timeouts} timeouts`);
  }
  return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, requests: r.requests.total };
}

export const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};

export type Pair = { name: string; app: Sample; floor: Sample; ratio: number };

export async function runApiBench(options: ApiBenchOptions = {}) {
  const opts: Required<ApiBenchOptions> = {
    durationSeconds: options.durationSeconds ?? 8,
    connections: options.connections ?? 50,
    warmupSeconds: options.warmupSeconds ?? 2,
    rounds: options.rounds ?? 3,
  };
  const dir = mkdtempSync(join(tmpdir(), 'parley-bench-'));
  const databaseUrl = process.env.DATABASE_URL || undefined;
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    NODE_ENV: 'production',
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: join(dir, 'app'),
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'info',
    // The per-caller limiter stays on (its cost is measured), with a budget the run cannot exhaust.
    API_RATE_LIMIT_PER_MINUTE: '1000000000',
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    ...(process.env.REDIS_URL ? { REDIS_URL: process.env.REDIS_URL } : {}),
  };
  // PGlite is one process per data directory: the floor reads an identical copy of the seeded one.
  const floorEnv: NodeJS.ProcessEnv = { ...env, DATA_DIR: join(dir, 'floor') };
  const kind = databaseUrl ? 'PostgreSQL' : 'PGlite';
  const children: ChildProcess[] = [];
  const pairs: Pair[] = [];
  try {
    mkdirSync(join(dir, 'app'), { recursive: true });
    const s = await seedOwner(env, { plan: 'pro', keyScopes: ['contacts:write'] });
    if (!databaseUrl) cpSync(join(dir, 'app'), join(dir, 'floor'), { recursive: true });
    const app = await startTarget(
      ['src/main.ts'],
      serverDir,
      env,
      join(dir, 'app.log'),
      /Parley is ready: http:\/\/[^:]+:(\d+)/,
    );
    children.push(app.child);
    const floor = await startTarget(
      [floorScript],
      serverDir,
      floorEnv,
      join(dir, 'floor.log'),
      /READY (\d+)/,
    );
    children.push(floor.child);
    const appBase = `http://127.0.0.1:${app.port}`;
    const floorBase = `http://127.0.0.1:${floor.port}`;
    const routes: Array<{ name: string; app: string; floor: string; headers: Record<string, string> }> = [
      {
        name: 'GET /api/workspaces/{id} (session cookie)',
        app: `${appBase}/api/workspaces/${s.workspaceId}`,
        floor: `${floorBase}/session/${s.workspaceId}`,
        headers: { cookie: s.cookie },
      },
      {
        name: 'GET /api/v1/workspace (API key)',
        app: `${appBase}/api/v1/workspace`,
        floor: `${floorBase}/key`,
        headers: { authorization: s.authorization ?? '' },
      },
    ];
    for (const route of routes) {
      for (const url of [route.app, route.floor]) {
        const res = await fetch(url, { headers: route.headers });
        if (res.status !== 200) throw new Error(`${url} answered ${res.status} ${await res.text()}`);
        await sample(url, route.headers, opts.connections, opts.warmupSeconds);
      }
    }
    // Rounds alternate app and floor, so that load from elsewhere on the machine hits both alike.
    for (const route of routes) {
      const appSamples: Sample[] = [];
      const floorSamples: Sample[] = [];
      for (let round = 0; round < opts.rounds; round++) {
        appSamples.push(await sample(route.app, route.headers, opts.connections, opts.durationSeconds));
        floorSamples.push(await sample(route.floor, route.headers, opts.connections, opts.durationSeconds));
      }
      const summary = (xs: Sample[]): Sample => ({
        rps: median(xs.map((x) => x.rps)),
        p50: median(xs.map((x) => x.p50)),
        p99: median(xs.map((x) => x.p99)),
        requests: xs.reduce((n, x) => n + x.requests, 0),
      });
      const ratios = appSamples.map((a, i) => a.rps / floorSamples[i]!.rps);
      pairs.push({
        name: route.name,
        app: summary(appSamples),
        floor: summary(floorSamples),
        ratio: median(ratios),
      });
    }
  } finally {
    await Promise.all(children.map(stopProcess));
    rmSync(dir, { recursive: true, force: true });
  }
  report(kind, opts, pairs);
  return pairs;
}

function report(kind: string, opts: Required<ApiBenchOptions>, pairs: Pair[]) {
  const out = [
    `\nAPI benchmark on ${kind}: ${opts.connections} connections; ${opts.rounds} rounds of ${opts.durationSeconds} s per target, app and floor alternating; medians. node ${process.version}\n`,
    '| Route | app req/s | app p50 / p99 ms | floor req/s | floor p50 / p99 ms | app / floor |',
    '|---|---|---|---|---|---|',
    ...pairs.map(
      (p) =>
        `| ${p.name} | ${Math.round(p.app.rps)} | ${p.app.p50} / ${p.app.p99} | ${Math.round(p.floor.rps)} | ${p.floor.p50} / ${p.floor.p99} | ${(100 * p.ratio).toFixed(0)}% |`,
    ),
    '',
  ];
  process.stdout.write(`${out.join('\n')}\n`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await runApiBench();
}
