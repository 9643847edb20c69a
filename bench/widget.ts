/**
 * Widget benchmark (docs/performance.md "Widget"): memory per open session event stream, the latency of agent
 * replies fanned out to 2,000 open streams, and widget chat throughput with many client IPs.
 * Target: 5,000 open streams at under 30 KB each. Results in docs/performance.md.
 *
 *   npx tsx bench/widget.ts                                                          # PGlite
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/widget.ts  # scratch database
 *   (add REDIS_URL=redis://127.0.0.1:6379 for the fan-out through Redis)
 *
 * WIDGET_BENCH_STREAMS (5000), WIDGET_BENCH_FANOUT (2000), WIDGET_BENCH_CLIENTS (50),
 * WIDGET_BENCH_DURATION (seconds per throughput sample, 5), WIDGET_BENCH_ROUNDS (3). Needs a file
 * limit above the streams (`ulimit -n 20000`): each stream is a socket here and one in the server.
 *
 * Two runs of the real server (src/main.ts) on one database. The first creates the sessions
 * through `POST .../init` (each from its own address) and measures chat throughput. Between the
 * runs each session gets its conversation in the database, as its first chat would make it (the
 * widget opens its event stream only once a conversation exists: apps/widget/src/conversation.ts;
 * and no public route tells a visitor the conversation's id, which the agent's POST needs). A
 * fresh server then measures memory and fan-out, and so does the floor: a bare node:http server
 * holding the same streams (this file with --floor; widget-support.ts startFloor).
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { Agent } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { waitFor } from '../apps/server/test/support/wait.ts';
import { type Rate, throughput } from './widget-chat.ts';
import {
  call,
  ipOf,
  type OnEvent,
  openStream,
  pct,
  pool,
  type Server,
  type Session,
  SITE,
  type Stream,
  scratchDatabase,
  seed,
  seedConversations,
  sleep,
  startFloor,
  startServer,
  stopServer,
} from './widget-support.ts';

const serverDir = fileURLToPath(new URL('../apps/server/', import.meta.url));
const self = fileURLToPath(import.meta.url);

type Memory = {
  streams: number;
  label: string;
  rss: number;
  heap: number;
  external: number;
  left: number;
  /** Streams opened per second. */
  opened: number;
  /** The first streams of their process: RSS is meaningful (later ones reuse freed pages). */
  fresh: boolean;
};
type Latency = {
  label: string;
  p50: number;
  p99: number;
  max: number;
  post50: number;
  after50: number;
  after99: number;
  total?: number;
};

/** Opens one stream per session (a few hundred handshakes at a time); closes them on failure. */
async function openAll(
  server: Server,
  assistantId: string,
  sessions: Session[],
  onEvent: OnEvent = () => {},
) {
  const streams: Stream[] = [];
  try {
    await pool(sessions, 200, async (s) => {
      streams.push(await openStream(server.base, assistantId, s, onEvent));
    });
  } catch (err) {
    for (const st of streams) st.close();
    throw err;
  }
  return streams;
}

/** Server memory before, with and after closing the streams that `open` opens (GC before each). */
async function memoryOf(
  server: Server,
  label: string,
  open: () => Promise<Stream[]>,
  keep = false,
  fresh = false,
) {
  const before = await server.memory();
  const t0 = performance.now();
  const streams = await open();
  const opened = streams.length / ((performance.now() - t0) / 1000);
  await sleep(1000); // measurement pacing: the streams settle before the memory reading
  const during = await server.memory();
  const n = streams.length;
  const per = (a: number, b: number) => (a - b) / n / 1024;
  const m: Memory = {
    streams: n,
    label,
    rss: per(during.rss, before.rss),
    heap: per(during.heapUsed, before.heapUsed),
    external: per(during.external, before.external),
    left: 0,
    opened,
    fresh,
  };
  if (keep) return { m, streams };
  for (const st of streams) st.close();
  // Until the server has seen them all close: the heap stops shrinking (at most 10 s).
  let after = Number.POSITIVE_INFINITY;
  for (let i = 0; i < 10; i++) {
    await sleep(1000);
    const now = (await server.memory()).heapUsed;
    if (now > after * 0.99) break;
    after = now;
  }
  m.left = per(after, before.heapUsed);
  return { m, streams: [] };
}

/**
 * Agent messages matched to their arrivals by content: latency from the POST being sent (on its
 * socket) and from its 201 coming back (negative: the stream had it before the agent had its
 * answer; postAgentMessage publishes before it replies).
 */
function tracker() {
  const sent = new Map<string, number>();
  const done = new Map<string, number>();
  const got: Array<[string, number]> = [];
  const onEvent: OnEvent = (e, at) => {
    if (e.type === 'message' && e.message?.content) got.push([e.message.content, at]);
  };
  const post = async (
    url: string,
    key: string,
    body: { conversationId: string; content: string },
    agent?: Agent,
  ) => {
    await call('POST', url, { authorization: key }, body, {
      ...(agent ? { agent } : {}),
      sent: () => sent.set(body.content, performance.now()),
    });
    done.set(body.content, performance.now());
  };
  const summary = (label: string, expected: number, start?: number): Latency => {
    if (got.length < expected) throw new Error(`${label}: ${got.length} of ${expected} delivered`);
    const lat = got.map(([c, at]) => at - sent.get(c)!);
    const after = got.map(([c, at]) => at - done.get(c)!);
    const posts = [...done].map(([c, t]) => t - sent.get(c)!);
    const last = Math.max(...got.map(([, at]) => at));
    return {
      ...{ label, p50: pct(lat, 50), p99: pct(lat, 99), max: Math.max(...lat) },
      ...{ post50: pct(posts, 50), after50: pct(after, 50), after99: pct(after, 99) },
      ...(start === undefined ? {} : { total: last - start }),
    };
  };
  const wait = (n: number) => waitFor(() => got.length >= n, 15_000, `${n} messages delivered`);
  return { onEvent, post, summary, wait };
}

/** (a) `n` streams of ONE session; `rounds` agent messages one after another. */
async function fanOutOne(
  server: Server,
  a: { id: string; key: string },
  s: Session,
  conv: string,
  n: number,
) {
  const t = tracker();
  const streams = await openAll(server, a.id, Array(n).fill(s), t.onEvent);
  const rounds = 5;
  for (let r = 0; r < rounds; r++) {
    await t.post(`${server.base}/api/v1/messages`, a.key, {
      conversationId: conv,
      content: `Agent reply ${r}`,
    });
    await t.wait((r + 1) * n);
    await sleep(200); // measurement pacing: a gap between rounds
  }
  for (const st of streams) st.close();
  await sleep(1000); // the server has seen them close before the next memory reading
  return t.summary(`${server.name}: ${n} streams of one session, ${rounds} messages in turn`, rounds * n);
}

/** (b) one stream per session (each its own conversation), one agent message to each in a burst. */
async function fanOutBurst(
  server: Server,
  a: { id: string; key: string },
  chatted: Array<[Session, string]>,
) {
  const t = tracker();
  const sessions = chatted.map(([s]) => s);
  const label = `${server.name}: ${chatted.length} streams, one session each (fan-out run)`;
  const { m, streams } = await memoryOf(
    server,
    label,
    () => openAll(server, a.id, sessions, t.onEvent),
    true,
  );
  // The agents' side: one keep-alive pool of 50 connections, warmed up, like an inbox backend.
  const posters = new Agent({ keepAlive: true, maxSockets: 50 });
  const warm = () => call('GET', `${server.base}/healthz`, {}, undefined, { agent: posters });
  await Promise.all(Array.from({ length: 50 }, warm));
  const start = performance.now();
  await Promise.all(
    chatted.map(([, conversationId], i) =>
      t.post(
        `${server.base}/api/v1/messages`,
        a.key,
        { conversationId, content: `Burst reply ${i}` },
        posters,
      ),
    ),
  );
  await t.wait(chatted.length);
  for (const st of streams) st.close();
  posters.destroy();
  return {
    m,
    l: t.summary(
      `${server.name}: ${chatted.length} sessions, one message each at once`,
      chatted.length,
      start,
    ),
  };
}

export async function runWidgetBench() {
  const total = Number(process.env.WIDGET_BENCH_STREAMS ?? 5000);
  const fan = Math.min(total, Number(process.env.WIDGET_BENCH_FANOUT ?? 2000));
  const clients = Number(process.env.WIDGET_BENCH_CLIENTS ?? 50);
  const seconds = Number(process.env.WIDGET_BENCH_DURATION ?? 5);
  const rounds = Number(process.env.WIDGET_BENCH_ROUNDS ?? 3);
  const dir = mkdtempSync(join(tmpdir(), 'parley-widget-bench-'));
  const scratch = process.env.DATABASE_URL
    ? await scratchDatabase(process.env.DATABASE_URL, 'widget')
    : undefined;
  const kind = `${scratch ? 'PostgreSQL' : 'PGlite'}${process.env.REDIS_URL ? ' + Redis' : ''}`;
  let server: Server | undefined;
  let failed = false;
  try {
    const env: NodeJS.ProcessEnv = {
      ...{
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        NODE_ENV: 'production',
        PORT: '0',
        HOST: '127.0.0.1',
      },
      ...{ DATA_DIR: join(dir, 'app'), LOG_LEVEL: process.env.LOG_LEVEL ?? 'info', AI_PROVIDER: 'offline' },
      // Every client has its own address (X-Forwarded-For); the throughput clients send more
      // than the default 5 POSTs a minute each, so the per-IP budget is raised (it still runs).
      ...{
        TRUST_PROXY: 'true',
        WIDGET_RATE_LIMIT_PER_MINUTE: '1000000000',
        API_RATE_LIMIT_PER_MINUTE: '1000000000',
        // Closed-loop throughput, as before shedding existed (bench/capacity.ts measures that).
        CHAT_SHED_AFTER_MS: '0',
        CHAT_SHED_LOOP_DELAY_MS: '0',
        CHAT_START_TARGET_MS: '0',
      },
      ...(scratch ? { DATABASE_URL: scratch.url } : {}),
      ...(process.env.REDIS_URL ? { REDIS_URL: process.env.REDIS_URL } : {}),
    };
    mkdirSync(env.DATA_DIR!, { recursive: true });
    const s = await seed(env);
    server = await startServer(serverDir, env, join(dir, 'app-1.log'));
    const base = server.base;
    const owner = { cookie: s.cookie, origin: base };
    const { data: assistant } = await call('POST', `${base}/api/assistants`, owner, {
      workspaceId: s.workspaceId,
      name: 'Kettle Co',
      instructions: 'You are Kettle Co support. Be brief.',
    });
    const a = { id: assistant.id as string, key: s.apiKey, cookie: s.cookie };
    await call('PATCH', `${base}/api/assistants/${a.id}/widget`, owner, {
      isEnabled: true,
      allowedDomains: ['shop.example.com'],
    });
    console.log(`widget benchmark on ${kind}: ${total} sessions; node ${process.version}`);
    const t = performance.now();
    const sessions = await pool(
      Array.from({ length: total + clients }, (_, i) => i),
      50,
      async (i) => {
        const { data } = await call(
          'POST',
          `${base}/api/widget/${a.id}/init`,
          { origin: SITE, 'x-forwarded-for': ipOf(i) },
          { sessionId: null, metadata: { page: `${SITE}/pricing` } },
        );
        return { sessionId: data.sessionId as string, token: data.sessionToken as string, ip: ipOf(i) };
      },
    );
    const visitors = sessions.slice(0, total);
    console.log(`  ${sessions.length} inits in ${((performance.now() - t) / 1000).toFixed(1)} s`);
    const rates = await throughput(server, a, sessions.slice(total), seconds, rounds);
    for (const r of rates)
      console.log(
        `  ${r.label}: ${r.rate.toFixed(0)} chats/s, TTFE ${r.ttfe50.toFixed(1)} / ${r.ttfe99.toFixed(1)} ms`,
      );
    await stopServer(server.child);

    const conversations = await seedConversations(
      env,
      a.id,
      visitors.map((v) => v.sessionId),
    );
    const chatted = visitors.map((v, i): [Session, string] => [v, conversations[i]!]);
    // A fresh process for memory: nothing above (chats, caches) is in its heap.
    server = await startServer(serverDir, env, join(dir, 'app-2.log'));
    const srv = server;
    for (const st of await openAll(srv, a.id, visitors.slice(0, 100))) st.close(); // warm-up
    await sleep(500); // measurement pacing: the warm-up streams are gone before the memory run
    const open = (s: Server) => () => openAll(s, a.id, visitors);
    const mem = [(await memoryOf(srv, `app: ${total} streams, one session each`, open(srv), false, true)).m];
    const lat = [await fanOutOne(srv, a, chatted[0]![0], chatted[0]![1], fan)];
    const burst = await fanOutBurst(srv, a, chatted.slice(0, fan));
    mem.push(burst.m);
    lat.push(burst.l);
    await stopServer(srv.child);
    // The floor, the same again on a bare node:http server (keyed by session, not conversation).
    server = await startServer(serverDir, env, join(dir, 'floor.log'), [self, '--floor'], 'floor');
    const floor = server;
    for (const st of await openAll(floor, a.id, visitors.slice(0, 100))) st.close();
    await sleep(500); // measurement pacing: as above
    mem.push((await memoryOf(floor, `floor: ${total} streams`, open(floor), false, true)).m);
    lat.push(await fanOutOne(floor, a, visitors[0]!, visitors[0]!.sessionId, fan));
    const floorBurst = await fanOutBurst(
      floor,
      a,
      chatted.slice(0, fan).map(([v]): [Session, string] => [v, v.sessionId]),
    );
    mem.push(floorBurst.m);
    lat.push(floorBurst.l);
    report(kind, { mem, lat, rates, total });
  } catch (err) {
    failed = true;
    console.error(`server logs kept in ${dir}`);
    throw err;
  } finally {
    if (server) await stopServer(server.child);
    await scratch?.drop();
    if (!failed) rmSync(dir, { recursive: true, force: true });
  }
}

const f1 = (x: number) => x.toFixed(1);

function report(kind: string, r: { mem: Memory[]; lat: Latency[]; rates: Rate[]; total: number }) {
  const lines = [
    `\nWidget benchmark on ${kind}, node ${process.version}. Server memory after a full GC, per open stream:\n`,
    '| open streams | RSS KB/stream | heapUsed KB/stream | external KB/stream | heap left after closing, KB/stream | opened/s |',
    '|---|---:|---:|---:|---:|---:|',
    ...r.mem.map(
      (m) =>
        `| ${m.label} | ${m.fresh ? f1(m.rss) : 'n/a'} | ${f1(m.heap)} | ${f1(m.external)} | ${m.left ? f1(m.left) : ''} | ${m.opened.toFixed(0)} |`,
    ),
    '\nRSS only for the first streams of a process: later ones reuse pages freed by earlier ones.',
    '\n| agent messages | POST sent → stream p50 / p99 / max ms | POST → 201 p50 ms | 201 → stream p50 / p99 ms | burst start → last delivery ms |',
    '|---|---:|---:|---:|---:|',
    ...r.lat.map(
      (l) =>
        `| ${l.label} | ${f1(l.p50)} / ${f1(l.p99)} / ${f1(l.max)} | ${f1(l.post50)} | ${f1(l.after50)} / ${f1(l.after99)} | ${l.total ? f1(l.total) : ''} |`,
    ),
    '\n| chat (built-in offline responder) | chats/s | TTFE p50 / p99 ms |',
    '|---|---:|---:|',
    ...r.rates.map((x) => `| ${x.label} | ${x.rate.toFixed(0)} | ${f1(x.ttfe50)} / ${f1(x.ttfe99)} |`),
  ];
  const m = r.mem[0]!;
  lines.push(
    `\nTarget ${r.total} open streams under 30 KB each (RSS): ${f1(m.rss)} KB: ${m.rss < 30 ? 'met' : 'NOT met'}`,
  );
  process.stdout.write(`${lines.join('\n')}\n`);
}

// Last: the same file is the floor's process.
if (process.argv[2] === '--floor') startFloor();
else if (import.meta.url === `file://${process.argv[1]}`) await runWidgetBench();
