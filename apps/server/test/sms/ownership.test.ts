import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { smsConfigs } from '../../src/db/schema/index.ts';
import { createAssistant } from '../support/factories.ts';
import { createTestApp, type TestApp } from '../support/harness.ts';
import { newAccountSid, newAuthToken, type SmsProvider } from '../support/sms-provider.ts';
import { createWorld, personalToken, type World } from '../support/world.ts';
import { newNumber, smsApp } from './helpers.ts';

/**
 * docs/sms.md "Proof of ownership": a save asks the provider whether the account holds the number,
 * as the test does, and refuses in words (400) what it does not confirm, storing nothing; a change
 * of other fields alone never asks it. The test needs no saved configuration.
 */
let t: TestApp;
let provider: SmsProvider;
let w: World;
let bearer: Record<string, string>;
let outsiderBearer: Record<string, string>;
beforeAll(async () => {
  ({ t, provider } = await smsApp());
  w = await createWorld(t);
  bearer = await personalToken(t, w.owner);
  outsiderBearer = await personalToken(t, w.outsider);
});
afterAll(async () => {
  await t.close();
  await provider.close();
});

type Account = { sid: string; token: string; number: string };
/** An account at the provider (stand-in) holding one number, or none with `holds: false`. */
function account(holds = true): Account {
  const a = { sid: newAccountSid(), token: newAuthToken(), number: newNumber() };
  provider.addAccount(a.sid, a.token, holds ? { [a.number]: {} } : {});
  return a;
}
const bodyA = (a: Account) => ({
  providerAccountSid: a.sid,
  providerAuthToken: a.token,
  providerPhoneNumber: a.number,
});
const bodyB = (a: Account) => ({
  enabled: true,
  providerAccountSid: a.sid,
  providerAuthToken: a.token,
  phoneNumber: a.number,
});
const aUrl = (id: string) => `/api/assistants/${id}/sms`;
const bUrl = (ws: string, id: string) => `/api/workspaces/${ws}/assistants/${id}/sms`;
const post = (id: string, payload: object, headers = w.owner.headers) =>
  t.request({ method: 'POST', url: aUrl(id), headers, payload });
const patch = (id: string, payload: object) =>
  t.request({ method: 'PATCH', url: aUrl(id), headers: w.owner.headers, payload });
const put = (id: string, payload: object, ws = w.ws, headers = bearer) =>
  t.request({ method: 'PUT', url: bUrl(ws, id), headers, payload });
const rows = (id: string) => t.ctx.db.select().from(smsConfigs).where(eq(smsConfigs.assistantId, id));
const lookups = () => provider.requests.filter((r) => r.path.endsWith('/IncomingPhoneNumbers.json')).length;

/** A 400 bad_request:api that says in words why, at the whole body (`_`) and at `fields`. */
function expectRefused(res: { statusCode: number; body: string }, words: RegExp, fields: string[]) {
  expect(res.statusCode, res.body).toBe(400);
  const body = JSON.parse(res.body) as { code: string; error: string; details: Record<string, string> };
  expect(body.code).toBe('bad_request:api');
  expect(body.error).toMatch(words);
  expect(body.details._).toMatch(words);
  expect(Object.keys(body.details).sort()).toEqual(['_', ...fields].sort());
}

describe('Form A POST', () => {
  it('refuses a number the account does not hold and rejected credentials, storing nothing', async () => {
    const id = await createAssistant(t, w.owner, w.ws);
    const mine = account();
    const elsewhere = newNumber();
    expectRefused(
      await post(id, { ...bodyA(mine), providerPhoneNumber: elsewhere }),
      new RegExp(`does not hold \\${elsewhere}.*nothing was saved`),
      ['providerPhoneNumber'],
    );
    expectRefused(
      await post(id, { ...bodyA(mine), providerAuthToken: newAuthToken() }),
      /rejected these credentials/,
      ['providerAccountSid', 'providerAuthToken'],
    );
    expectRefused(await post(id, { ...bodyA(mine), providerAccountSid: newAccountSid() }), /rejected/, [
      'providerAccountSid',
      'providerAuthToken',
    ]);
    expect(await rows(id)).toEqual([]);
    expect((await post(id, bodyA(mine))).statusCode).toBe(201);
  });

  it('another workspace cannot claim a number its account does not hold; the real owner then saves it', async () => {
    const victim = account();
    const attacker = account(false);
    const theirs = await createAssistant(t, w.outsider, w.otherWs);
    const claim = { ...bodyA(attacker), providerPhoneNumber: victim.number };
    expectRefused(await post(theirs, claim, w.outsider.headers), /does not hold/, ['providerPhoneNumber']);
    const claimB = { ...bodyB(attacker), phoneNumber: victim.number };
    expectRefused(await put(theirs, claimB, w.otherWs, outsiderBearer), /does not hold/, ['phoneNumber']);
    expect(await rows(theirs)).toEqual([]);
    const id = await createAssistant(t, w.owner, w.ws);
    const saved = await post(id, bodyA(victim));
    expect(saved.statusCode, saved.body).toBe(201);
    expect(saved.json().data.providerPhoneNumber).toBe(victim.number);
  });

  it('the provider is asked after the plan and validation, before the 409s', async () => {
    const before = lookups();
    const free = await createAssistant(t, w.freeOwner, w.freeWs);
    expect((await post(free, bodyA(account()), w.freeOwner.headers)).statusCode).toBe(403);
    const id = await createAssistant(t, w.owner, w.ws);
    expect((await post(id, { ...bodyA(account()), providerPhoneNumber: '555' })).statusCode).toBe(400);
    expect(lookups()).toBe(before);
    // A configured assistant: an unconfirmed number is a 400, not the 409 of "has one already".
    const first = account();
    expect((await post(id, bodyA(first))).statusCode).toBe(201);
    expectRefused(await post(id, bodyA(account(false))), /does not hold/, ['providerPhoneNumber']);
    expect((await post(id, bodyA(account()))).statusCode).toBe(409);
  });
});

describe('Form A PATCH', () => {
  it('a new number, token or SID is confirmed (stored values fill the rest); other fields never ask', async () => {
    const id = await createAssistant(t, w.owner, w.ws);
    const a = account();
    await post(id, bodyA(a));
    const [stored] = await rows(id);
    expectRefused(await patch(id, { providerPhoneNumber: newNumber() }), /does not hold/, [
      'providerPhoneNumber',
    ]);
    expectRefused(await patch(id, { providerAuthToken: newAuthToken() }), /rejected these credentials/, [
      'providerAccountSid',
      'providerAuthToken',
    ]);
    const sid = newAccountSid();
    expectRefused(await patch(id, { providerAccountSid: sid, providerAuthToken: a.token }), /rejected/, [
      'providerAccountSid',
      'providerAuthToken',
    ]);
    // A new SID without its token: the saved token is never sent for another account.
    const asked = lookups();
    const noToken = await patch(id, { providerAccountSid: sid, isEnabled: false });
    expect(noToken.statusCode).toBe(400);
    expect(noToken.json().details.providerAuthToken).toMatch(/^Required with a new account SID/);
    expect(lookups()).toBe(asked);
    expect(await rows(id)).toEqual([stored]);

    // The stored token, with a new number the account holds.
    const next = newNumber();
    provider.addAccount(a.sid, a.token, { [a.number]: {}, [next]: {} });
    const moved = await patch(id, { providerPhoneNumber: next });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json().data.providerPhoneNumber).toBe(next);

    // The provider no longer knows the saved token (rotated there): options still save, and
    // resending the saved values is no change, so nothing is asked.
    provider.addAccount(a.sid, newAuthToken(), { [next]: {} });
    const before = lookups();
    const options = await patch(id, {
      isEnabled: false,
      maxMessageLength: 320,
      enableContactMatching: false,
      autoCreateContacts: false,
      providerAccountSid: a.sid,
      providerAuthToken: a.token,
      providerPhoneNumber: next,
    });
    expect(options.statusCode, options.body).toBe(200);
    expect(options.json().data).toMatchObject({ isEnabled: false, maxMessageLength: 320 });
    expect(lookups()).toBe(before);
  });
});

describe('Form B PUT', () => {
  it('refuses an unknown number and rejected credentials, storing nothing; then saves', async () => {
    const id = await createAssistant(t, w.owner, w.ws);
    const a = account();
    expectRefused(await put(id, { ...bodyB(a), phoneNumber: newNumber() }), /does not hold/, ['phoneNumber']);
    expectRefused(await put(id, { ...bodyB(a), providerAuthToken: newAuthToken() }), /rejected/, [
      'providerAccountSid',
      'providerAuthToken',
    ]);
    expect(await rows(id)).toEqual([]);
    const saved = await put(id, bodyB(a));
    expect(saved.statusCode, saved.body).toBe(200);
    // Replacing with a number the account does not hold changes nothing.
    const [stored] = await rows(id);
    expectRefused(await put(id, { ...bodyB(a), phoneNumber: newNumber() }), /does not hold/, ['phoneNumber']);
    expect(await rows(id)).toEqual([stored]);
  });
});

describe('the test, with no saved configuration', () => {
  const test = (id: string, payload: object, form: 'A' | 'B' = 'A') =>
    t.request({
      method: 'POST',
      url: form === 'A' ? `${aUrl(id)}/test` : `${bUrl(w.ws, id)}/test`,
      headers: form === 'A' ? w.owner.headers : bearer,
      payload,
    });

  it('answers for the credentials in its body in both forms, and saves nothing', async () => {
    const id = await createAssistant(t, w.owner, w.ws);
    const a = account();
    const ok = await test(id, bodyA(a));
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().data).toEqual({
      valid: true,
      phoneNumberCapabilities: { sms: true, mms: true, voice: true },
    });
    const { enabled: _, ...b } = bodyB(a);
    expect((await test(id, b, 'B')).json().data.valid).toBe(true);
    const unknown = await test(id, { ...bodyA(a), providerPhoneNumber: newNumber() });
    expect(unknown.json().data).toMatchObject({
      valid: false,
      reason: 'This number is not in the provider account',
    });
    expect(await rows(id)).toEqual([]);
  });

  it('without a token: the saved one with the saved SID; otherwise 400 naming the token', async () => {
    const id = await createAssistant(t, w.owner, w.ws);
    const a = account();
    const { providerAuthToken: _, ...noToken } = bodyA(a);
    const none = await test(id, noToken);
    expect(none.statusCode).toBe(400);
    expect(none.json().details.providerAuthToken).toMatch(/no saved auth token/);
    await post(id, bodyA(a));
    expect((await test(id, noToken)).json().data.valid).toBe(true);
    const otherSid = await test(id, { ...noToken, providerAccountSid: newAccountSid() });
    expect(otherSid.statusCode).toBe(400);
    expect(otherSid.json().details.providerAuthToken).toMatch(/only with the saved account SID/);
  });
});

describe('a provider that does not answer', () => {
  it('a 5xx or no connection is a 400 in words; nothing is stored', async () => {
    const down = createServer((_req, res) => {
      res.writeHead(503, { 'content-type': 'application/json' });
      res.end('{"code":20500,"message":"Service unavailable","status":503}');
    });
    await new Promise<void>((r) => down.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(down.address() as AddressInfo).port}`;
    const t2 = await createTestApp({ SMS_PROVIDER_API_BASE: url, WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' });
    try {
      const w2 = await createWorld(t2);
      const id = await createAssistant(t2, w2.owner, w2.ws);
      const a = { sid: newAccountSid(), token: newAuthToken(), number: newNumber() };
      const save = () =>
        t2.request({ method: 'POST', url: aUrl(id), headers: w2.owner.headers, payload: bodyA(a) });
      expectRefused(
        await save(),
        /^The provider answered HTTP 503, so the number could not be confirmed/,
        [],
      );
      await new Promise<void>((r) => down.close(() => r()));
      expectRefused(
        await save(),
        /^The provider could not be reached, so the number could not be confirmed/,
        [],
      );
      const stored = await t2.ctx.db.select().from(smsConfigs).where(eq(smsConfigs.assistantId, id));
      expect(stored).toEqual([]);
    } finally {
      await t2.close();
      if (down.listening) down.close();
    }
  });
});
