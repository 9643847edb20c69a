import { randomInt } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signupUser } from '../support/factories.ts';
import { createTestApp, type TestApp } from '../support/harness.ts';
import { REDIS_URL, redisAnswers } from '../support/redis.ts';
import { insertWorkspace } from '../support/world.ts';
import { fromSite, widgetAssistant } from './helpers.ts';

/**
 * docs/widget.md "Limits": with `REDIS_URL`, two server processes hold the per-IP widget
 * limit exactly between them. Runs whenever a Redis answers (REDIS_URL, else the local default).
 */
const available = await redisAnswers();

describe.skipIf(!available)('two instances sharing Redis', () => {
  let one: TestApp;
  let two: TestApp;
  let asstOne: string;
  let asstTwo: string;

  beforeAll(async () => {
    // Two apps = two processes' worth of state: own limiter, own Redis connection, own database.
    [one, two] = await Promise.all([createTestApp({ REDIS_URL }), createTestApp({ REDIS_URL })]);
    const setup = async (t: TestApp) => {
      const owner = await signupUser(t);
      return widgetAssistant(t, owner, await insertWorkspace(t, owner));
    };
    [asstOne, asstTwo] = await Promise.all([setup(one), setup(two)]);
  });
  afterAll(async () => {
    await Promise.all([one?.close(), two?.close()]);
  });

  /** A client address no earlier run used within the last minute (the keys live in Redis). */
  const freshIp = () => `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;
  const post = (t: TestApp, asst: string, ip: string) =>
    fromSite(t, { method: 'POST', url: `/api/widget/${asst}/init`, remoteAddress: ip });

  it('alternating between the instances, the sixth POST is refused on both', async () => {
    const ip = freshIp();
    for (let i = 0; i < 5; i++) {
      const res = i % 2 === 0 ? await post(one, asstOne, ip) : await post(two, asstTwo, ip);
      expect(res.statusCode, `request ${i + 1}`).toBe(200);
    }
    const a = await post(one, asstOne, ip);
    const b = await post(two, asstTwo, ip);
    expect([a.statusCode, b.statusCode]).toEqual([429, 429]);
    expect(a.json().code).toBe('rate_limit:widget');
    expect(Number(b.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('holds exactly under concurrency: 20 simultaneous POSTs over both instances, exactly 5 pass', async () => {
    const ip = freshIp();
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? post(one, asstOne, ip) : post(two, asstTwo, ip))),
    );
    const statuses = results.map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 200)).toHaveLength(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(15);
  });
});
