import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages, widgetUsage } from '../../src/db/schema/index.ts';
import { setClockOffset } from '../../src/lib/clock.ts';
import { createTestApp, type TestApp } from '../support/harness.ts';
import { createWorld, setPlan, type World } from '../support/world.ts';
import {
  fromSite,
  initWidget,
  NO_RATE_LIMIT,
  SITE,
  sessionUrl,
  widgetAssistant,
  widgetChat,
} from './helpers.ts';

/** docs/widget.md "Limits": 5 POSTs per minute per client IP (default), and the daily message quota. */

describe('per-IP limit on public widget POSTs (default 5 per minute)', () => {
  let t: TestApp;
  let asst: string;
  beforeAll(async () => {
    t = await createTestApp();
    const w = await createWorld(t);
    asst = await widgetAssistant(t, w.owner, w.ws);
  });
  afterAll(() => t.close());

  const post = (ip: string, path = 'init', extra: Record<string, unknown> = {}) =>
    fromSite(t, { method: 'POST', url: `/api/widget/${asst}/${path}`, remoteAddress: ip, ...extra });

  it('the sixth POST gets 429 rate_limit:widget with Retry-After (and CORS); another IP is unaffected', async () => {
    const ip = '203.0.113.10';
    for (let i = 0; i < 5; i++) expect((await post(ip)).statusCode).toBe(200);
    const blocked = await post(ip);
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().code).toBe('rate_limit:widget');
    const retry = Number(blocked.headers['retry-after']);
    expect(retry).toBeGreaterThan(0);
    expect(retry).toBeLessThanOrEqual(60);
    expect(blocked.json().details.retryAfter).toBe(retry);
    expect(blocked.headers['access-control-allow-origin']).toBe(SITE);
    expect((await post('203.0.113.11')).statusCode).toBe(200);
  });

  it('every public POST path shares one budget, refused ones included; GET and OPTIONS never count', async () => {
    const ip = '203.0.113.20';
    const first = await post(ip);
    const s = { sessionId: first.json().data.sessionId, token: first.json().data.sessionToken };
    for (let i = 0; i < 10; i++) {
      const get = await fromSite(t, { method: 'GET', url: `/api/widget/${asst}/config`, remoteAddress: ip });
      expect(get.statusCode).toBe(200);
      const options = await t.app.inject({
        method: 'OPTIONS',
        url: `/api/widget/${asst}/chat`,
        headers: { origin: SITE },
        remoteAddress: ip,
      });
      expect(options.statusCode).toBe(204);
    }
    expect((await post(ip, 'session')).statusCode).toBe(201);
    expect((await post(ip, 'init', { origin: 'https://evil.example' })).statusCode).toBe(403);
    expect((await widgetChat(t, asst, s, 'hello', { remoteAddress: ip })).status).toBe(200);
    const end = await fromSite(t, {
      method: 'POST',
      url: sessionUrl(asst, s, 'end'),
      token: s.token,
      remoteAddress: ip,
    });
    expect(end.statusCode).toBe(200);
    const sixth = await fromSite(t, {
      method: 'POST',
      url: '/api/widget/tickets/create',
      token: s.token,
      remoteAddress: ip,
      payload: { assistantId: asst, sessionId: s.sessionId, subject: 'a', description: 'b' },
    });
    expect(sixth.statusCode).toBe(429);
    // Still no GET limit.
    const get = await fromSite(t, { method: 'GET', url: `/api/widget/${asst}/config`, remoteAddress: ip });
    expect(get.statusCode).toBe(200);
  });

  it('ignores X-Forwarded-For without TRUST_PROXY', async () => {
    const ip = '203.0.113.30';
    for (let i = 0; i < 5; i++) {
      expect((await post(ip, 'init', { headers: { 'x-forwarded-for': `198.51.100.${i}` } })).statusCode).toBe(
        200,
      );
    }
    expect((await post(ip, 'init', { headers: { 'x-forwarded-for': '198.51.100.99' } })).statusCode).toBe(
      429,
    );
  });
});

describe('with TRUST_PROXY', () => {
  let t: TestApp;
  let asst: string;
  beforeAll(async () => {
    t = await createTestApp({ TRUST_PROXY: 'true' });
    const w = await createWorld(t);
    asst = await widgetAssistant(t, w.owner, w.ws);
  });
  afterAll(() => t.close());

  const post = (forwardedFor: string) =>
    fromSite(t, {
      method: 'POST',
      url: `/api/widget/${asst}/init`,
      remoteAddress: '10.0.0.1',
      headers: { 'x-forwarded-for': forwardedFor },
    });

  it('counts per client from X-Forwarded-For, not per proxy', async () => {
    for (let i = 0; i < 5; i++) expect((await post('198.51.100.7')).statusCode).toBe(200);
    expect((await post('198.51.100.7')).statusCode).toBe(429);
    // Same proxy socket, other clients: their own budgets.
    for (let i = 0; i < 8; i++) expect((await post(`198.51.100.${100 + i}`)).statusCode).toBe(200);
  });
});

describe('daily widget message quota per assistant (Free 200, Pro 5,000, Enterprise none; UTC day)', () => {
  let t: TestApp;
  let w: World;
  beforeAll(async () => {
    t = await createTestApp(NO_RATE_LIMIT);
    w = await createWorld(t);
  });
  afterAll(() => {
    setClockOffset(0);
    return t.close();
  });

  const today = () => new Date().toISOString().slice(0, 10);
  const setUsage = (assistantId: string, count: number) =>
    t.ctx.db
      .insert(widgetUsage)
      .values({ assistantId, day: today(), count })
      .onConflictDoUpdate({ target: [widgetUsage.assistantId, widgetUsage.day], set: { count } });
  const usage = async (assistantId: string, day = today()) =>
    (
      await t.ctx.db
        .select()
        .from(widgetUsage)
        .where(and(eq(widgetUsage.assistantId, assistantId), eq(widgetUsage.day, day)))
    )[0]?.count;

  it('Free: the 201st message of the day gets 429 rate_limit:widget with details.quota; nothing stored', async () => {
    const asst = await widgetAssistant(t, w.freeOwner, w.freeWs);
    const s = await initWidget(t, asst);
    await setUsage(asst, 199);
    expect((await widgetChat(t, asst, s, 'hello')).status).toBe(200);
    expect(await usage(asst)).toBe(200);
    const before = (await t.ctx.db.select().from(messages).where(eq(messages.workspaceId, w.freeWs))).length;
    const r = await widgetChat(t, asst, s, 'hello again');
    expect(r.status).toBe(429);
    const body = r.res.json();
    expect(body.code).toBe('rate_limit:widget');
    expect(body.details.quota).toBe(200);
    expect(Number(r.res.headers['retry-after'])).toBeGreaterThan(0);
    expect(r.res.headers['access-control-allow-origin']).toBe(SITE);
    expect((await t.ctx.db.select().from(messages).where(eq(messages.workspaceId, w.freeWs))).length).toBe(
      before,
    );
    expect(await usage(asst)).toBe(200);

    // The next UTC day starts from zero.
    setClockOffset(24 * 60 * 60 * 1000);
    try {
      expect((await widgetChat(t, asst, s, 'a new day')).status).toBe(200);
      const tomorrow = new Date(Date.now() + 24 * 60 * 60 * 1000).toISOString().slice(0, 10);
      expect(await usage(asst, tomorrow)).toBe(1);
    } finally {
      setClockOffset(0);
    }
  });

  it('Pro: 5,000 a day', async () => {
    const asst = await widgetAssistant(t, w.owner, w.ws);
    const s = await initWidget(t, asst);
    await setUsage(asst, 4999);
    expect((await widgetChat(t, asst, s, 'hello')).status).toBe(200);
    const r = await widgetChat(t, asst, s, 'hello');
    expect(r.status).toBe(429);
    expect(r.res.json().details.quota).toBe(5000);
  });

  it('Enterprise: no quota (still counted)', async () => {
    await setPlan(t, w.otherWs, 'enterprise');
    const asst = await widgetAssistant(t, w.outsider, w.otherWs);
    const s = await initWidget(t, asst);
    await setUsage(asst, 1_000_000);
    expect((await widgetChat(t, asst, s, 'hello')).status).toBe(200);
    // Counted as the turn is stored: in the statement that stores the new conversation, then on its own.
    expect(await usage(asst)).toBe(1_000_001);
    expect((await widgetChat(t, asst, s, 'hello again')).status).toBe(200);
    expect(await usage(asst)).toBe(1_000_002);
  });

  it('counts concurrent messages exactly at the edge: one of two passes', async () => {
    const asst = await widgetAssistant(t, w.freeOwner, w.freeWs);
    const [a, b] = [await initWidget(t, asst), await initWidget(t, asst)];
    await setUsage(asst, 199);
    const results = await Promise.all([widgetChat(t, asst, a, 'hello'), widgetChat(t, asst, b, 'hello')]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 429]);
    expect(await usage(asst)).toBe(200);
  });
});
