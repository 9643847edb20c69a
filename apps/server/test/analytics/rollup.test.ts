import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../src/db/client.ts';
import { rollupStep } from '../../src/features/analytics/rollup.ts';
import { setClockOffset } from '../../src/lib/clock.ts';
import { newId } from '../../src/lib/ids.ts';
import { createAssistant } from '../support/factories.ts';
import { createTestApp, type TestApp } from '../support/harness.ts';
import { createWorld, type World } from '../support/world.ts';
import { CITED, daysAgo, seedConversation } from './helpers.ts';

/**
 * The per-day counters (docs/analytics.md "Per-day counters"): every figure read with the counters
 * rolled up is the one the live computation gives (the same endpoints with no day rolled up),
 * across day boundaries and after changes to days already rolled up. The race of two processes
 * is in rollup-race.test.ts (PostgreSQL).
 */
let t: TestApp;
let w: World;
let assistantId: string;
const DAY_MS = 86_400_000;

/** 23:59:58 UTC `days` days ago: a conversation whose messages run into the next day. */
const lateEvening = (days: number) => new Date(daysAgo(days + 1).getTime() + 12 * 3_600_000 - 2_000);

beforeAll(async () => {
  t = await createTestApp();
  w = await createWorld(t);
  assistantId = await createAssistant(t, w.owner, w.ws);
  const seed = (opts: Parameters<typeof seedConversation>[3]) => seedConversation(t, w.ws, assistantId, opts);
  for (const days of [0, 1, 2, 3, 6, 7, 29, 30, 45, 88, 89, 92, 95]) {
    await seed({ channel: 'widget', at: daysAgo(days), turns: [{ question: `Q ${days}?`, reply: {} }] });
    await seed({
      channel: days % 2 ? 'sms' : 'chat',
      at: daysAgo(days),
      handedOff: days % 3 === 0,
      agentReply: days % 3 === 0,
      turns: [
        { question: 'Do you ship to Mars?', reply: {} },
        { question: 'Refunds?', reply: { citations: CITED } },
      ],
    });
  }
  // Messages on both sides of midnight; a reply that failed; a customer message alone.
  await seed({
    channel: 'widget',
    at: lateEvening(2),
    turns: [
      { question: 'Late question?', reply: {} },
      { question: 'Another?', reply: { status: 'failed' } },
    ],
  });
  await seed({ channel: 'chat', at: lateEvening(1), turns: [{ question: 'Midnight?', reply: {} }] });
  await seed({ channel: 'sms', at: lateEvening(5), turns: [{ question: 'Nobody?' }] });
  const other = await createAssistant(t, w.outsider, w.otherWs);
  await seedConversation(t, w.otherWs, other, { channel: 'widget', at: daysAgo(4) });
});
afterEach(() => setClockOffset(0));
afterAll(() => t.close());

const PATHS = (ws: string) =>
  ['7d', '30d', '90d'].flatMap((p) => [
    `/api/workspaces/${ws}/analytics?period=${p}`,
    `/api/workspaces/${ws}/analytics/knowledge-gaps?period=${p}&limit=100`,
    `/api/analytics/channels?workspaceId=${ws}&period=${p}`,
  ]);

/** Every endpoint and period, without `until` (the time of the request). */
async function figures(ws = w.ws) {
  const out: Record<string, unknown> = {};
  for (const url of PATHS(ws)) {
    const res = await t.request({
      method: 'GET',
      url,
      headers: ws === w.ws ? w.owner.headers : w.outsider.headers,
    });
    expect(res.statusCode, res.body).toBe(200);
    const { until: _, ...data } = res.json().data;
    out[url] = data;
  }
  return out;
}

/** The live computation: the same endpoints with no day rolled up (the watermark put back after). */
async function live(ws = w.ws) {
  const [saved] = await queryRows<{ through: string | null }>(
    t.ctx.db,
    sql`select through::text as through from analytics_rollups where workspace_id = ${ws}`,
  );
  await t.ctx.db.execute(sql`update analytics_rollups set through = null where workspace_id = ${ws}`);
  try {
    return await figures(ws);
  } finally {
    await t.ctx.db.execute(
      sql`update analytics_rollups set through = ${saved?.through ?? null}::date where workspace_id = ${ws}`,
    );
  }
}

const rollAll = async () => {
  while (await rollupStep(t.ctx)) {}
};

const dbToday = async () => {
  const [row] = await queryRows<{ d: string }>(
    t.ctx.db,
    sql`select (now() at time zone 'UTC')::date::text as d`,
  );
  return row?.d as string;
};
const dayOf = (d: Date) => d.toISOString().slice(0, 10);
/** Marked days the job rolls up (yesterday's marks wait: yesterday is counted live anyway). */
const marks = (ws = w.ws) =>
  queryRows<{ day: string }>(
    t.ctx.db,
    sql`select day::text as day from analytics_dirty where workspace_id = ${ws}
           and day <= (now() at time zone 'UTC')::date - 2 order by day`,
  );

describe('per-day counters', () => {
  it('the first run rolls up the last 89 closed days but yesterday; every figure is unchanged', async () => {
    const before = await figures();
    await rollAll();
    const today = await dbToday();
    const [r] = await queryRows<{ through: string }>(
      t.ctx.db,
      sql`select through::text as through from analytics_rollups where workspace_id = ${w.ws}`,
    );
    expect(r?.through).toBe(dayOf(new Date(Date.parse(today) - 2 * DAY_MS)));
    const [n] = await queryRows<{ n: number; oldest: string }>(
      t.ctx.db,
      sql`select count(*)::int as n, min(day)::text as oldest from analytics_daily where workspace_id = ${w.ws}`,
    );
    expect(n?.n).toBeGreaterThan(10);
    expect(n?.oldest).toBe(dayOf(daysAgo(89)));
    expect(await marks()).toEqual([]);
    expect(await figures()).toEqual(before);
    expect(await figures(w.otherWs)).toEqual(await live(w.otherWs));
    // A second pass finds nothing to do.
    expect(await rollupStep(t.ctx)).toBe(false);
  });

  it('the figures read the counters: a rolled-up day comes from analytics_daily unless it is marked', async () => {
    const day = dayOf(daysAgo(7));
    const right = await figures();
    await t.ctx.db.execute(sql`
      update analytics_daily set conversations = conversations + 100, ai_replies = ai_replies + 100
       where workspace_id = ${w.ws} and day = ${day}::date and channel = 'widget'`);
    const wrong = await figures();
    const d7 = wrong[`/api/workspaces/${w.ws}/analytics?period=30d`] as { totals: { conversations: number } };
    expect(d7.totals.conversations).toBe(
      (right[`/api/workspaces/${w.ws}/analytics?period=30d`] as { totals: { conversations: number } }).totals
        .conversations + 100,
    );
    // Marked: counted live at once, and rolled up again by the next pass.
    await t.ctx.db.execute(
      sql`insert into analytics_dirty (workspace_id, day) values (${w.ws}, ${day}::date)`,
    );
    expect(await figures()).toEqual(right);
    await rollAll();
    expect(await marks()).toEqual([]);
    expect(await figures()).toEqual(right);
  });

  it('across day boundaries: with the clock days on or behind, the windows move and the figures stay live ones', async () => {
    for (const offset of [1, 2]) {
      setClockOffset(offset * DAY_MS);
      expect(await figures()).toEqual(await live());
    }
    // Behind the database's clock: the 90-day period starts before the counters' oldest day.
    for (const offset of [-1, -5]) {
      setClockOffset(offset * DAY_MS);
      expect(await figures()).toEqual(await live());
    }
  });

  it('late changes to rolled-up days are marked in their transaction and counted at once', async () => {
    const pick = async (where: ReturnType<typeof sql>) => {
      const [row] = await queryRows<{ id: string; day: string }>(
        t.ctx.db,
        sql`select id, (created_at at time zone 'UTC')::date::text as day from conversations
             where workspace_id = ${w.ws} and ${where} order by created_at limit 1`,
      );
      if (!row) throw new Error('no such conversation');
      return row;
    };
    const alone = await pick(sql`message_count = 1`);
    const old = await pick(sql`handed_off_at is null and channel = 'widget'
      and created_at between ${daysAgo(40).toISOString()}::timestamptz and ${daysAgo(10).toISOString()}::timestamptz`);
    const three = await pick(sql`created_at >= ${daysAgo(3).toISOString()}::timestamptz - interval '1 hour'`);
    // A person takes over a conversation of 29 or 30 days ago (as conversation-states.ts does).
    await t.ctx.db.execute(sql`
      update conversations set status = 'handoff', handed_off_at = now(), updated_at = now()
       where id = ${old.id}`);
    // The lone customer message of 5 days ago gets its reply today (as conversations.repo.ts does).
    await t.ctx.db.execute(sql`
      with c as (update conversations set message_count = message_count + 1, last_message_at = now(),
                        updated_at = now() where id = ${alone.id} returning id)
      insert into messages (id, workspace_id, conversation_id, role, content, created_at)
      select ${newId('msg')}, ${w.ws}, c.id, 'assistant', 'Sorry for the wait.', now() from c`);
    // A message stored late, dated on a rolled-up day.
    await t.ctx.db.execute(sql`
      insert into messages (id, workspace_id, conversation_id, role, content, created_at)
      values (${newId('msg')}, ${w.ws}, ${three.id}, 'agent', 'Late.', ${daysAgo(3).toISOString()}::timestamptz)`);
    expect((await marks()).map((m) => m.day)).toEqual(
      [...new Set([alone.day, old.day, dayOf(daysAgo(3))])].sort(),
    );
    expect(await figures()).toEqual(await live());
    await rollAll();
    expect(await marks()).toEqual([]);
    expect(await figures()).toEqual(await live());

    const gone = await createAssistant(t, w.owner, w.ws);
    await seedConversation(t, w.ws, gone, {
      channel: 'sms',
      at: daysAgo(20),
      turns: [{ question: 'Bye?', reply: {} }],
    });
    await rollAll();
    await t.ctx.db.execute(sql`delete from assistants where id = ${gone}`);
    expect((await marks()).map((m) => m.day)).toEqual([dayOf(daysAgo(20))]);
    expect(await figures()).toEqual(await live());
    await rollAll();
    expect(await figures()).toEqual(await live());
  });

  it("a handoff or a reply in today's conversations marks nothing; deleting a workspace takes its counters", async () => {
    const [today] = await queryRows<{ id: string }>(
      t.ctx.db,
      sql`select id from conversations where workspace_id = ${w.ws}
           and created_at >= (now() at time zone 'UTC')::date::timestamp at time zone 'UTC' limit 1`,
    );
    if (today) {
      await t.ctx.db.execute(sql`update conversations set handed_off_at = now(), message_count = message_count + 5
                                  where id = ${today.id}`);
    }
    expect(await marks()).toEqual([]);
    await t.ctx.db.execute(sql`delete from workspaces where id = ${w.otherWs}`);
    const [left] = await queryRows<{ n: number }>(
      t.ctx.db,
      sql`select (select count(*) from analytics_daily where workspace_id = ${w.otherWs})
               + (select count(*) from analytics_dirty where workspace_id = ${w.otherWs})
               + (select count(*) from analytics_rollups where workspace_id = ${w.otherWs}) as n`,
    );
    expect(Number(left?.n)).toBe(0);
  });
});
