/**
 * Chat capacity, open loop (docs/performance.md "Chat capacity"): the highest rate of new chats a
 * second at which p99 time to first event stays under 100 ms and p99 time to `finish` under 1 s,
 * with nothing failed or shed. Chats arrive as a Poisson process (bench/open-loop.ts), each a new
 * conversation through `POST /api/chat` with a session cookie (and, with CAPACITY_SURFACE=widget or
 * both, through `POST /api/widget/{id}/chat`, each from its own visitor session), against the
 * instant OpenAI-compatible stand-in model in its own process and a small knowledge base. The
 * rates double from CAPACITY_START until a step fails, then are refined between the last pass and
 * the first failure. In the same run: the floor (a bare node:http server relaying the same
 * stand-in's stream as SSE) at the capacity found, and the server at 2x and 4x that capacity, where
 * it should shed what it cannot start in time (503 or the stream's `busy` event) and reset nothing.
 *
 *   npx tsx bench/capacity.ts                                                   # PGlite
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/capacity.ts  # scratch database
 *
 * CAPACITY_SECONDS (10 a step), CAPACITY_START (20 chats/s), CAPACITY_REFINE (3 steps),
 * CAPACITY_SURFACE (chat | widget | both; chat), CAPACITY_OVERLOAD (0 skips the 2x and 4x steps),
 * CAPACITY_AT (a capacity found before: no ladder, the floor and the 2x and 4x steps at it),
 * CHAT_BENCH_PROFILE (a directory: the server writes a V8 CPU profile there when it stops),
 * CAPACITY_TOP (1: after each step, its statements by calls a chat, from pg_stat_statements),
 * CAPACITY_ASYNC_COMMIT (1: the scratch database does not wait for the disk's flush at commit, to
 * tell the machine's CPU from a disk whose flushes stall; not how Parley runs), and the server's
 * overload settings (CHAT_SHED_*, CHAT_MAX_STARTING, CHAT_START_TARGET_MS, HTTP_ACCEPTORS) and NODE_OPTIONS passed on.
 * The column "server TTFE p99" is the server's own arrival-to-first-event p99 (its /metrics, a
 * bucket's upper bound): far below the client's, the chats waited before the server read them.
 * Transactions and statements a chat come from pg_stat_database and pg_stat_statements (the
 * latter only where the server preloads it); database CPU is that of every `postgres` process.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cpuOf, seedKnowledge, start } from './chat-setup.ts';
import {
  type ChatRequest,
  cpuOfAll,
  openLoopStep,
  type Step,
  type StepCounters,
  serverReadings,
} from './open-loop.ts';
import { scratchDatabase, seedOwner, stopProcess } from './support.ts';

const serverDir = fileURLToPath(new URL('../apps/server/', import.meta.url));
const chatBench = fileURLToPath(new URL('./chat.ts', import.meta.url));
const SITE = 'https://shop.example.com';
const METRICS_TOKEN = 'capacity-bench-metrics-token';

type Surface = {
  name: string;
  request: (rate: number, seconds: number) => Promise<(i: number) => ChatRequest>;
};

async function counters(
  base: string,
  pid: number | undefined,
  databaseUrl?: string,
): Promise<StepCounters & { close(): Promise<void>; snapshot(): Promise<Map<string, Calls>> }> {
  let work: StepCounters['databaseWork'] = async () => null;
  let close = async () => undefined;
  let snapshot = async () => new Map<string, Calls>();
  if (databaseUrl) {
    const { default: pg } = await import('pg');
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    client.on('error', () => undefined);
    close = async () => void (await client.end().catch(() => undefined));
    const hasStatements = await client
      .query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements')
      .then(() => client.query('SELECT count(*) FROM pg_stat_statements'))
      .then(
        () => true,
        () => false,
      );
    work = async () => {
      const x = await client.query<{ n: string }>(
        'SELECT xact_commit + xact_rollback AS n FROM pg_stat_database WHERE datname = current_database()',
      );
      const s = hasStatements
        ? await client.query<{ n: string | null }>(
            'SELECT sum(calls) AS n FROM pg_stat_statements WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())',
          )
        : null;
      // This connection's own two statements and transactions are a few a step: noise at these rates.
      return { xacts: Number(x.rows[0]!.n), statements: s ? Number(s.rows[0]!.n ?? 0) : Number.NaN };
    };
    // CAPACITY_TOP=1: each step's statements by calls a chat (the difference of pg_stat_statements
    // across the step, so the sessions made before a widget step and the seeding do not count).
    snapshot = async () => {
      const out = new Map<string, Calls>();
      if (!hasStatements) return out;
      const r = await client.query<{ id: string; calls: string; ms: number; query: string }>(
        `SELECT queryid::text AS id, calls, total_exec_time AS ms, query FROM pg_stat_statements
          WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())`,
      );
      for (const x of r.rows) out.set(x.id, { calls: Number(x.calls), ms: x.ms, query: x.query });
      return out;
    };
  }
  return {
    serverCpu: () => cpuOf(pid),
    databaseCpu: () => (databaseUrl ? cpuOfAll('postgres') : 0),
    databaseWork: work,
    server: serverReadings(base, METRICS_TOKEN),
    close,
    snapshot,
  };
}

type Calls = { calls: number; ms: number; query: string };

/** The statements run between two snapshots, most calls first, as calls a chat and mean time. */
function topBetween(before: Map<string, Calls>, after: Map<string, Calls>, chats: number, n = 25) {
  const rows = [...after].map(([id, a]) => {
    const b = before.get(id);
    return { calls: a.calls - (b?.calls ?? 0), ms: a.ms - (b?.ms ?? 0), query: a.query };
  });
  return rows
    .filter((r) => r.calls > 0)
    .sort((x, y) => y.calls - x.calls)
    .slice(0, n)
    .map(
      (x) =>
        `${(x.calls / Math.max(1, chats)).toFixed(2)} a chat, ${((1000 * x.ms) / x.calls).toFixed(0)} us: ${x.query.replace(/\s+/g, ' ').slice(0, 160)}`,
    );
}

/** Doubles from `from` until a step fails, then bisects `refine` times; returns every step run. */
async function ladder(run: (rate: number) => Promise<Step>, from: number, refine: number) {
  const steps: Step[] = [];
  let pass = 0;
  let fail = 0;
  for (let rate = from; ; rate *= 2) {
    const s = await run(rate);
    steps.push(s);
    if (!s.pass) {
      fail = rate;
      break;
    }
    pass = rate;
    if (rate >= 4000) return { steps, capacity: pass };
  }
  for (let i = 0; i < refine && fail - pass > Math.max(5, pass * 0.05); i++) {
    const rate = Math.round((pass + fail) / 2);
    const s = await run(rate);
    steps.push(s);
    if (s.pass) pass = rate;
    else fail = rate;
  }
  return { steps, capacity: pass };
}

const f = (x: number | null, d = 1) => (x === null || Number.isNaN(x) ? 'n/a' : x.toFixed(d));
function row(label: string, s: Step) {
  return `| ${label} | ${s.rate} | ${s.sent} | ${f(s.ttfe50)} / ${f(s.ttfe99)} | ${f(s.finish99)} | ${s.failed} | ${s.shed} (${f((100 * s.shed) / Math.max(1, s.sent))}%) | ${f(s.serverCpuPerChat, 2)} | ${f(s.databaseCpuPerChat, 2)} | ${f(s.xactsPerChat)} / ${f(s.statementsPerChat)} | ${f(s.loopDelayP99)} | ${f(s.serverTtfe99, 0)} | ${s.pass ? 'pass' : 'fail'} |`;
}
const HEAD =
  '| target | chats/s | sent | TTFE p50 / p99 ms | finish p99 ms | failed | shed | server CPU ms/chat | PG CPU ms/chat | xacts / statements a chat | loop delay p99 ms | server TTFE p99 ms | |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|';

export async function runCapacityBench() {
  const seconds = Number(process.env.CAPACITY_SECONDS ?? 10);
  const from = Number(process.env.CAPACITY_START ?? 20);
  const refine = Number(process.env.CAPACITY_REFINE ?? 3);
  const which = process.env.CAPACITY_SURFACE ?? 'chat';
  const dir = mkdtempSync(join(tmpdir(), 'parley-capacity-'));
  const children: ChildProcess[] = [];
  const scratch = process.env.DATABASE_URL
    ? await scratchDatabase(process.env.DATABASE_URL, 'cap')
    : undefined;
  // CAPACITY_ASYNC_COMMIT=1: the scratch database commits without waiting for the disk's flush, to
  // tell the CPU's capacity from a disk whose flushes stall (docs/performance.md "Chat capacity").
  if (scratch && process.env.CAPACITY_ASYNC_COMMIT === '1') await asyncCommit(scratch.url);
  const launch = async (args: string[], env: NodeJS.ProcessEnv, log: string, ready = /READY (\d+)/) => {
    const p = await start(args, serverDir, env, join(dir, log), ready);
    children.push(p.child);
    return p;
  };
  try {
    const base: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: process.env.HOME };
    const llm = await launch([chatBench, '--llm'], base, 'llm.log');
    const floor = await launch(
      [chatBench, '--floor'],
      { ...base, AI_BASE_URL: `${llm.base}/v1` },
      'floor.log',
    );
    const env: NodeJS.ProcessEnv = {
      ...base,
      ...{ NODE_ENV: 'production', PORT: '0', HOST: '127.0.0.1', DATA_DIR: join(dir, 'app') },
      ...{ LOG_LEVEL: process.env.LOG_LEVEL ?? 'info', METRICS_TOKEN, TRUST_PROXY: 'true' },
      ...{ API_RATE_LIMIT_PER_MINUTE: '1000000000', WIDGET_RATE_LIMIT_PER_MINUTE: '1000000000' },
      ...{ AI_PROVIDER: 'openai', AI_BASE_URL: `${llm.base}/v1`, AI_MODEL: 'stand-in' },
      ...(scratch ? { DATABASE_URL: scratch.url } : {}),
      ...(process.env.REDIS_URL ? { REDIS_URL: process.env.REDIS_URL } : {}),
      // The overload settings (docs/configuration.md "Overload") and Node's options, to try others than the defaults.
      ...Object.fromEntries(
        Object.entries(process.env).filter(([k]) =>
          /^(CHAT_(SHED|MAX|START)_|HTTP_ACCEPTORS$|NODE_OPTIONS$)/.test(k),
        ),
      ),
    };
    mkdirSync(env.DATA_DIR!, { recursive: true });
    const owner = await seedOwner(env, { plan: 'enterprise', monthlyCredits: 1_000_000_000 });
    const app = await launch(['src/main.ts'], env, 'app.log', /Parley is ready: http:\/\/[^:]+:(\d+)/);
    const headers = { cookie: owner.cookie, origin: app.base };
    const k = await seedKnowledge(app.base, headers, owner.workspaceId);
    const question = (i: number) => k.questions[(i * 37) % k.questions.length]!;
    const chat: Surface = {
      name: 'internal chat',
      request: async () => (i) => ({
        url: `${app.base}/api/chat`,
        headers,
        body: JSON.stringify({ assistantId: k.assistantId, content: question(i) }),
      }),
    };
    const widget = await widgetSurface(app.base, headers, k.assistantId, question);
    const c = await counters(app.base, app.child.pid, scratch?.url);
    const kind = scratch ? 'PostgreSQL' : 'PGlite';
    console.log(`capacity on ${kind}: ${k.chunks} chunks, ${seconds} s a step; node ${process.version}`);
    const lines = [
      `\nChat capacity on ${kind} (${k.chunks} chunks, ${seconds} s a step, node ${process.version})\n`,
      HEAD,
    ];
    const top = process.env.CAPACITY_TOP === '1';
    const surfaces = which === 'both' ? [chat, widget] : which === 'widget' ? [widget] : [chat];
    for (const surface of surfaces) {
      const run = async (rate: number, label = surface.name) => {
        const request = await surface.request(rate, seconds);
        const before = top ? await c.snapshot() : undefined;
        const s = await openLoopStep(rate, seconds, request, c);
        const by = Object.entries(s.shedBy).map(([reason, n]) => `${reason} ${n}`);
        console.log(
          `  ${row(label, s)}${by.length ? ` shed by: ${by.join(', ')}` : ''}${s.firstError ? ` first failure: ${s.firstError}` : ''}`,
        );
        if (before)
          for (const l of topBetween(before, await c.snapshot(), s.finished)) console.log(`    ${l}`);
        lines.push(row(label, s));
        return s;
      };
      await run(from, `${surface.name} (warm-up)`);
      // CAPACITY_AT: a capacity known from an earlier run, so that overload steps compare (no ladder).
      const known = Number(process.env.CAPACITY_AT ?? 0);
      const { capacity } = known > 0 ? { capacity: known } : await ladder((rate) => run(rate), from, refine);
      lines.push(`\n**${surface.name}: capacity ${capacity} chats/s**\n`);
      if (surface === chat && capacity > 0) {
        const floorSurface = (i: number) => ({
          url: `${floor.base}/chat`,
          headers,
          body: JSON.stringify({ assistantId: k.assistantId, content: question(i) }),
        });
        const fc = {
          ...(await counters(floor.base, floor.child.pid)),
          server: async () => ({ loopDelayP99: null, firstEventP99: null }),
        };
        const s = await openLoopStep(capacity, seconds, floorSurface, fc);
        lines.push(row('floor (node:http relay)', s));
        console.log(
          `  ${row('floor (node:http relay)', s)}${s.firstError ? ` first failure: ${s.firstError}` : ''}`,
        );
      }
      if (process.env.CAPACITY_OVERLOAD !== '0' && capacity > 0) {
        for (const x of [2, 4]) await run(capacity * x, `${surface.name} at ${x}x capacity`);
      }
    }
    await c.close();
    process.stdout.write(`${lines.join('\n')}\n`);
  } finally {
    await Promise.all(children.map(stopProcess));
    await scratch?.drop();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The scratch database's commits stop waiting for the disk (CAPACITY_ASYNC_COMMIT=1). */
async function asyncCommit(url: string) {
  const { default: pg } = await import('pg');
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    await c.query(`ALTER DATABASE "${new URL(url).pathname.slice(1)}" SET synchronous_commit = off`);
  } finally {
    await c.end();
  }
}

/** Widget chats: a fresh visitor session (its own address) for each chat, made before the step. */
async function widgetSurface(
  base: string,
  owner: Record<string, string>,
  assistantId: string,
  question: (i: number) => string,
): Promise<Surface> {
  const res = await fetch(`${base}/api/assistants/${assistantId}/widget`, {
    method: 'PATCH',
    headers: { ...owner, 'content-type': 'application/json' },
    body: JSON.stringify({ isEnabled: true, allowedDomains: ['shop.example.com'] }),
  });
  if (!res.ok) throw new Error(`widget settings: ${res.status} ${await res.text()}`);
  let next = 0;
  const ip = (i: number) => `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;
  return {
    name: 'widget chat',
    request: async (rate, seconds) => {
      const n = Math.ceil(rate * seconds * 1.3) + 20;
      const sessions: { sessionId: string; token: string; ip: string }[] = [];
      for (let i = 0; i < n; i += 50) {
        const batch = await Promise.all(
          Array.from({ length: Math.min(50, n - i) }, async () => {
            const addr = ip(next++);
            const r = await fetch(`${base}/api/widget/${assistantId}/init`, {
              method: 'POST',
              headers: { origin: SITE, 'x-forwarded-for': addr, 'content-type': 'application/json' },
              body: JSON.stringify({ sessionId: null }),
            });
            if (!r.ok) throw new Error(`init: ${r.status} ${await r.text()}`);
            const { data } = (await r.json()) as { data: { sessionId: string; sessionToken: string } };
            return { sessionId: data.sessionId, token: data.sessionToken, ip: addr };
          }),
        );
        sessions.push(...batch);
      }
      return (i) => {
        const s = sessions[i % sessions.length]!;
        return {
          url: `${base}/api/widget/${assistantId}/chat`,
          headers: { origin: SITE, authorization: `Widget ${s.token}`, 'x-forwarded-for': s.ip },
          body: JSON.stringify({ content: question(i), sessionId: s.sessionId }),
        };
      };
    },
  };
}

if (import.meta.url === `file://${process.argv[1]}`) await runCapacityBench();
