import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/harness.ts';
import { createWorld, type World } from '../support/world.ts';
import {
  configureWidget,
  fromSite,
  initWidget,
  NO_RATE_LIMIT,
  type Session,
  SITE,
  sessionUrl,
  widgetAssistant,
} from './helpers.ts';

/**
 * The three-layer check on every public widget endpoint (docs/widget.md):
 * enabled widget (404) → allowlisted Origin/Referer (403) → session token bound to its session
 * (401); and the CORS answers (docs/widget.md "CORS").
 */
let t: TestApp;
let w: World;
let asst: string;
let disabled: string;
let s: Session;

beforeAll(async () => {
  t = await createTestApp(NO_RATE_LIMIT);
  w = await createWorld(t);
  asst = await widgetAssistant(t, w.owner, w.ws);
  disabled = await widgetAssistant(t, w.owner, w.ws, { isEnabled: false });
  s = await initWidget(t, asst);
});
afterAll(() => t.close());

type Endpoint = {
  name: string;
  token: boolean;
  request: (assistantId: string, session: Session) => InjectOptions;
};

const ENDPOINTS: Endpoint[] = [
  {
    name: 'A init',
    token: false,
    request: (a) => ({ method: 'POST', url: `/api/widget/${a}/init`, payload: { sessionId: null } }),
  },
  {
    name: 'A chat',
    token: true,
    request: (a, x) => ({
      method: 'POST',
      url: `/api/widget/${a}/chat`,
      payload: { sessionId: x.sessionId, content: 'hello' },
    }),
  },
  {
    name: 'A messages',
    token: true,
    request: (a, x) => ({ method: 'GET', url: sessionUrl(a, x, 'messages') }),
  },
  {
    name: 'A lead',
    token: true,
    request: (a, x) => ({
      method: 'POST',
      url: sessionUrl(a, x, 'lead'),
      payload: { email: 'm@example.com' },
    }),
  },
  {
    name: 'A feedback',
    token: true,
    request: (a, x) => ({
      method: 'POST',
      url: sessionUrl(a, x, 'feedback'),
      payload: { rating: 'positive' },
    }),
  },
  { name: 'A end', token: true, request: (a, x) => ({ method: 'POST', url: sessionUrl(a, x, 'end') }) },
  { name: 'B config', token: false, request: (a) => ({ method: 'GET', url: `/api/widget/${a}/config` }) },
  { name: 'B session', token: false, request: (a) => ({ method: 'POST', url: `/api/widget/${a}/session` }) },
  {
    name: 'B lead',
    token: true,
    request: (a, x) => ({
      method: 'POST',
      url: `/api/widget/${a}/lead`,
      payload: { sessionId: x.sessionId, name: 'Pat' },
    }),
  },
  {
    name: 'B feedback',
    token: true,
    request: (a, x) => ({
      method: 'POST',
      url: `/api/widget/${a}/feedback`,
      payload: { sessionId: x.sessionId, rating: 'negative' },
    }),
  },
  {
    name: 'B history',
    token: true,
    request: (a, x) => ({ method: 'GET', url: `/api/widget/${a}/history?sessionId=${x.sessionId}` }),
  },
  {
    name: 'B tickets/create',
    token: true,
    request: (a, x) => ({
      method: 'POST',
      url: '/api/widget/tickets/create',
      payload: { assistantId: a, sessionId: x.sessionId, subject: 'Help', description: 'Please.' },
    }),
  },
];

const send = (req: InjectOptions, opts: { token?: string; origin?: string | null; referer?: string } = {}) =>
  fromSite(t, {
    ...req,
    token: opts.token,
    origin: opts.origin,
    headers: opts.referer ? { referer: opts.referer } : undefined,
  });

const corsKeys = (headers: Record<string, unknown>) =>
  Object.keys(headers)
    .filter((h) => h.startsWith('access-control-'))
    .sort();

describe.each(ENDPOINTS)('three layers: $name', (endpoint) => {
  it('allows an allowlisted origin with a valid token, with the CORS headers', async () => {
    const session = endpoint.name === 'A end' ? await initWidget(t, asst) : s;
    const res = await send(endpoint.request(asst, session), { token: session.token });
    expect(res.statusCode, res.body).toBeGreaterThanOrEqual(200);
    expect(res.statusCode, res.body).toBeLessThan(300);
    expect(res.headers['access-control-allow-origin']).toBe(SITE);
    expect(res.headers['access-control-allow-methods']).toBe('GET, POST, OPTIONS');
    expect(res.headers['access-control-allow-headers']).toBe('Content-Type, Authorization');
    expect(res.headers['access-control-max-age']).toBe('86400');
  });

  it('404 not_found:widget for an unknown assistant or a disabled widget (before the origin check)', async () => {
    for (const id of ['asst_doesnotexist', disabled, 'x'.repeat(150)]) {
      const res = await send(endpoint.request(id, s), { token: s.token, origin: 'https://evil.example' });
      expect(res.statusCode, `${id}: ${res.body}`).toBe(404);
      expect(res.json().code).toBe('not_found:widget');
      expect(corsKeys(res.headers)).toEqual([]);
    }
  });

  it('403 forbidden:api without CORS headers for a missing or disallowed origin (before the token)', async () => {
    const origins = [
      null,
      'https://evil.example',
      'https://shop.example.com.evil.example',
      'https://example.com',
      'null',
      'not a url',
      'ftp://shop.example.com',
    ];
    for (const origin of origins) {
      const res = await send(endpoint.request(asst, s), { origin });
      expect(res.statusCode, `${origin}: ${res.body}`).toBe(403);
      expect(res.json().code).toBe('forbidden:api');
      expect(corsKeys(res.headers)).toEqual([]);
    }
  });

  it('takes the Referer when there is no Origin', async () => {
    const session = endpoint.name === 'A end' ? await initWidget(t, asst) : s;
    const ok = await send(endpoint.request(asst, session), {
      token: session.token,
      origin: null,
      referer: `${SITE}/products/kettle?ref=1`,
    });
    expect(ok.statusCode, ok.body).toBeLessThan(300);
    expect(ok.headers['access-control-allow-origin']).toBe(SITE);
    const bad = await send(endpoint.request(asst, s), { origin: null, referer: 'https://evil.example/x' });
    expect(bad.statusCode).toBe(403);
  });

  if (endpoint.token) {
    it('401 unauthorized:widget for a missing, wrong, other-session or other-assistant token', async () => {
      const other = await initWidget(t, asst);
      const elsewhere = await initWidget(t, await widgetAssistant(t, w.owner, w.ws));
      const tokens = [undefined, 'wst_not-a-real-token-at-all', other.token, elsewhere.token];
      for (const token of tokens) {
        // B tickets/create and the chat name the session in the body; the token must match it.
        const res = await send(endpoint.request(asst, s), { token });
        expect(res.statusCode, `${token}: ${res.body}`).toBe(401);
        expect(res.json().code).toBe('unauthorized:widget');
        expect(res.headers['access-control-allow-origin']).toBe(SITE);
      }
      for (const authorization of [`Bearer ${s.token}`, s.token, 'Widget', `Widget ${s.token} extra`]) {
        const res = await fromSite(t, { ...endpoint.request(asst, s), headers: { authorization } });
        expect(res.statusCode, authorization).toBe(401);
      }
    });
  }
});

describe('allowlist matching (docs/widget.md)', () => {
  /** One request against a fresh widget, disabled afterwards (a `*` list would admit everyone later). */
  const check = async (domains: string[], origin: string) => {
    const id = await widgetAssistant(t, w.owner, w.ws, { allowedDomains: domains });
    const res = await fromSite(t, { method: 'GET', url: `/api/widget/${id}/config`, origin });
    await configureWidget(t, w.owner, id, { isEnabled: false });
    return res.statusCode;
  };

  it('*.example.org matches subdomains at any depth, not the apex or look-alikes', async () => {
    const id = await widgetAssistant(t, w.owner, w.ws, { allowedDomains: ['*.example.org'] });
    const status = async (origin: string) =>
      (await fromSite(t, { method: 'GET', url: `/api/widget/${id}/config`, origin })).statusCode;
    expect(await status('https://a.example.org')).toBe(200);
    expect(await status('https://a.b.example.org')).toBe(200);
    expect(await status('http://a.example.org:8080')).toBe(200);
    expect(await status('https://example.org')).toBe(403);
    expect(await status('https://badexample.org')).toBe(403);
    expect(await status('https://a.example.org.evil.com')).toBe(403);
  });

  it('* allows any origin; an empty list allows none; hosts match whatever the port or scheme', async () => {
    expect(await check(['*'], 'https://anything.test')).toBe(200);
    expect(await check([], SITE)).toBe(403);
    expect(await check(['localhost', '127.0.0.1'], 'http://localhost:5173')).toBe(200);
    expect(await check(['localhost', '127.0.0.1'], 'http://127.0.0.1:3000')).toBe(200);
    expect(await check(['Shop.Example.COM'], 'https://shop.example.com')).toBe(200);
    expect(await check(['bücher.example'], 'https://xn--bcher-kva.example')).toBe(200);
  });

  it('a disabled widget answers 404 with CORS headers to its own allowlisted origin only', async () => {
    const ok = await fromSite(t, { method: 'GET', url: `/api/widget/${disabled}/config` });
    expect(ok.statusCode).toBe(404);
    expect(ok.headers['access-control-allow-origin']).toBe(SITE);
    const other = await fromSite(t, {
      method: 'GET',
      url: `/api/widget/${disabled}/config`,
      origin: 'https://x.test',
    });
    expect(corsKeys(other.headers)).toEqual([]);
    await configureWidget(t, w.owner, disabled, { isEnabled: true });
    expect((await fromSite(t, { method: 'GET', url: `/api/widget/${disabled}/config` })).statusCode).toBe(
      200,
    );
    await configureWidget(t, w.owner, disabled, { isEnabled: false });
  });
});

describe('OPTIONS preflight', () => {
  const preflight = (url: string, origin?: string) =>
    t.app.inject({
      method: 'OPTIONS',
      url,
      headers: {
        ...(origin ? { origin } : {}),
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type, authorization',
      },
    });

  it('204 with exactly the spec’s CORS headers for an allowlisted origin, on every widget path', async () => {
    for (const path of ['init', 'chat', `sessions/${s.sessionId}/lead`, 'config', 'history', 'session']) {
      const res = await preflight(`/api/widget/${asst}/${path}`, SITE);
      expect(res.statusCode, path).toBe(204);
      expect(res.body).toBe('');
      expect(corsKeys(res.headers)).toEqual([
        'access-control-allow-headers',
        'access-control-allow-methods',
        'access-control-allow-origin',
        'access-control-max-age',
      ]);
      expect(res.headers['access-control-allow-origin']).toBe(SITE);
      expect(res.headers['access-control-allow-methods']).toBe('GET, POST, OPTIONS');
      expect(res.headers['access-control-allow-headers']).toBe('Content-Type, Authorization');
      expect(res.headers['access-control-max-age']).toBe('86400');
      expect(res.headers.vary).toBe('Origin');
    }
  });

  it('403 without CORS headers for a disallowed or missing origin; 404 for an unknown assistant', async () => {
    for (const origin of ['https://evil.example', undefined]) {
      const res = await preflight(`/api/widget/${asst}/chat`, origin);
      expect(res.statusCode).toBe(403);
      expect(res.json().code).toBe('forbidden:api');
      expect(corsKeys(res.headers)).toEqual([]);
    }
    const unknown = await preflight('/api/widget/asst_nope/chat', SITE);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().code).toBe('not_found:widget');
    expect(corsKeys(unknown.headers)).toEqual([]);
  });

  it('lets a disabled widget’s allowlisted origin through, so the page can read the 404 that follows', async () => {
    expect((await preflight(`/api/widget/${disabled}/init`, SITE)).statusCode).toBe(204);
  });

  it('tickets/create: allowed when the origin is on any enabled widget’s allowlist', async () => {
    const ok = await preflight('/api/widget/tickets/create', SITE);
    expect(ok.statusCode).toBe(204);
    expect(ok.headers['access-control-allow-origin']).toBe(SITE);
    const bad = await preflight('/api/widget/tickets/create', 'https://nobody.example');
    expect(bad.statusCode).toBe(403);
    expect(corsKeys(bad.headers)).toEqual([]);
  });
});
