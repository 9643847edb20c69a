import { readdirSync, readFileSync } from 'node:fs';
import { Agent } from 'node:http';
import { postChat } from '../apps/server/test/support/chat-client.ts';
import { cpuOf } from './chat-setup.ts';

/**
 * One step of bench/capacity.ts: chats arriving as a Poisson process at `rate` a second for
 * `seconds`, each sent at its own time whether or not the earlier ones have answered (open loop:
 * customers do not wait for each other). Every chat is then waited for (at most `drainMs` after
 * the window), and the step reports what it saw and what it cost the server and the database.
 */
export type ChatRequest = { url: string; headers: Record<string, string>; body: string };

export type StepCounters = {
  /** CPU ms of the server process (Linux /proc). */
  serverCpu(): number;
  /** CPU ms of every PostgreSQL process (0 on PGlite: it runs inside the server). */
  databaseCpu(): number;
  /** Committed + rolled-back transactions and executed statements so far (PostgreSQL only). */
  databaseWork(): Promise<{ xacts: number; statements: number } | null>;
  /** The server's own readings since the last call (its /metrics). */
  server(): Promise<ServerReadings>;
};

export type Step = {
  rate: number;
  sent: number;
  finished: number;
  /** Answered 503 or with the stream's `busy` event: refused in time, as overload should be. */
  shed: number;
  /** Reset connections, other statuses, streams without `finish`. */
  failed: number;
  ttfe50: number;
  ttfe99: number;
  finish99: number;
  serverCpuPerChat: number;
  databaseCpuPerChat: number;
  xactsPerChat: number | null;
  statementsPerChat: number | null;
  loopDelayP99: number | null;
  /** The server's own arrival-to-first-event p99 (a bucket's upper bound), ms. */
  serverTtfe99: number | null;
  /** The server's own count of the chats it shed, by reason. */
  shedBy: Record<string, number>;
  /** p99 TTFE < 100 ms, p99 finish < 1 s, nothing failed or shed. */
  pass: boolean;
  firstError?: string;
};

export const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? Number.NaN;
};

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Arrival times (ms from the start) of a Poisson process at `rate` a second over `seconds`. */
function arrivals(rate: number, seconds: number): number[] {
  const out: number[] = [];
  for (let t = 0; ; ) {
    t += (-Math.log(1 - Math.random()) / rate) * 1000;
    if (t >= seconds * 1000) return out;
    out.push(t);
  }
}

export async function openLoopStep(
  rate: number,
  seconds: number,
  request: (i: number) => ChatRequest,
  counters: StepCounters,
  drainMs = 30_000,
): Promise<Step> {
  const agent = new Agent({ keepAlive: true, maxSockets: Number.POSITIVE_INFINITY });
  const times = arrivals(rate, seconds);
  const ttfe: number[] = [];
  const finish: number[] = [];
  let shed = 0;
  let failed = 0;
  let firstError: string | undefined;
  const fail = (why: string) => {
    failed++;
    firstError ??= why;
  };
  await counters.server();
  const before = {
    server: counters.serverCpu(),
    db: counters.databaseCpu(),
    work: await counters.databaseWork(),
  };
  const inFlight: Promise<void>[] = [];
  const t0 = performance.now();
  for (let i = 0; i < times.length; i++) {
    const wait = t0 + times[i]! - performance.now();
    if (wait > 1) await sleep(wait);
    const q = request(i);
    inFlight.push(
      postChat(q.url, { headers: q.headers, body: q.body, agent }).then(
        (r) => {
          if (r.status === 503 || (r.status === 200 && r.body.includes('"type":"busy"'))) shed++;
          else if (r.status !== 200 || !r.finish) fail(`${r.status} ${r.body.slice(0, 200)}`);
          else {
            ttfe.push(r.ttfe);
            finish.push(r.finish);
          }
        },
        (err: unknown) => fail(err instanceof Error ? err.message : String(err)),
      ),
    );
  }
  const drained = await Promise.race([
    Promise.all(inFlight).then(() => true),
    sleep(seconds * 1000 + drainMs).then(() => false),
  ]);
  const after = {
    server: counters.serverCpu(),
    db: counters.databaseCpu(),
    work: await counters.databaseWork(),
  };
  const { loopDelayP99, firstEventP99, shedBy } = await counters.server();
  agent.destroy();
  const done = ttfe.length;
  if (!drained) fail(`${times.length - done - shed - failed} chats still open after the drain`);
  const served = Math.max(1, done);
  const s: Step = {
    rate,
    sent: times.length,
    finished: done,
    shed,
    failed: drained ? failed : times.length - done - shed,
    ttfe50: pct(ttfe, 50),
    ttfe99: pct(ttfe, 99),
    finish99: pct(finish, 99),
    serverCpuPerChat: (after.server - before.server) / served,
    databaseCpuPerChat: (after.db - before.db) / served,
    xactsPerChat: after.work && before.work ? (after.work.xacts - before.work.xacts) / served : null,
    statementsPerChat:
      after.work && before.work ? (after.work.statements - before.work.statements) / served : null,
    loopDelayP99,
    serverTtfe99: firstEventP99,
    shedBy: shedBy ?? {},
    pass: false,
    ...(firstError ? { firstError } : {}),
  };
  s.pass = s.failed === 0 && s.shed === 0 && done > 0 && s.ttfe99 < 100 && s.finish99 < 1000;
  return s;
}

/** CPU ms used so far by every process whose command name is `name` (Linux /proc). */
export function cpuOfAll(name: string): number {
  let total = 0;
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      if (stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')) === name) total += cpuOf(Number(pid));
    } catch {
      // Gone between the listing and the read.
    }
  }
  return total;
}

export type ServerReadings = {
  loopDelayP99: number | null;
  firstEventP99: number | null;
  /** Chats the server shed since the last call, by its reason (lib/admission.ts). */
  shedBy?: Record<string, number>;
};

/**
 * Reads the server's /metrics since the last call: its event-loop delay p99 (prom-client resets
 * that histogram at each scrape) and the p99 of its own time from a chat's arrival to its first
 * event (the upper bound of the bucket that reaches 99% of the chats since the last call; every
 * surface). Set beside the client's TTFE, the latter tells the time a chat spent in the server
 * from the time it spent before the server read it or after the server wrote its event.
 */
export function serverReadings(base: string, token: string): () => Promise<ServerReadings> {
  let last = new Map<number, number>();
  let lastShed = new Map<string, number>();
  return async () => {
    const res = await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${token}` } }).catch(
      () => null,
    );
    if (!res?.ok) return { loopDelayP99: null, firstEventP99: null };
    const text = await res.text();
    const m = /^parley_nodejs_eventloop_lag_p99_seconds (\S+)$/m.exec(text);
    const now = new Map<number, number>();
    for (const b of text.matchAll(
      /^parley_chat_first_event_seconds_bucket\{[^}]*le="([^"]+)"[^}]*\} (\S+)$/gm,
    )) {
      const le = b[1] === '+Inf' ? Number.POSITIVE_INFINITY : Number(b[1]);
      now.set(le, (now.get(le) ?? 0) + Number(b[2]));
    }
    const bounds = [...now.keys()].sort((a, b) => a - b);
    const diff = bounds.map((le) => (now.get(le) ?? 0) - (last.get(le) ?? 0));
    last = now;
    const shed = new Map<string, number>();
    for (const r of text.matchAll(/^parley_chats_shed_total\{reason="([^"]+)"\} (\S+)$/gm))
      shed.set(r[1]!, Number(r[2]));
    const shedBy = Object.fromEntries(
      [...shed].map(([reason, n]) => [reason, n - (lastShed.get(reason) ?? 0)]).filter(([, n]) => n !== 0),
    );
    lastShed = shed;
    const total = diff.at(-1) ?? 0;
    const at = diff.findIndex((n) => n >= 0.99 * total);
    return {
      loopDelayP99: m ? Number(m[1]) * 1000 : null,
      firstEventP99: total > 0 && at >= 0 ? bounds[at]! * 1000 : null,
      shedBy,
    };
  };
}
