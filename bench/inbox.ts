/**
 * Inbox benchmark (docs/performance.md "Inbox"): the inbox list with 100,000 conversations in the
 * workspace (first pages and cursor pages deep in the list, under every filter, labels among them:
 * a common one, one of a few percent, a rare one, a past campaign's on old conversations only, and
 * the common and the rare one with status=handoff), and the time from an agent's reply to the
 * visitor's open widget stream, across two server processes.
 * Targets on PostgreSQL: list p95 under 50 ms; reply → stream p99 under 100 ms.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres REDIS_URL=redis://127.0.0.1:6379 \
 *     npx tsx bench/inbox.ts       # a scratch database beside the one named; two processes
 *   npx tsx bench/inbox.ts         # PGlite: one process (it cannot be shared), no cross-process part
 *
 * INBOX_BENCH_CONVERSATIONS (100000), INBOX_BENCH_REQUESTS (200 per list case),
 * INBOX_BENCH_REPLIES (300), INBOX_BENCH_VISITORS (20); INBOX_BENCH_ONLY=sla runs only the SLA
 * order's and filter's cases (no other list case, no reply part).
 *
 * The SLA cases (docs/sla.md "In the inbox"): `sort=sla` (the soonest due time first, those with
 * no clock last) on its first page, 2,000 rows into the part with due times and 2,000 rows into
 * the no-clock tail, alone, with a common and a rare label and with status=handoff; and
 * `slaBreached=true`, in the default order and with `sort=sla`. The conversations in handoff
 * carry SLA clocks and some a breach (bench/inbox-seed.ts `benchSlaPolicies`).
 *
 * The conversations are written straight into the database (one INSERT ... SELECT, with their
 * label sets drawn from 13 labels: bench/inbox-seed.ts `benchLabels`): creating
 * 100,000 through real chats would take most of the run. The floor, measured in the same run and
 * process, is `GET /api/account` (the same credential and tenant checks, one small read): the
 * list's cost over it is the inbox's own.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { deepCursorOf, slaCursorsOf } from './inbox-cursors.ts';
import {
  type BenchLabel,
  type ExplainCase,
  explain,
  explainSla,
  seedInbox,
  seedMembers,
} from './inbox-seed.ts';
import { seedOwner } from './support.ts';
import {
  call,
  ipOf,
  openStream,
  pct,
  pool,
  type Server,
  SITE,
  type Stream,
  scratchDatabase,
  startServer,
  stopServer,
} from './widget-support.ts';

const serverDir = fileURLToPath(new URL('../apps/server/', import.meta.url));
const total = Number(process.env.INBOX_BENCH_CONVERSATIONS ?? 100_000);
const requests = Number(process.env.INBOX_BENCH_REQUESTS ?? 200);
const replies = Number(process.env.INBOX_BENCH_REPLIES ?? 300);
const visitors = Number(process.env.INBOX_BENCH_VISITORS ?? 20);
const slaOnly = process.env.INBOX_BENCH_ONLY === 'sla';

const ms = (x: number) => `${x.toFixed(1)} ms`;
/** The machine is shared: its load (1-minute average) goes with the figures. */
const load = () => loadavg()[0]!.toFixed(1);

/**
 * Sequential GETs, each followed by one of the floor: the two share whatever load the machine
 * carries at that moment (it is shared), so their ratio holds when the absolute times drift.
 */
async function timed(label: string, url: () => string, floorUrl: string, headers: Record<string, string>) {
  const times: number[] = [];
  const floor: number[] = [];
  for (let i = 0; i < requests; i++) {
    let t0 = performance.now();
    await call('GET', url(), headers);
    times.push(performance.now() - t0);
    t0 = performance.now();
    await call('GET', floorUrl, headers);
    floor.push(performance.now() - t0);
  }
  return { label, p50: pct(times, 50), p95: pct(times, 95), p99: pct(times, 99), floorP95: pct(floor, 95) };
}

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'parley-inbox-bench-'));
  const scratch = process.env.DATABASE_URL
    ? await scratchDatabase(process.env.DATABASE_URL, 'inbox')
    : undefined;
  const redis = process.env.REDIS_URL;
  const kind = `${scratch ? 'PostgreSQL' : 'PGlite'}${redis ? ' + Redis' : ''}`;
  const servers: Server[] = [];
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
      ...{ DATA_DIR: join(dir, 'app'), LOG_LEVEL: 'warn', AI_PROVIDER: 'offline' },
      ...{
        TRUST_PROXY: 'true',
        WIDGET_RATE_LIMIT_PER_MINUTE: '1000000000',
        API_RATE_LIMIT_PER_MINUTE: '1000000000',
      },
      ...(scratch ? { DATABASE_URL: scratch.url } : {}),
      ...(redis ? { REDIS_URL: redis } : {}),
    };
    mkdirSync(env.DATA_DIR!, { recursive: true });
    const s = await seedOwner(env, { plan: 'enterprise', monthlyCredits: 1_000_000_000 });
    const members = await seedMembers(env, s.workspaceId);
    // One process on PGlite (its files cannot be shared); two on PostgreSQL.
    const a = await startServer(serverDir, env, join(dir, 'a.log'), ['src/main.ts'], 'a');
    servers.push(a);
    const owner = { cookie: s.cookie, origin: a.base };
    const assistantIds: string[] = [];
    for (let i = 0; i < 4; i++) {
      const { data } = await call('POST', `${a.base}/api/assistants`, owner, {
        workspaceId: s.workspaceId,
        name: `A${i}`,
      });
      assistantIds.push(data.id as string);
    }
    await call('PATCH', `${a.base}/api/assistants/${assistantIds[0]}/widget`, owner, {
      isEnabled: true,
      allowedDomains: ['shop.example.com'],
    });
    console.log(
      `inbox benchmark on ${kind}: ${total} conversations; node ${process.version}; load average ${load()}`,
    );
    const t = performance.now();
    const labels = await seedInbox(env, s.workspaceId, assistantIds, members, total);
    console.log(`seeded in ${((performance.now() - t) / 1000).toFixed(1)} s`);
    // The most and the least common labels, one of a few percent, and the past campaign's.
    const byShare = labels.filter((l) => !l.oldestTenthOnly).sort((x, y) => y.perMille - x.perMille);
    const common = byShare[0]!;
    const rare = byShare[byShare.length - 1]!;
    const some = byShare.find((l) => l.perMille <= 30)!;
    const stale = labels.find((l) => l.oldestTenthOnly)!;
    const share = (l: BenchLabel) =>
      l.oldestTenthOnly ? `${l.perMille / 100}%, oldest tenth only` : `${l.perMille / 10}%`;
    const breached: ExplainCase = ['slaBreached=true', 'and jsonb_array_length(c.sla_breaches) > 0'];
    if (slaOnly) await explain(env, s.workspaceId, [breached]);
    else
      await explain(env, s.workspaceId, [
        ['no filter', ''],
        ['status=handoff', "and status = 'handoff'"],
        ['unassigned=true', 'and assignee_id is null'],
        ['channel=chat', "and channel = 'chat'"],
        ['assigneeId', `and assignee_id = '${members[0]}'`],
        ['assistantId', `and assistant_id = '${assistantIds[1]}'`],
        ['status=open&unassigned=true', "and status = 'open' and assignee_id is null"],
        [`labelId (${share(common)})`, '', common.id],
        [`labelId (${share(some)})`, '', some.id],
        [`labelId (${share(rare)})`, '', rare.id],
        [`labelId (${share(stale)})`, '', stale.id],
        [`labelId (${share(common)})&status=handoff`, "and status = 'handoff'", common.id],
        [`labelId (${share(rare)})&status=handoff`, "and status = 'handoff'", rare.id],
        breached,
      ]);
    await explainSla(env, s.workspaceId, [
      ['sort=sla', ''],
      [`sort=sla&labelId (${share(common)})`, '', common.id],
      [`sort=sla&labelId (${share(rare)})`, '', rare.id],
      ['sort=sla&status=handoff', "and c.status = 'handoff'"],
      ['sort=sla&slaBreached=true', breached[1]],
    ]);

    // The list: first pages and pages deep in the list (a cursor 2,000 rows in), per filter.
    const ws = s.workspaceId;
    const list = `${a.base}/api/inbox/conversations?workspaceId=${ws}&limit=25`;
    const cases: Array<[string, string]> = slaOnly
      ? [['slaBreached=true', '&slaBreached=true']]
      : [
          ['no filter', ''],
          ['status=handoff', '&status=handoff'],
          ['unassigned=true', '&unassigned=true'],
          ['assigneeId', `&assigneeId=${members[0]}`],
          ['channel=chat', '&channel=chat'],
          ['assistantId', `&assistantId=${assistantIds[1]}`],
          ['status=open&unassigned=true', '&status=open&unassigned=true'],
          [`labelId (${share(common)})`, `&labelId=${common.id}`],
          [`labelId (${share(some)})`, `&labelId=${some.id}`],
          [`labelId (${share(rare)})`, `&labelId=${rare.id}`],
          [`labelId (${share(stale)})`, `&labelId=${stale.id}`],
          [`labelId (${share(common)})&status=handoff`, `&labelId=${common.id}&status=handoff`],
          [`labelId (${share(rare)})&status=handoff`, `&labelId=${rare.id}&status=handoff`],
          ['slaBreached=true', '&slaBreached=true'],
        ];
    // The SLA order: its first page, and cursor pages in the part with due times and in the tail.
    const slaCases: Array<[string, string]> = [
      ['sort=sla', '&sort=sla'],
      [`sort=sla&labelId (${share(common)})`, `&sort=sla&labelId=${common.id}`],
      [`sort=sla&labelId (${share(rare)})`, `&sort=sla&labelId=${rare.id}`],
      ['sort=sla&status=handoff', '&sort=sla&status=handoff'],
      ['sort=sla&slaBreached=true', '&sort=sla&slaBreached=true'],
    ];
    const floorUrl = `${a.base}/api/account`;
    // Warm-up: the first requests of a process compile and prepare what the rest reuse.
    for (let i = 0; i < 20; i++) await call('GET', `${list}&status=open`, owner);
    const rows: Array<Awaited<ReturnType<typeof timed>>> = [];
    for (const [label, filter] of cases) {
      rows.push(await timed(`${label}, first page`, () => `${list}${filter}`, floorUrl, owner));
      const deep = await deepCursorOf(list, filter, owner);
      if (deep)
        rows.push(
          await timed(
            `${label}, ${deep.rows < 2000 ? `last page (rows ${(deep.rows + 1).toLocaleString('en')}-)` : 'rows 2,001-2,025'}`,
            () => `${list}${filter}&cursor=${encodeURIComponent(deep.cursor)}`,
            floorUrl,
            owner,
          ),
        );
    }
    for (const [label, filter] of slaCases) {
      rows.push(await timed(`${label}, first page`, () => `${list}${filter}`, floorUrl, owner));
      for (const deep of await slaCursorsOf(list, filter, owner))
        rows.push(
          await timed(
            `${label}, ${deep.label}`,
            () => `${list}${filter}&cursor=${encodeURIComponent(deep.cursor)}`,
            floorUrl,
            owner,
          ),
        );
    }
    console.log('\nInbox list, 25 a page (sequential requests, each paired with one floor request; ms):');
    console.log('| case | p50 | p95 | p99 | floor p95 | p95 / floor p95 |');
    console.log('| --- | --- | --- | --- | --- | --- |');
    for (const r of rows) {
      console.log(
        `| ${r.label} | ${r.p50.toFixed(1)} | ${r.p95.toFixed(1)} | ${r.p99.toFixed(1)} | ${r.floorP95.toFixed(1)} | ${(r.p95 / r.floorP95).toFixed(2)} |`,
      );
    }
    const worst = Math.max(...rows.map((r) => r.p95));
    console.log(
      `worst list p95 ${ms(worst)} (target < 50 ms on PostgreSQL): ${worst < 50 ? 'met' : 'NOT met'}`,
    );
    if (slaOnly) return;

    // Reply → visitor's stream: the visitor on process B, the agent on A (one process on PGlite).
    let b = a;
    if (scratch) {
      if (!redis)
        console.log(
          '\nno REDIS_URL: processes do not hear each other; reply latency measured in one process',
        );
      else {
        b = await startServer(serverDir, env, join(dir, 'b.log'), ['src/main.ts'], 'b');
        servers.push(b);
      }
    }
    const asst = assistantIds[0]!;
    const streams: Stream[] = [];
    const arrivals = new Map<string, number>();
    const targets: Array<{ conversationId: string }> = [];
    await pool(
      Array.from({ length: visitors }, (_, i) => i),
      10,
      async (i) => {
        const ip = ipOf(i + 1);
        const { data } = await call(
          'POST',
          `${b.base}/api/widget/${asst}/init`,
          { origin: SITE, 'x-forwarded-for': ip },
          { sessionId: null },
        );
        const session = { sessionId: data.sessionId as string, token: data.sessionToken as string, ip };
        const chatRes = await fetch(`${b.base}/api/widget/${asst}/chat`, {
          method: 'POST',
          headers: {
            origin: SITE,
            'x-forwarded-for': ip,
            authorization: `Widget ${session.token}`,
            'content-type': 'application/json',
          },
          body: JSON.stringify({ sessionId: session.sessionId, content: `Visitor ${i}: where is my order?` }),
        });
        await chatRes.text();
        streams.push(
          await openStream(b.base, asst, session, (e, at) => {
            const content = e.type === 'message' ? e.message?.content : undefined;
            if (content) arrivals.set(content, at);
          }),
        );
        return session;
      },
    );
    const page = await call(
      'GET',
      `${a.base}/api/inbox/conversations?workspaceId=${ws}&assistantId=${asst}&channel=widget&limit=100`,
      owner,
    );
    for (const c of (page as unknown as { data: Array<{ id: string; title: string }> }).data) {
      if (c.title.startsWith('Visitor ')) targets.push({ conversationId: c.id });
    }
    for (const c of targets)
      await call('POST', `${a.base}/api/inbox/conversations/${c.conversationId}/handoff`, owner);
    // Replies posted on `base`, each timed from its POST to its arrival on the visitor's stream.
    // One reply posted on `base`: from its POST to its arrival on the visitor's stream, and from
    // its 201 to that arrival (what the delivery itself adds once the reply is stored).
    const once = async (base: string, content: string, c: { conversationId: string }) => {
      const t0 = performance.now();
      await call(
        'POST',
        `${base}/api/inbox/conversations/${c.conversationId}/messages`,
        {
          ...owner,
          origin: base,
        },
        { content },
      );
      const t1 = performance.now();
      for (const deadline = t1 + 5000; !arrivals.has(content) && performance.now() < deadline; ) {
        await new Promise((r) => setImmediate(r));
      }
      const at = arrivals.get(content);
      if (at === undefined) throw new Error(`${content} never reached the stream`);
      return { total: at - t0, afterCreated: Math.max(0, at - t1) };
    };
    // Posted on A (the visitor is on B), alternating with the same reply posted on B, the
    // visitor's own process: the floor of the cross-process path, under the same load.
    const across = { total: [] as number[], afterCreated: [] as number[] };
    const local = { total: [] as number[], afterCreated: [] as number[] };
    for (let i = 0; i < replies; i++) {
      const c = targets[i % targets.length]!;
      const x = await once(a.base, `across reply ${i}`, c);
      across.total.push(x.total);
      across.afterCreated.push(x.afterCreated);
      if (b === a) continue;
      const y = await once(b.base, `local reply ${i}`, c);
      local.total.push(y.total);
      local.afterCreated.push(y.afterCreated);
    }
    for (const st of streams) st.close();
    const report = (label: string, x: { total: number[]; afterCreated: number[] }) =>
      console.log(
        `| ${label} | ${[50, 95, 99].map((p) => pct(x.total, p).toFixed(1)).join(' | ')} | ${Math.max(...x.total).toFixed(1)} | ${pct(x.afterCreated, 50).toFixed(1)} / ${pct(x.afterCreated, 99).toFixed(1)} |`,
      );
    console.log(
      `\nAgent reply → visitor's widget stream (${replies} replies to ${targets.length} visitors, ms):`,
    );
    console.log('| path | p50 | p95 | p99 | max | 201 → stream p50 / p99 |');
    console.log('| --- | --- | --- | --- | --- | --- |');
    report(
      b === a ? 'posted on the visitor’s process (one process)' : 'posted on A, visitor on B (through Redis)',
      across,
    );
    if (b !== a) report('posted on B, the visitor’s own process (floor)', local);
    const latencies = across.total;
    const p99 = pct(latencies, 99);
    console.log(`p99 ${ms(p99)} (target < 100 ms on PostgreSQL): ${p99 < 100 ? 'met' : 'NOT met'}`);
    console.log(`load average at the end ${load()}`);
  } catch (err) {
    failed = true;
    console.error(err);
  } finally {
    for (const server of servers) await stopServer(server.child);
    await scratch?.drop();
    rmSync(dir, { recursive: true, force: true });
  }
  if (failed) process.exitCode = 1;
}

await main();
