/**
 * Analytics benchmark (docs/performance.md "Analytics"): the analytics endpoints over a workspace
 * with 1,000,000 messages in 90 days. Target on PostgreSQL: the 90-day view (the page's three
 * requests at once) under 200 ms.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/analytics.ts
 *   BENCH_ONLY=analytics DATABASE_URL=... npm run bench
 *   npx tsx bench/analytics.ts     # PGlite, 100,000 messages by default
 *
 * ANALYTICS_BENCH_MESSAGES (1,000,000 on PostgreSQL, 100,000 on PGlite), ANALYTICS_BENCH_REQUESTS
 * (40 per case).
 *
 * The data is written straight into the database with generate_series (through real chats it
 * would take hours): 10 messages a conversation (5 questions, 5 AI replies), conversations spread
 * evenly over 89 days, 50% widget, 30% chat, 20% SMS; 12% handed off; one AI reply in 7 cites
 * nothing (a knowledge gap, recorded as the chat engine does, over 3,000 distinct questions); a rating on one widget reply in 20. A
 * second workspace holds a tenth as much, so every query has to filter. Then the per-day counters
 * are filled as production fills them, by the analytics-rollup job's passes run until idle, and
 * every figure read from them is checked against the live computation before anything is timed
 * (docs/analytics.md "Per-day counters"). The floor, measured in
 * the same run and process, is `GET /api/account` (the same credential and tenant checks, one
 * small read): the rest of each endpoint's time is its own.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { seedOwner } from './support.ts';
import { call, pct, type Server, scratchDatabase, startServer, stopServer } from './widget-support.ts';

const serverDir = fileURLToPath(new URL('../apps/server/', import.meta.url));
const onPostgres = Boolean(process.env.DATABASE_URL);
const messages = Number(process.env.ANALYTICS_BENCH_MESSAGES ?? (onPostgres ? 1_000_000 : 100_000));
const requests = Number(process.env.ANALYTICS_BENCH_REQUESTS ?? 40);
const TARGET_MS = 200;

async function openDb(env: NodeJS.ProcessEnv) {
  const { openDatabase } = await import('../apps/server/src/db/client.ts');
  return env.DATABASE_URL
    ? openDatabase({ kind: 'postgres', url: env.DATABASE_URL, poolSize: 2 })
    : openDatabase({ kind: 'pglite', dataDir: join(env.DATA_DIR!, 'pglite') });
}

/** `count` messages of `workspaceId` (10 a conversation) with their conversations and ratings. */
async function seedWorkspace(
  env: NodeJS.ProcessEnv,
  tag: string,
  workspaceId: string,
  assistantIds: string[],
  count: number,
) {
  const { sql } = await import('drizzle-orm');
  const database = await openDb(env);
  const conversations = Math.ceil(count / 10);
  const list = sql.raw(`array[${assistantIds.map((x) => `'${x}'`).join(',')}]`);
  const cited = JSON.stringify([{ index: 1, chunkId: 'chk_x', sourceId: 'src_x', title: 'FAQ', url: null }]);
  try {
    const { db } = database;
    // Spread over 90 days ending an hour ago (so every message is in the past).
    await db.execute(sql`
      insert into conversations (id, workspace_id, assistant_id, channel, status, message_count,
                                 last_message_at, handed_off_at, created_at, updated_at)
      select ${`conv_${tag}`} || lpad(g::text, 8, '0'), ${workspaceId}, (${list})[1 + g % ${assistantIds.length}],
             (array['widget','widget','widget','widget','widget','widget','chat','chat','chat','sms',
                    'widget','widget','chat','chat','sms','sms','widget','widget','sms','chat'])[1 + g % 20],
             case when g % 25 < 3 then 'handoff' else 'open' end, 10, at + interval '9 minutes',
             case when g % 25 < 3 then at + interval '5 minutes' else null end, at, at
        from (select g, now() - interval '1 hour'
                        - ((g::bigint * 7919) % (89 * 86400)) * interval '1 second' as at
                from generate_series(1, ${conversations}) g) s`);
    await db.execute(sql`
      insert into messages (id, workspace_id, conversation_id, role, content, status, citations,
                            tool_calls, created_at, gap_question)
      select ${`msg_${tag}`} || lpad(c.n::text, 8, '0') || lpad(i::text, 2, '0'), ${workspaceId}, c.id,
             case when i % 2 = 0 then 'user' else 'assistant' end,
             case when i % 2 = 0 then 'Question ' || ((c.n * 31 + i) % 3000) || ': how do returns work for my order?'
                  else 'An answer from the knowledge [1].' end,
             'complete',
             case when i % 2 = 1 and (c.n + i) % 7 <> 0 then ${cited}::jsonb else '[]'::jsonb end,
             '[]'::jsonb,
             c.created_at + i * interval '1 minute',
             -- As the chat engine records a gap: the question before the reply, normalised.
             case when i % 2 = 1 and (c.n + i) % 7 = 0
                  then 'question ' || ((c.n * 31 + i - 1) % 3000) || ': how do returns work for my order' end
        from (select id, created_at, substring(id from ${tag.length + 6}::int)::int as n
                from conversations where workspace_id = ${workspaceId}) c,
             generate_series(0, 9) i`);
    await db.execute(sql`
      insert into widget_sessions (id, workspace_id, assistant_id, token_hash, created_at)
      select ${`wses_${tag}`} || g, ${workspaceId}, (${list})[1], ${`x${tag}`} || g, now() from generate_series(1, 100) g`);
    await db.execute(sql`
      insert into widget_feedback (id, workspace_id, session_id, rating, created_at)
      select ${`fb_${tag}`} || g, ${workspaceId}, ${`wses_${tag}`} || (1 + g % 100),
             case when g % 4 = 0 then 'down' else 'up' end,
             now() - interval '1 hour' - ((g::bigint * 7919) % (89 * 86400)) * interval '1 second'
        from generate_series(1, ${Math.ceil(count / 40)}) g`);
    if (env.DATABASE_URL) await db.execute(sql`vacuum analyze conversations, messages, widget_feedback`);
  } finally {
    await database.close();
  }
}

/** The analytics-rollup job's passes until one finds nothing; then the counters' statistics. */
async function rollUp(env: NodeJS.ProcessEnv) {
  const { sql } = await import('drizzle-orm');
  const { rollupStep } = await import('../apps/server/src/features/analytics/rollup.ts');
  const database = await openDb(env);
  try {
    let passes = 1;
    while (await rollupStep(database)) passes++;
    if (env.DATABASE_URL)
      await database.db.execute(sql`vacuum analyze analytics_daily, analytics_dirty, analytics_rollups`);
    return passes;
  } finally {
    await database.close();
  }
}

async function dailyRows(env: NodeJS.ProcessEnv) {
  const { sql } = await import('drizzle-orm');
  const { queryRows } = await import('../apps/server/src/db/client.ts');
  const database = await openDb(env);
  try {
    const [row] = await queryRows<{ n: number }>(
      database.db,
      sql`select count(*)::int as n from analytics_daily`,
    );
    return row?.n ?? 0;
  } finally {
    await database.close();
  }
}

/** Sequential GETs: latency percentiles of one request at a time. */
async function timed(label: string, run: () => Promise<unknown>) {
  const times: number[] = [];
  for (let i = 0; i < requests; i++) {
    const t0 = performance.now();
    await run();
    times.push(performance.now() - t0);
  }
  return { label, p50: pct(times, 50), p95: pct(times, 95) };
}

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'parley-analytics-bench-'));
  const scratch = onPostgres ? await scratchDatabase(process.env.DATABASE_URL!, 'analytics') : undefined;
  let server: Server | undefined;
  let failed = false;
  try {
    const env: NodeJS.ProcessEnv = {
      ...{ PATH: process.env.PATH, HOME: process.env.HOME, NODE_ENV: 'production', PORT: '0' },
      ...{ HOST: '127.0.0.1', DATA_DIR: join(dir, 'app'), LOG_LEVEL: 'warn', AI_PROVIDER: 'offline' },
      ...{ API_RATE_LIMIT_PER_MINUTE: '1000000000' },
      ...(scratch ? { DATABASE_URL: scratch.url } : {}),
    };
    mkdirSync(env.DATA_DIR!, { recursive: true });
    const owner = await seedOwner(env, { plan: 'enterprise', monthlyCredits: 1_000_000_000 });
    const other = await seedOwner(env, { plan: 'pro' });
    server = await startServer(serverDir, env, join(dir, 'server.log'));
    const headers = { cookie: owner.cookie, origin: server.base };
    const assistants: string[] = [];
    for (let i = 0; i < 4; i++) {
      const { data } = await call('POST', `${server.base}/api/assistants`, headers, {
        workspaceId: owner.workspaceId,
        name: `A${i}`,
      });
      assistants.push(data.id as string);
    }
    const { data: otherAssistant } = await call(
      'POST',
      `${server.base}/api/assistants`,
      { cookie: other.cookie, origin: server.base },
      { workspaceId: other.workspaceId, name: 'B' },
    );
    const kind = scratch ? 'PostgreSQL' : 'PGlite';
    console.log(
      `analytics benchmark on ${kind}: ${messages} messages in the workspace; node ${process.version}`,
    );
    const t0 = performance.now();
    await seedWorkspace(env, 'a', owner.workspaceId, assistants, messages);
    await seedWorkspace(env, 'b', other.workspaceId, [otherAssistant.id as string], Math.ceil(messages / 10));
    console.log(`seeded in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

    const ws = owner.workspaceId;
    const url = (path: string) => `${server!.base}${path}`;
    const get = (path: string) => () => call('GET', url(path), headers);
    const overview = (p: string) => `/api/workspaces/${ws}/analytics?period=${p}`;
    const gaps = (p: string) => `/api/workspaces/${ws}/analytics/knowledge-gaps?period=${p}`;
    const channels = (p: string) => `/api/analytics/channels?workspaceId=${ws}&period=${p}`;
    // Every figure computed live (no day rolled up yet: the seed's rows were written after the
    // server's first rollup pass, on past days, so they are marked), to compare with below.
    const figures = async () => {
      const out: Record<string, unknown> = {};
      for (const p of ['7d', '30d', '90d']) {
        for (const f of [overview, gaps, channels]) {
          const { until: _, ...data } = (await call('GET', url(f(p)), headers)).data;
          out[f(p)] = data;
        }
      }
      return JSON.stringify(out);
    };
    const live = await figures();
    // The per-day counters as production fills them: the analytics-rollup job's passes
    // (features/analytics/rollup.ts), run here until idle rather than waiting for the server's.
    const t1 = performance.now();
    const passes = await rollUp(env);
    console.log(
      `rolled up in ${((performance.now() - t1) / 1000).toFixed(1)} s (${passes} passes): ${await dailyRows(env)} rows of analytics_daily`,
    );
    if ((await figures()) !== live)
      throw new Error('the figures read from the per-day counters differ from the live ones');
    console.log('every figure read from the counters equals the live computation');
    // Warm the caches the way a dashboard that has been open would have.
    for (const p of ['7d', '30d', '90d']) for (const f of [overview, gaps, channels]) await get(f(p))();
    const check = await call('GET', url(overview('90d')), headers);
    const totals = check.data.totals as { conversations: number; credits: number };
    console.log(`90d: ${totals.conversations} conversations, ${totals.credits} credits (AI replies)`);

    const floor = await timed('floor: GET /api/account', get('/api/account'));
    const rows = [floor];
    for (const p of ['7d', '30d', '90d']) {
      rows.push(await timed(`overview ${p}`, get(overview(p))));
      rows.push(await timed(`knowledge gaps ${p}`, get(gaps(p))));
      rows.push(await timed(`channels ${p}`, get(channels(p))));
    }
    const page = await timed('90-day page (the three at once)', () =>
      Promise.all([get(overview('90d'))(), get(gaps('90d'))(), get(channels('90d'))()]),
    );
    rows.push(page);
    console.log('\nAnalytics (sequential requests, ms):');
    console.log('| case | p50 | p95 | p95 / floor p95 |');
    console.log('| --- | --- | --- | --- |');
    for (const r of rows) {
      console.log(
        `| ${r.label} | ${r.p50.toFixed(1)} | ${r.p95.toFixed(1)} | ${(r.p95 / floor.p95).toFixed(1)} |`,
      );
    }
    const met = page.p95 < TARGET_MS;
    console.log(
      `90-day page p95 ${page.p95.toFixed(1)} ms (target < ${TARGET_MS} ms on PostgreSQL): ${met ? 'met' : 'NOT met'}`,
    );
    if (onPostgres && !met) failed = true;
  } finally {
    if (server) await stopServer(server.child);
    if (scratch && !process.env.ANALYTICS_BENCH_KEEP) await scratch.drop();
    else if (scratch) console.log(`kept ${scratch.url}`);
    rmSync(dir, { recursive: true, force: true });
  }
  if (failed) process.exitCode = 1;
}

await main();
