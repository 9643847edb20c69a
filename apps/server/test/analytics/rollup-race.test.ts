import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createContext } from '../../src/bootstrap.ts';
import type { AppContext } from '../../src/context.ts';
import { openDatabase, queryRows } from '../../src/db/client.ts';
import { rollupStep } from '../../src/features/analytics/rollup.ts';
import { newId } from '../../src/lib/ids.ts';
import { onPostgres } from '../support/database.ts';
import { createAssistant } from '../support/factories.ts';
import { createTestApp, type TestApp } from '../support/harness.ts';
import { createWorld, insertWorkspace, type World } from '../support/world.ts';
import { daysAgo, seedConversation } from './helpers.ts';

/**
 * docs/analytics.md "Per-day counters": two server processes (two pools, two contexts on one
 * PostgreSQL) run the rollup at the same time while conversations of rolled-up days change; when
 * both are done, every figure is the live computation's. PGlite has one connection, so the race
 * needs PostgreSQL.
 */
let t: TestApp | undefined;
let other: AppContext | undefined;
let w: World;
const workspaces: string[] = [];

beforeAll(async () => {
  if (!onPostgres()) return;
  t = await createTestApp();
  w = await createWorld(t);
  const assistantId = await createAssistant(t, w.owner, w.ws);
  for (let i = 0; i < 120; i++) {
    await seedConversation(t, w.ws, assistantId, {
      channel: ['widget', 'chat', 'sms'][i % 3] as string,
      at: daysAgo(i % 60),
      turns: i % 4 ? [{ question: `Q${i}?`, reply: {} }] : [{ question: `Alone ${i}?` }],
    });
  }
  // More workspaces than one pass takes, so both processes find work.
  for (let i = 0; i < 30; i++) workspaces.push(await insertWorkspace(t, w.owner, { name: `W${i}` }));
  const database = await openDatabase({ kind: 'postgres', url: t.db.url ?? '', poolSize: 5 });
  other = createContext(t.ctx.config, database);
}, 120_000);
afterAll(async () => {
  if (other) {
    await other.limits.close();
    await other.database.close();
  }
  await t?.close();
});

const app = () => t as TestApp;

async function figures() {
  const out: Record<string, unknown> = {};
  for (const p of ['7d', '30d', '90d']) {
    for (const url of [
      `/api/workspaces/${w.ws}/analytics?period=${p}`,
      `/api/workspaces/${w.ws}/analytics/knowledge-gaps?period=${p}`,
      `/api/analytics/channels?workspaceId=${w.ws}&period=${p}`,
    ]) {
      const res = await app().request({ method: 'GET', url, headers: w.owner.headers });
      expect(res.statusCode, res.body).toBe(200);
      const { until: _, ...data } = res.json().data;
      out[url] = data;
    }
  }
  return out;
}

async function live() {
  const db = app().ctx.db;
  const [saved] = await queryRows<{ through: string | null }>(
    db,
    sql`select through::text as through from analytics_rollups where workspace_id = ${w.ws}`,
  );
  await db.execute(sql`update analytics_rollups set through = null where workspace_id = ${w.ws}`);
  try {
    return await figures();
  } finally {
    await db.execute(
      sql`update analytics_rollups set through = ${saved?.through ?? null}::date where workspace_id = ${w.ws}`,
    );
  }
}

/** Late changes to old days, one transaction each, while the rollup runs. */
async function changeOldDays(n: number) {
  const db = app().ctx.db;
  const old = await queryRows<{ id: string; count: number }>(
    db,
    sql`select id, message_count as count from conversations where workspace_id = ${w.ws}
         and created_at < now() - interval '2 days' order by random() limit ${n}`,
  );
  await Promise.all(
    old.map(async (c, i) => {
      if (i % 2) {
        await db.execute(sql`update conversations set handed_off_at = coalesce(handed_off_at, now())
                              where id = ${c.id}`);
      } else {
        await db.transaction(async (tx) => {
          await tx.execute(
            sql`update conversations set message_count = message_count + 1 where id = ${c.id}`,
          );
          await tx.execute(sql`
            insert into messages (id, workspace_id, conversation_id, role, content, created_at)
            select ${newId('msg')}, workspace_id, id, 'assistant', 'Late.', created_at + interval '1 minute'
              from conversations where id = ${c.id}`);
        });
      }
    }),
  );
}

const untilIdle = async (ctx: AppContext) => {
  let passes = 0;
  while (await rollupStep(ctx)) passes++;
  return passes;
};

describe.skipIf(!onPostgres())(
  'the rollup raced by two processes (skipped on PGlite: set DATABASE_URL)',
  () => {
    it('two processes roll up at once while old days change: no day twice, no change lost', async () => {
      const before = await figures();
      for (let round = 0; round < 3; round++) {
        if (round > 0) {
          await app().ctx.db.execute(sql`delete from analytics_rollups`);
          await app().ctx.db.execute(sql`delete from analytics_daily`);
        }
        await Promise.all([untilIdle(app().ctx), untilIdle(other as AppContext), changeOldDays(20)]);
        // Changes committed after a pass claimed their workspace are marked; one more pass each.
        await Promise.all([untilIdle(app().ctx), untilIdle(other as AppContext)]);
        const [pending] = await queryRows<{ n: number }>(
          app().ctx.db,
          sql`select count(*)::int as n from analytics_dirty where day <= (now() at time zone 'UTC')::date - 2`,
        );
        expect(pending?.n).toBe(0);
        const [rolled] = await queryRows<{ n: number }>(
          app().ctx.db,
          sql`select count(*)::int as n from analytics_rollups
             where through = (now() at time zone 'UTC')::date - 2`,
        );
        const [all] = await queryRows<{ n: number }>(
          app().ctx.db,
          sql`select count(*)::int as n from workspaces`,
        );
        expect(all?.n).toBeGreaterThan(workspaces.length);
        expect(rolled?.n).toBe(all?.n);
        expect(await figures()).toEqual(await live());
      }
      expect(await figures()).not.toEqual(before);
    }, 120_000);
  },
);
