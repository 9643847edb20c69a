import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { createContext } from '../../src/bootstrap.ts';
import type { AppContext } from '../../src/context.ts';
import { SessionCache } from '../../src/features/auth/session-cache.ts';
import { setClockOffset } from '../../src/lib/clock.ts';
import { onPostgres } from '../support/database.ts';
import { signupUser, type TestUser } from '../support/factories.ts';
import { createTestApp, ORIGIN, type TestApp } from '../support/harness.ts';
import { waitFor } from '../support/wait.ts';

// Sessions held in memory for a few seconds (features/auth/session-cache.ts), never past a
// revocation: every process hears a deleted session at commit (migration 0038).
let t: TestApp;
// A second process on the same database: its own context, cache and LISTEN.
let other: { app: FastifyInstance; ctx: AppContext };
beforeAll(async () => {
  t = await createTestApp();
  const ctx = createContext(t.ctx.config, t.db.database);
  const app = await buildApp(ctx, { logger: false });
  await app.ready();
  other = { app, ctx };
});
afterAll(async () => {
  setClockOffset(0);
  await other?.app.close();
  await other?.ctx.limits.close();
  await other?.ctx.fanout.close();
  await t?.close();
});

const session = (app: FastifyInstance, user: TestUser) =>
  app.inject({ method: 'GET', url: '/api/auth/session', headers: { ...user.headers, origin: ORIGIN } });

/** Whether `ctx` holds a session of `user` (the cache's own view; nothing else tells it). */
const holds = (ctx: AppContext, userId: string) => ctx.sessions.heldFor(userId) > 0;

describe('live sessions held in memory', () => {
  it('holds a session once looked up, and answers from it', async () => {
    const u = await signupUser(t);
    expect((await session(t.app, u)).statusCode).toBe(200);
    expect(holds(t.ctx, u.id)).toBe(true);
    expect((await session(t.app, u)).statusCode).toBe(200);
  });

  it('a sign-out on one process is refused on the other at once, not after the hold', async () => {
    const u = await signupUser(t);
    expect((await session(other.app, u)).statusCode).toBe(200);
    expect(holds(other.ctx, u.id)).toBe(true);
    const out = await t.request({ method: 'POST', url: '/api/auth/logout', headers: u.headers });
    expect(out.statusCode).toBeLessThan(300);
    // Its own process forgot it before answering.
    expect((await session(t.app, u)).statusCode).toBe(401);
    // The other hears it at commit: well within the 5 s a session is held.
    const started = Date.now();
    await waitFor(
      async () => (await session(other.app, u)).statusCode === 401,
      2000,
      'the other process refusing',
    );
    expect(Date.now() - started).toBeLessThan(2000);
    expect(holds(other.ctx, u.id)).toBe(false);
  });

  it('a session deleted by anything (here SQL) is dropped everywhere', async () => {
    const u = await signupUser(t);
    expect((await session(t.app, u)).statusCode).toBe(200);
    expect((await session(other.app, u)).statusCode).toBe(200);
    await t.ctx.db.execute(sql`delete from sessions where user_id = ${u.id}`);
    await waitFor(
      () => !holds(t.ctx, u.id) && !holds(other.ctx, u.id),
      2000,
      'both processes dropping the session',
    );
    expect((await session(t.app, u)).statusCode).toBe(401);
    expect((await session(other.app, u)).statusCode).toBe(401);
  });

  it("a password change refuses the user's other sessions at once", async () => {
    const u = await signupUser(t);
    const login = await t.request({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: u.email, password: u.password },
    });
    const cookie = login.cookies.find((c) => c.name === 'parley.session-token');
    const second = { ...u, headers: { cookie: `parley.session-token=${cookie?.value}` } };
    expect((await session(t.app, second)).statusCode).toBe(200);
    const changed = await t.request({
      method: 'POST',
      url: '/api/account/password',
      headers: u.headers,
      payload: { currentPassword: u.password, newPassword: 'another long password' },
    });
    expect(changed.statusCode).toBe(204);
    expect((await session(t.app, second)).statusCode).toBe(401);
    expect((await session(t.app, u)).statusCode).toBe(200);
  });

  it('a held session past its expiry is refused', async () => {
    const u = await signupUser(t);
    expect((await session(t.app, u)).statusCode).toBe(200);
    setClockOffset((t.ctx.config.sessionTtlDays + 1) * 86_400_000);
    try {
      expect((await session(t.app, u)).statusCode).toBe(401);
    } finally {
      setClockOffset(0);
    }
  });

  it.runIf(onPostgres())(
    'holds nothing while the LISTEN connection is lost, and again once it is back',
    async () => {
      const u = await signupUser(t);
      expect((await session(t.app, u)).statusCode).toBe(200);
      expect(holds(t.ctx, u.id)).toBe(true);
      // Every LISTEN on the channel: both processes lose theirs.
      await t.ctx.db.execute(
        sql`select pg_terminate_backend(pid) from pg_stat_activity where query = 'LISTEN parley_sessions' and datname = current_database()`,
      );
      await waitFor(() => t.ctx.sessions.heldFor() === 0, 5000, 'the cache emptied');
      // Looked up, answered, not held (unless LISTEN is already back, 1 s after the loss).
      const before = Date.now();
      expect((await session(t.app, u)).statusCode).toBe(200);
      if (Date.now() - before < 500) expect(holds(t.ctx, u.id)).toBe(false);
      await waitFor(
        async () => (await session(t.app, u)).statusCode === 200 && holds(t.ctx, u.id),
        10_000,
        'held again once LISTEN is back',
      );
    },
  );
});

describe('SessionCache', () => {
  const row = { id: 'ses_1', userId: 'usr_1', expiresAt: new Date(Date.now() + 86_400_000) };

  it('does not keep a lookup that was under way when a revocation arrived', () => {
    const cache = new SessionCache();
    cache.setListening(true);
    const epoch = cache.epoch;
    cache.forgetUser('usr_1');
    cache.keep(epoch, 'h', row, new Date());
    expect(cache.get('h', new Date())).toBeUndefined();
    cache.keep(cache.epoch, 'h', row, new Date());
    expect(cache.get('h', new Date())).toMatchObject({ id: 'ses_1' });
  });

  it('holds nothing unless revocations can be heard, and a session only for its hold', () => {
    const cache = new SessionCache();
    cache.keep(cache.epoch, 'h', row, new Date());
    expect(cache.heldFor()).toBe(0);
    cache.setListening(true);
    const at = new Date();
    cache.keep(cache.epoch, 'h', row, at);
    expect(cache.get('h', new Date(at.getTime() + 4_000))).toBeDefined();
    expect(cache.get('h', new Date(at.getTime() + 5_000))).toBeUndefined();
    cache.keep(cache.epoch, 'h', row, at);
    cache.setListening(false);
    expect(cache.heldFor()).toBe(0);
  });
});
