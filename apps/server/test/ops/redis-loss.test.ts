import { randomInt } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signupUser, type TestUser } from '../support/factories.ts';
import { createTestApp, type TestApp } from '../support/harness.ts';
import { freePort } from '../support/pg-cluster.ts';
import { hasRedisServer, type RedisServer, startRedisServer } from '../support/redis-server.ts';
import { waitFor } from '../support/wait.ts';

/**
 * docs/configuration.md "When PostgreSQL or Redis goes away": two app instances share a private Redis
 * (its own port: the machine's Redis, which other test files use, is never touched). When Redis is
 * killed no request fails: rate limits count in each process and live fan-out stays within the
 * process, each logged once as a warning; when Redis comes back on the same port, each is logged once
 * as info and the limit is shared and fan-out crosses instances again, with no restart.
 */
type Line = { level: 'info' | 'warn' | 'error'; msg: string };

describe.skipIf(!hasRedisServer())(
  'Redis lost and back (skipped where redis-server is not installed)',
  () => {
    let redis: RedisServer;
    let one: TestApp;
    let two: TestApp;
    let user: TestUser;
    const logs = new Map<TestApp, Line[]>();

    beforeAll(async () => {
      redis = await startRedisServer();
      // Two apps = two processes' worth of state: own limiters, own Redis connections.
      const env = { REDIS_URL: redis.url, AUTH_RATE_LIMIT_PER_MINUTE: '5' };
      [one, two] = await Promise.all([createTestApp(env), createTestApp(env)]);
      for (const t of [one, two]) {
        const lines: Line[] = [];
        logs.set(t, lines);
        t.ctx.log.attach({
          info: (_o, msg) => lines.push({ level: 'info', msg }),
          warn: (_o, msg) => lines.push({ level: 'warn', msg }),
          error: (_o, msg) => lines.push({ level: 'error', msg }),
        });
      }
      user = await signupUser(one, { email: `redis-${randomInt(1e9)}@example.com` });
    });
    afterAll(async () => {
      await Promise.all([one?.close(), two?.close()]);
      await redis?.kill();
    });

    /** A client address no other test used (the keys may live in Redis). */
    const freshIp = () => `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;
    /** A failed sign-in from `ip`: counts against the per-IP limit of 5 a minute. */
    const signIn = async (t: TestApp, ip: string) => {
      const res = await t.request({
        method: 'POST',
        url: '/api/auth/login',
        remoteAddress: ip,
        payload: { email: `nobody-${randomInt(1e9)}@example.com`, password: 'not the password' },
      });
      return res.statusCode;
    };
    const count = (t: TestApp, level: Line['level'], pattern: RegExp) =>
      logs.get(t)!.filter((l) => l.level === level && pattern.test(l.msg)).length;

    /** Subscribes on `to`, publishes on `from`; what `to` received. */
    const crosses = async (from: TestApp, to: TestApp, channel: string) => {
      const got: unknown[] = [];
      const off = await to.ctx.fanout.subscribe(channel, (p) => got.push(p));
      await from.ctx.fanout.publish(channel, { n: 1 });
      return { got, off };
    };

    it('shares the limit and fan-out while Redis is there', async () => {
      const ip = freshIp();
      const statuses: number[] = [];
      for (let i = 0; i < 6; i++) statuses.push(await signIn(i % 2 === 0 ? one : two, ip));
      expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
      const got: unknown[] = [];
      const off = await two.ctx.fanout.subscribe('before', (p) => got.push(p));
      // Published again until it arrives: the subscriber's first connection may still be on its way.
      await waitFor(
        async () => {
          await one.ctx.fanout.publish('before', { n: 1 });
          return got.length > 0;
        },
        10_000,
        'the message to reach the other instance',
      );
      expect(got[0]).toEqual({ n: 1 });
      off();
    });

    it('Redis killed: no request fails, limits count per process, fan-out stays in the process, logged once', async () => {
      // Subscribed while Redis is there: it must work again after Redis comes back.
      const later: unknown[] = [];
      const offLater = await two.ctx.fanout.subscribe('after', (p) => later.push(p));

      await redis.kill();
      for (const t of [one, two]) {
        await waitFor(
          () =>
            count(t, 'warn', /^Redis unreachable: rate limits/) === 1 &&
            count(t, 'warn', /^Redis unreachable: live fan-out/) === 1,
          10_000,
          'the warnings that Redis is lost',
        );
      }

      // Requests still answer, and the limit still holds, in each process on its own.
      const ip = freshIp();
      const onOne: number[] = [];
      for (let i = 0; i < 6; i++) onOne.push(await signIn(one, ip));
      expect(onOne).toEqual([401, 401, 401, 401, 401, 429]);
      expect(await signIn(two, ip)).toBe(401);
      const session = await one.request({ method: 'GET', url: '/api/auth/session', headers: user.headers });
      expect(session.statusCode).toBe(200);

      // Fan-out: within the process, at once; a subscription made now does not wait for Redis.
      const local = await crosses(one, one, 'local');
      expect(local.got).toEqual([{ n: 1 }]);
      local.off();
      const away: unknown[] = [];
      const offAway = await two.ctx.fanout.subscribe('made-while-away', (p) => away.push(p));

      // More failures while it is away add no more lines.
      for (let i = 0; i < 3; i++) await signIn(two, freshIp());
      for (const t of [one, two]) {
        expect(count(t, 'warn', /^Redis unreachable/)).toBe(2);
        expect(count(t, 'error', /./)).toBe(0);
      }

      // Back on the same port: each part says so once, and shared behaviour returns.
      await redis.start();
      for (const t of [one, two]) {
        await waitFor(
          () =>
            count(t, 'info', /^Redis is back: rate limits are shared again/) === 1 &&
            count(t, 'info', /^Redis is back: live fan-out crosses processes again/) === 1,
          15_000,
          'the info lines that Redis is back',
        );
      }
      const shared = freshIp();
      const statuses: number[] = [];
      for (let i = 0; i < 6; i++) statuses.push(await signIn(i % 2 === 0 ? one : two, shared));
      expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);

      // Fan-out crosses instances again: to a subscription made before the loss and to one made during it.
      await waitFor(
        async () => {
          await one.ctx.fanout.publish('after', { n: 2 });
          await one.ctx.fanout.publish('made-while-away', { n: 3 });
          return later.length > 0 && away.length > 0;
        },
        10_000,
        'messages published on one instance to reach subscribers on the other',
      );
      expect(later[0]).toEqual({ n: 2 });
      expect(away[0]).toEqual({ n: 3 });
      offLater();
      offAway();
      for (const t of [one, two]) {
        expect(count(t, 'warn', /^Redis unreachable/)).toBe(2);
        expect(count(t, 'info', /^Redis is back/)).toBe(2);
      }
    });

    it('an instance started while Redis is away serves, warns once, and closes without waiting for it', async () => {
      const nowhere = `redis://127.0.0.1:${await freePort()}`;
      const t = await createTestApp({ REDIS_URL: nowhere, AUTH_RATE_LIMIT_PER_MINUTE: '5' });
      const lines: Line[] = [];
      t.ctx.log.attach({
        info: (_o, msg) => lines.push({ level: 'info', msg }),
        warn: (_o, msg) => lines.push({ level: 'warn', msg }),
        error: (_o, msg) => lines.push({ level: 'error', msg }),
      });
      try {
        const ip = freshIp();
        const statuses: number[] = [];
        for (let i = 0; i < 6; i++) statuses.push(await signIn(t, ip));
        expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
        const local = await crosses(t, t, 'alone');
        expect(local.got).toEqual([{ n: 1 }]);
        local.off();
        await waitFor(
          () =>
            lines.filter((l) => l.level === 'warn' && /^Redis unreachable: live fan-out/.test(l.msg))
              .length === 1,
          5000,
          'the fan-out warning',
        );
        // The rate limits' warning came while the app was built, before a logger was attached: it is
        // written when one is, once.
        const limitsWarned = lines.filter(
          (l) => l.level === 'warn' && /^Redis unreachable: rate limits/.test(l.msg),
        );
        expect(limitsWarned).toHaveLength(1);
      } finally {
        // Resolves although a QUIT could never be answered (a process's shutdown must not hang on it).
        await t.close();
      }
    });
  },
);
