/**
 * Chat benchmark (docs/performance.md "Chat"): chats/s and time to first event (TTFE: the first `data:` line)
 * and to `finish`, at 1, 50 and 200 concurrent clients, through the real server (session cookie,
 * retrieval over a few hundred chunks, a credit per reply, conversation and messages stored) with
 * AI_PROVIDER=openai pointed at the instant stand-in model (test/support/llm-server.ts). Beside it,
 * in the same run, the floor: a bare node:http server that relays the same stand-in's stream as
 * SSE, one stand-in request per client request. Then the built-in offline responder for
 * reference. Target: at 50 clients, app p99 TTFE <= floor p99 TTFE + 10 ms.
 *
 *   npx tsx bench/chat.ts                                                   # PGlite
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/chat.ts  # scratch database
 *
 * CHAT_BENCH_DURATION (measured seconds per sample, default 5), CHAT_BENCH_WARMUP (seconds each
 * sample runs before its measured window, default 1), CHAT_BENCH_ROUNDS (3), CHAT_BENCH_CLIENTS
 * (1,50,200), CHAT_BENCH_OFFLINE (0: skip the offline responder's reference run), CHAT_BENCH_PROFILE (a directory: the server writes a V8 CPU profile there). The
 * server, the floor and the stand-in are separate processes (this file, run with --llm or --floor,
 * is the latter two); the clients run here, on the same cores. "server CPU ms/chat" is the
 * process's CPU time (Linux /proc) over the chats it served, background loops included.
 */
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { Agent } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { postChat } from '../apps/server/test/support/chat-client.ts';
import { cpuOf, seedKnowledge, start, WORDS } from './chat-setup.ts';
import { scratchDatabase, seedOwner, stopProcess } from './support.ts';

const self = fileURLToPath(import.meta.url);
const serverDir = fileURLToPath(new URL('../apps/server/', import.meta.url));
/** What the floor sends the stand-in: a system prompt the size of the app's (instructions + 5 passages). */
const FLOOR_SYSTEM = `You are Kettle Co support. ${WORDS.join(' ').repeat(8)}`;

type Target = { url: string; headers: Record<string, string>; body: (i: number) => string; pid?: number };
type Sample = {
  chats: number;
  seconds: number;
  cpuMs: number;
  ttfe: number[];
  finish: number[];
  /** TTFE of the very first chat of each client, all sent at the same instant (the cold burst). */
  burst: number[];
};

/**
 * `clients` closed-loop clients, each starting its next chat when its last one has finished, for
 * `warmup + seconds`. Only chats started inside the measured window (after the warm-up) count, so
 * the figures are those of the load level held, not of the step from 0 to `clients` requests in
 * one instant; that step is reported on its own (`burst`). CPU is read at the window's edges.
 */
async function sample(t: Target, clients: number, warmup: number, seconds: number): Promise<Sample> {
  const agent = new Agent({ keepAlive: true, maxSockets: clients });
  const s: Sample = { chats: 0, seconds, cpuMs: 0, ttfe: [], finish: [], burst: [] };
  const t0 = performance.now();
  const from = t0 + warmup * 1000;
  const until = from + seconds * 1000;
  let cpuFrom = 0;
  const edge = setTimeout(() => {
    cpuFrom = cpuOf(t.pid);
  }, warmup * 1000);
  const cpuTo = new Promise<number>((resolve) =>
    setTimeout(() => resolve(cpuOf(t.pid)), warmup * 1000 + seconds * 1000),
  );
  let n = 0;
  await Promise.all(
    Array.from({ length: clients }, async () => {
      for (let first = true; performance.now() < until; first = false) {
        const started = performance.now();
        const r = await postChat(t.url, { headers: t.headers, body: t.body(n++), agent }).catch((err) => {
          throw new Error(`${t.url}: ${err instanceof Error ? err.message : err}`);
        });
        if (r.status !== 200 || !r.finish) throw new Error(`${t.url}: ${r.status} ${r.body.slice(0, 500)}`);
        if (first) s.burst.push(r.ttfe);
        if (started < from || started >= until) continue;
        s.ttfe.push(r.ttfe);
        s.finish.push(r.finish);
        s.chats++;
      }
    }),
  );
  clearTimeout(edge);
  s.cpuMs = (await cpuTo) - cpuFrom;
  agent.destroy();
  return s;
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? Number.NaN;
};
const median = (xs: number[]) => pct(xs, 50);
type Summary = {
  rate: number;
  cpu: number;
  ttfe50: number;
  ttfe99: number;
  fin50: number;
  fin99: number;
  burstMax: number;
};
/** Chats/s: the median of the rounds; percentiles over every chat of every round. */
function summarize(xs: Sample[]): Summary {
  const ttfe = xs.flatMap((x) => x.ttfe);
  const finish = xs.flatMap((x) => x.finish);
  return {
    rate: median(xs.map((x) => x.chats / x.seconds)),
    cpu: median(xs.map((x) => x.cpuMs / x.chats)),
    ttfe50: pct(ttfe, 50),
    ttfe99: pct(ttfe, 99),
    fin50: pct(finish, 50),
    fin99: pct(finish, 99),
    burstMax: median(xs.map((x) => Math.max(...x.burst))),
  };
}

/**
 * Alternates target and floor in rounds, so other load weighs on both alike. The first round of
 * each level is preceded by a short unmeasured run of each (JIT and connection warm-up).
 */
async function compare(
  app: Target,
  floor: Target,
  levels: number[],
  opts: { warmup: number; seconds: number; rounds: number },
) {
  const out: { clients: number; app: Summary; floor: Summary }[] = [];
  for (const clients of levels) {
    await sample(app, clients, 0, 2);
    await sample(floor, clients, 0, 2);
    const a: Sample[] = [];
    const f: Sample[] = [];
    for (let r = 0; r < opts.rounds; r++) {
      a.push(await sample(app, clients, opts.warmup, opts.seconds));
      f.push(await sample(floor, clients, opts.warmup, opts.seconds));
    }
    out.push({ clients, app: summarize(a), floor: summarize(f) });
    console.log(`  ${clients} clients: app ${fmt(out.at(-1)!.app)} | floor ${fmt(out.at(-1)!.floor)}`);
  }
  return out;
}

const ms = (x: number) => x.toFixed(1);
const fmt = (s: Summary) =>
  `${s.rate.toFixed(0)} chats/s, TTFE ${ms(s.ttfe50)} / ${ms(s.ttfe99)} ms, finish ${ms(s.fin50)} / ${ms(s.fin99)} ms, ${ms(s.cpu)} ms CPU/chat, burst max ${ms(s.burstMax)} ms`;

export async function runChatBench() {
  const seconds = Number(process.env.CHAT_BENCH_DURATION ?? 5);
  const warmup = Number(process.env.CHAT_BENCH_WARMUP ?? 1);
  const rounds = Number(process.env.CHAT_BENCH_ROUNDS ?? 3);
  const opts = { warmup, seconds, rounds };
  const levels = (process.env.CHAT_BENCH_CLIENTS ?? '1,50,200').split(',').map(Number);
  const dir = mkdtempSync(join(tmpdir(), 'parley-chat-bench-'));
  const children: ChildProcess[] = [];
  const scratch = process.env.DATABASE_URL
    ? await scratchDatabase(process.env.DATABASE_URL, 'chat')
    : undefined;
  const launch = async (args: string[], env: NodeJS.ProcessEnv, log: string, ready = /READY (\d+)/) => {
    const p = await start(args, serverDir, env, join(dir, log), ready);
    children.push(p.child);
    return p;
  };
  try {
    const base: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: process.env.HOME };
    const llm = await launch([self, '--llm'], base, 'llm.log');
    const aiBase = `${llm.base}/v1`;
    const floor = await launch([self, '--floor'], { ...base, AI_BASE_URL: aiBase }, 'floor.log');
    const env: NodeJS.ProcessEnv = {
      ...base,
      NODE_ENV: 'production',
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: join(dir, 'app'),
      LOG_LEVEL: process.env.LOG_LEVEL ?? 'info',
      API_RATE_LIMIT_PER_MINUTE: '1000000000',
      // Closed loop at 200 clients is overload by design; its figures are of queueing, not shedding
      // (bench/capacity.ts measures that): no chat is refused here.
      CHAT_SHED_AFTER_MS: '0',
      CHAT_SHED_LOOP_DELAY_MS: '0',
      CHAT_START_TARGET_MS: '0',
      ...(scratch ? { DATABASE_URL: scratch.url } : {}),
      ...(process.env.REDIS_URL ? { REDIS_URL: process.env.REDIS_URL } : {}),
    };
    mkdirSync(env.DATA_DIR!, { recursive: true });
    const s = await seedOwner(env, { plan: 'enterprise', monthlyCredits: 1_000_000_000 });
    const ready = /Parley is ready: http:\/\/[^:]+:(\d+)/;
    const remoteEnv = { ...env, AI_PROVIDER: 'openai', AI_BASE_URL: aiBase, AI_MODEL: 'stand-in' };
    let app = await launch(['src/main.ts'], remoteEnv, 'app.log', ready);
    const k = await seedKnowledge(app.base, { cookie: s.cookie, origin: app.base }, s.workspaceId);
    const target = (url: string, child: ChildProcess): Target => ({
      url,
      pid: child.pid,
      headers: { cookie: s.cookie, origin: new URL(url).origin },
      body: (i) =>
        JSON.stringify({ assistantId: k.assistantId, content: k.questions[(i * 37) % k.questions.length] }),
    });
    const floorTarget = target(`${floor.base}/chat`, floor.child);
    const kind = scratch ? 'PostgreSQL' : 'PGlite';
    console.log(
      `chat benchmark on ${kind}: ${k.chunks} chunks; ${rounds} rounds of ${warmup} s warm-up + ${seconds} s measured; node ${process.version}`,
    );
    console.log('stand-in model (AI_PROVIDER=openai, instant) vs floor:');
    const remote = await compare(target(`${app.base}/api/chat`, app.child), floorTarget, levels, opts);
    await stopProcess(app.child);
    const title = `${kind} (${k.chunks} chunks; ${rounds} rounds of ${warmup} s warm-up + ${seconds} s measured per target)`;
    if (process.env.CHAT_BENCH_OFFLINE === '0') {
      report(title, remote, []);
      return { remote, offline: [] };
    }
    // The same data with the built-in offline responder (no stand-in), for reference.
    app = await launch(['src/main.ts'], { ...env, AI_PROVIDER: 'offline' }, 'app-offline.log', ready);
    console.log('built-in offline responder (AI_PROVIDER=offline) vs the same floor:');
    const offline = await compare(target(`${app.base}/api/chat`, app.child), floorTarget, levels, opts);
    report(
      `${kind} (${k.chunks} chunks; ${rounds} rounds of ${warmup} s warm-up + ${seconds} s measured per target)`,
      remote,
      offline,
    );
    return { remote, offline };
  } catch (err) {
    // The servers' warnings and errors (the model call's, for one) say why a chat failed.
    for (const log of ['app.log', 'app-offline.log', 'floor.log']) {
      const text = existsSync(join(dir, log)) ? readFileSync(join(dir, log), 'utf8') : '';
      const bad = text.split('\n').filter((l) => /"level":[45]\d|Error/.test(l));
      if (bad.length) console.error(`${log}:\n${bad.slice(-5).join('\n')}`);
    }
    throw err;
  } finally {
    await Promise.all(children.map(stopProcess));
    await scratch?.drop();
    rmSync(dir, { recursive: true, force: true });
  }
}

type Compared = Awaited<ReturnType<typeof compare>>;

function report(title: string, remote: Compared, offline: Compared) {
  const row = (name: string, clients: number, s: Summary, vs = '') =>
    `| ${name} | ${clients} | ${s.rate.toFixed(0)} | ${ms(s.ttfe50)} / ${ms(s.ttfe99)} | ${ms(s.fin50)} / ${ms(s.fin99)} | ${ms(s.cpu)} | ${ms(s.burstMax)} | ${vs} |`;
  const vs = (a: Summary, f: Summary) => {
    const d = a.ttfe99 - f.ttfe99;
    return `${((100 * a.rate) / f.rate).toFixed(1)}% of chats/s; p99 TTFE ${d >= 0 ? '+' : ''}${ms(d)} ms`;
  };
  const lines = [
    `\nChat benchmark on ${title}; chats/s and CPU: medians of rounds; percentiles over all chats. node ${process.version}\n`,
    '| target | clients | chats/s | TTFE p50 / p99 ms | finish p50 / p99 ms | server CPU ms/chat | burst max TTFE ms | app vs floor |',
    '|---|---:|---:|---:|---:|---:|---:|---|',
    ...remote.flatMap((r) => [
      row('app, stand-in model', r.clients, r.app, vs(r.app, r.floor)),
      row('floor (node:http relay)', r.clients, r.floor),
    ]),
    ...offline.map((r) => row('app, offline responder', r.clients, r.app, vs(r.app, r.floor))),
  ];
  const at50 = remote.find((r) => r.clients === 50);
  if (at50) {
    const limit = at50.floor.ttfe99 + 10;
    lines.push(
      `\nTarget at 50 clients, app p99 TTFE <= floor p99 + 10 ms: ${ms(at50.app.ttfe99)} vs ${ms(limit)} ms: ${at50.app.ttfe99 <= limit ? 'met' : 'NOT met'}`,
    );
  }
  process.stdout.write(`${lines.join('\n')}\n`);
}

// Last, so that every const above is initialised. The same file is the stand-in and floor processes.
if (process.argv[2] === '--llm') {
  // Keep-alive like a provider's (tens of seconds), not Node's default 5 s: with PGlite at 200
  // clients the app's event loop stalls long enough for its idle model connections to pass 5 s,
  // and a request sent as the stand-in closes one fails ("other side closed"; see
  // docs/performance.md). startLlmServer does not expose its server, so set it at listen.
  const { Server } = await import('node:http');
  const listen = Server.prototype.listen;
  Server.prototype.listen = function (this: InstanceType<typeof Server>, ...args: unknown[]) {
    this.keepAliveTimeout = 65_000;
    return listen.apply(this, args as Parameters<typeof listen>);
  } as typeof listen;
  const { startLlmServer } = await import('../apps/server/test/support/llm-server.ts');
  const llm = await startLlmServer({ instant: true });
  // It records every request; a run sends hundreds of thousands, so forget them as they come.
  setInterval(() => {
    llm.requests.length = 0;
  }, 1000).unref();
  process.stdout.write(`READY ${new URL(llm.url).port}\n`);
  process.on('SIGTERM', () => void llm.close().finally(() => process.exit(0)));
} else if (process.argv[2] === '--floor') {
  const { startRelayFloor } = await import('../apps/server/test/support/relay-floor.ts');
  const floor = await startRelayFloor(process.env.AI_BASE_URL!, FLOOR_SYSTEM);
  process.stdout.write(`READY ${new URL(floor.url).port}\n`);
  process.on('SIGTERM', () => void floor.close().finally(() => process.exit(0)));
} else if (import.meta.url === `file://${process.argv[1]}`) {
  await runChatBench();
}
