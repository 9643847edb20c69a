import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signupUser } from '../support/factories.ts';
import { createTestApp, type TestApp } from '../support/harness.ts';
import { expectNothingStored } from '../support/stored-rows.ts';

/** docs/api.md "Requests and responses", through the real app: body parsing, unknown routes, request ids. */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const json = { 'content-type': 'application/json' };
const signup = (payload: string, headers: Record<string, string> = json) =>
  t.request({ method: 'POST', url: '/api/auth/signup', headers, payload });

function expectBadRequest(res: { statusCode: number; json(): unknown; headers: Record<string, unknown> }) {
  expect(res.statusCode).toBe(400);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  const body = res.json() as { code: string; error: string };
  expect(body.code).toBe('bad_request:api');
  expect(typeof body.error).toBe('string');
  return body;
}

describe('request bodies', () => {
  it('answers malformed JSON with 400 bad_request:api', async () => {
    for (const payload of ['{"email": ', '{email: 1}', "{'a': 1}", '[1,', 'nul', '{"a":1}}']) {
      expectBadRequest(await signup(payload));
    }
  });

  it('answers an empty JSON body with 400', async () => {
    expectBadRequest(await signup(''));
  });

  it('answers a wrong Content-Type with 400 (docs/api.md), never 415', async () => {
    const body = JSON.stringify({ email: 'a@example.com', password: 'long enough pw', name: 'A' });
    for (const type of [
      'application/xml',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
    ]) {
      expectBadRequest(await signup(body, { 'content-type': type }));
    }
    // text/plain has a parser; the body then is a string, not an object: still a 400.
    expectBadRequest(await signup(body, { 'content-type': 'text/plain' }));
  });

  it('answers a JSON body over 2 MiB with 413 payload_too_large:api as JSON', async () => {
    const name = 'x'.repeat(2 * 1024 * 1024);
    const res = await signup(JSON.stringify({ email: 'a@example.com', password: 'long enough pw', name }));
    expect(res.statusCode).toBe(413);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.json()).toEqual({ error: expect.any(String), code: 'payload_too_large:api' });
  });

  it('accepts a body just under the limit and validates it (400, not 413)', async () => {
    const name = 'x'.repeat(2 * 1024 * 1024 - 200);
    const body = expectBadRequest(
      await signup(JSON.stringify({ email: 'a@example.com', password: 'long enough pw', name })),
    );
    expect(body).toMatchObject({ details: { name: expect.any(String) } });
  });
});

describe('hostile input is a 400 with details, never a 500', () => {
  const valid = { email: 'hostile@example.com', password: 'long enough pw', name: 'Ada' };
  /** A signup that must be refused: and store nothing, no user or session (support/stored-rows.ts). */
  const refused = (payload: string) => expectNothingStored(t, () => signup(payload), payload.slice(0, 60));

  it('rejects unknown fields, naming each one', async () => {
    const res = await refused(JSON.stringify({ ...valid, id: 'usr_x', isAdmin: true, createdAt: 'now' }));
    expect(expectBadRequest(res)).toMatchObject({
      details: { id: 'Unknown field', isAdmin: 'Unknown field', createdAt: 'Unknown field' },
    });
  });

  it('rejects __proto__ and constructor.prototype keys', async () => {
    const cases = [
      `{"email":"a@example.com","password":"long enough pw","name":"A","__proto__":{"isAdmin":true}}`,
      `{"email":"a@example.com","password":"long enough pw","name":"A","constructor":{"prototype":{"x":1}}}`,
      `{"email":"a@example.com","password":"long enough pw","name":{"__proto__":{"x":1}}}`,
    ];
    for (const payload of cases) expectBadRequest(await refused(payload));
    expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
  });

  it('rejects a plain `constructor` key as an unknown field', async () => {
    const res = await refused(JSON.stringify({ ...valid, constructor: 1 }));
    expect(expectBadRequest(res)).toMatchObject({ details: { constructor: 'Unknown field' } });
  });

  it('rejects wrong types field by field', async () => {
    const res = await refused(JSON.stringify({ email: 42, password: ['a'], name: { first: 'A' } }));
    expect(expectBadRequest(res)).toMatchObject({
      details: { email: expect.any(String), password: expect.any(String), name: expect.any(String) },
    });
  });

  it('rejects arrays, strings, numbers and null where an object is expected', async () => {
    for (const payload of ['[]', `[${JSON.stringify(valid)}]`, '"text"', '42', 'null', 'true']) {
      expectBadRequest(await refused(payload));
    }
  });

  it('bounds huge strings', async () => {
    const res = await refused(
      JSON.stringify({ ...valid, name: 'n'.repeat(100_000), email: `${'e'.repeat(5000)}@x.io` }),
    );
    expect(expectBadRequest(res)).toMatchObject({
      details: { name: expect.any(String), email: expect.any(String) },
    });
  });

  it('handles unicode, NUL bytes and lone surrogates without a 500', async () => {
    const names = ['Zoë 李雷 🦜', 'a\u0000b', '\ud800', 'R\u0301\u200f\u202e'];
    for (const name of names) {
      const res = await signup(
        JSON.stringify({ ...valid, email: `u${names.indexOf(name)}@example.com`, name }),
      );
      expect(res.statusCode, `${JSON.stringify(name)} → ${res.body}`).toBeLessThan(500);
    }
    const nul = await refused(JSON.stringify({ ...valid, email: 'nul@example.com', name: 'a\u0000b' }));
    expect(expectBadRequest(nul)).toMatchObject({ details: { name: expect.stringMatching(/NUL/) } });
    const ok = await signup(JSON.stringify({ ...valid, email: 'unicode@example.com', name: 'Zoë 李雷 🦜' }));
    expect(ok.statusCode).toBe(201);
    expect(ok.json().data.user.name).toBe('Zoë 李雷 🦜');
  });

  it('validates query strings and params too', async () => {
    const user = await signupUser(t);
    const res = await t.request({
      method: 'DELETE',
      url: `/api/auth/tokens/${'x'.repeat(500)}`,
      headers: user.headers,
    });
    // Longer than any id we issue: names nothing (Fastify's own answer would be a 414).
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe('not_found:api');
    const nul = await t.request({
      method: 'DELETE',
      url: '/api/auth/tokens/pat_%00x',
      headers: user.headers,
    });
    expect(nul.statusCode).toBe(400);
    const badEncoding = await t.request({
      method: 'DELETE',
      url: '/api/auth/tokens/%E0%A4%A',
      headers: user.headers,
    });
    expect(badEncoding.statusCode).toBe(400);
    expect(badEncoding.json().code).toBe('bad_request:api');
  });
});

describe('routes and ids', () => {
  it('answers an unknown route with a JSON 404 not_found:api', async () => {
    for (const [method, url] of [
      ['GET', '/api/nope'],
      ['POST', '/api/auth/nope'],
      ['GET', '/definitely/not/here?x=1'],
      ['PUT', '/api/auth/signup'],
    ] as const) {
      const res = await t.request({ method, url });
      expect(res.statusCode, `${method} ${url}`).toBe(404);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.json()).toEqual({ error: expect.any(String), code: 'not_found:api' });
    }
  });

  it('sets an x-request-id on every response and ignores one sent by the client', async () => {
    const ids = new Set<string>();
    for (const url of ['/healthz', '/api/nope', '/api/auth/session']) {
      const res = await t.request({ method: 'GET', url, headers: { 'x-request-id': 'client-chosen' } });
      const id = res.headers['x-request-id'];
      expect(typeof id).toBe('string');
      expect(id).not.toBe('client-chosen');
      ids.add(id as string);
    }
    expect(ids.size).toBe(3);
  });

  it('issues prefixed, time-ordered ids', async () => {
    const a = await signupUser(t);
    const b = await signupUser(t);
    expect(a.id).toMatch(/^usr_[0-9a-z]{26}$/);
    expect(a.id < b.id).toBe(true);
  });
});
