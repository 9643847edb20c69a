import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createContext } from '../../src/bootstrap.ts';
import type { AppContext } from '../../src/context.ts';
import { openDatabase } from '../../src/db/client.ts';
import { resetStep } from '../../src/features/credits/credits.jobs.ts';
import { reserveCredit } from '../../src/features/credits/credits.service.ts';
import { AppError } from '../../src/http/errors.ts';
import { now } from '../../src/lib/clock.ts';
import { onPostgres } from '../support/database.ts';
import { signupUser, type TestUser } from '../support/factories.ts';
import { createTestApp, type TestApp } from '../support/harness.ts';
import { addMember } from '../support/world.ts';
import { clockTo, creditsRow, midMonth, monthStart, noticesOf, setUsed, workspaceOn } from './helpers.ts';

/**
 * docs/credits.md "What a credit is": 200 concurrent replies with 50 credits left give exactly 50
 * reservations and 150 × 403, and the counter ends at the limit, also split over two server processes (two
 * pools, two contexts on one PostgreSQL). PGlite has one connection, so the race needs PostgreSQL.
 */
let t: TestApp | undefined;
let other: AppContext | undefined;
let owner: TestUser;
beforeAll(async () => {
  if (!onPostgres()) return;
  t = await createTestApp();
  owner = await signupUser(t);
  // A second "process": its own pool and context on the same database.
  const database = await openDatabase({ kind: 'postgres', url: t.db.url ?? '', poolSize: 20 });
  other = createContext(t.ctx.config, database);
});
afterAll(async () => {
  if (other) {
    await other.limits.close();
    await other.database.close();
  }
  await t?.close();
});

async function attempt(ctx: AppContext, ws: string): Promise<'ok' | string> {
  try {
    await reserveCredit(ctx, ws);
    return 'ok';
  } catch (err) {
    if (err instanceof AppError) return err.code;
    throw err;
  }
}

async function race(contexts: AppContext[], ws: string, n: number) {
  const results = await Promise.all(
    Array.from({ length: n }, (_, i) => attempt(contexts[i % contexts.length] as AppContext, ws)),
  );
  return {
    ok: results.filter((r) => r === 'ok').length,
    refused: results.filter((r) => r === 'credits_limit_exceeded').length,
  };
}

describe.skipIf(!onPostgres())('credits race on PostgreSQL (skipped on PGlite: set DATABASE_URL)', () => {
  it('one process: 200 concurrent reservations with 50 left → 50 ok, 150 × 403, counter at the limit', async () => {
    const app = t as TestApp;
    const ws = await workspaceOn(app, owner, 'pro', { trial: false });
    await setUsed(app, ws, 1150);
    expect(await race([app.ctx], ws, 200)).toEqual({ ok: 50, refused: 150 });
    expect((await creditsRow(app, ws))?.used).toBe(1200);
  });

  it('two processes: the same, with the requests split between two pools', async () => {
    const app = t as TestApp;
    const admin = await signupUser(app);
    const ws = await workspaceOn(app, owner, 'pro', { trial: false });
    await addMember(app, ws, admin, 'admin');
    await setUsed(app, ws, 1150);
    expect(await race([app.ctx, other as AppContext], ws, 200)).toEqual({ ok: 50, refused: 150 });
    expect((await creditsRow(app, ws))?.used).toBe(1200);
    // Each alert was claimed by exactly one of them: one notice per owner and admin. (The 80%
    // one is skipped when the 100% claim wins the race to it: that claim covers both.)
    expect(await noticesOf(app, ws, 'credits.exhausted')).toHaveLength(2);
    expect([0, 2]).toContain((await noticesOf(app, ws, 'credits.warning')).length);
  });

  it('two processes on a workspace that never chatted: the lazy row is created once', async () => {
    const app = t as TestApp;
    const ws = await workspaceOn(app, owner, 'free');
    expect(await race([app.ctx, other as AppContext], ws, 200)).toEqual({ ok: 50, refused: 150 });
    expect((await creditsRow(app, ws))?.used).toBe(50);
  });

  it('two processes and the scheduled reset at once, on a counter from last month: one new period', async () => {
    const app = t as TestApp;
    const ws = await workspaceOn(app, owner, 'free');
    clockTo(midMonth(-1));
    await setUsed(app, ws, 50);
    clockTo(null);
    const resets = Promise.all([resetStep(app.ctx), resetStep(other as AppContext)]);
    expect(await race([app.ctx, other as AppContext], ws, 200)).toEqual({ ok: 50, refused: 150 });
    await resets;
    expect(await creditsRow(app, ws)).toMatchObject({ used: 50, periodStart: monthStart(now()) });
  });
});
