import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { smsConfigs } from '../../src/db/schema/index.ts';
import { createAssistant } from '../support/factories.ts';
import { ORIGIN, type TestApp } from '../support/harness.ts';
import { newAccountSid, newAuthToken, type SmsProvider } from '../support/sms-provider.ts';
import { createWorld, personalToken, type World } from '../support/world.ts';
import { newNumber, smsApp } from './helpers.ts';

/**
 * docs/sms.md "Configuration": Form A and Form B over one record, each with its own field names;
 * validation, the sealed token never returned, 409 on a number in use, 404 without a
 * configuration; and "Testing credentials": the provider is asked, nothing is saved.
 */
let t: TestApp;
let provider: SmsProvider;
let w: World;
let bearer: Record<string, string>;
beforeAll(async () => {
  ({ t, provider } = await smsApp());
  w = await createWorld(t);
  bearer = await personalToken(t, w.owner);
});
afterAll(async () => {
  await t.close();
  await provider.close();
});

const aUrl = (id: string) => `/api/assistants/${id}/sms`;
const bUrl = (id: string) => `/api/workspaces/${w.ws}/assistants/${id}/sms`;
/** Credentials the provider stand-in knows: a save is confirmed with the provider first. */
const creds = () => {
  const c = {
    providerAccountSid: newAccountSid(),
    providerAuthToken: newAuthToken(),
    providerPhoneNumber: newNumber(),
  };
  provider.addAccount(c.providerAccountSid, c.providerAuthToken, { [c.providerPhoneNumber]: {} });
  return c;
};
const post = (id: string, payload: unknown) =>
  t.request({ method: 'POST', url: aUrl(id), headers: w.owner.headers, payload: payload as object });
const patch = (id: string, payload: unknown) =>
  t.request({ method: 'PATCH', url: aUrl(id), headers: w.owner.headers, payload: payload as object });
const get = (id: string) => t.request({ method: 'GET', url: aUrl(id), headers: w.owner.headers });
const put = (id: string, payload: unknown) =>
  t.request({ method: 'PUT', url: bUrl(id), headers: bearer, payload: payload as object });
const getB = (id: string) => t.request({ method: 'GET', url: bUrl(id), headers: bearer });

describe('Form A', () => {
  it('creates with defaults, returns webhookUrl and never the token; the token is sealed at rest', async () => {
    const id = await createAssistant(t, w.owner, w.ws);
    const c = creds();
    const res = await post(id, c);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().data).toEqual({
      providerAccountSid: c.providerAccountSid,
      providerPhoneNumber: c.providerPhoneNumber,
      isEnabled: true,
      maxMessageLength: 1600,
      enableContactMatching: true,
      autoCreateContacts: true,
      webhookUrl: `${ORIGIN}/api/sms/webhook/${id}`,
      createdAt: expect.any(String),
    });
    expect(res.body).not.toContain(c.providerAuthToken);
    expect((await get(id)).body).not.toContain(c.providerAuthToken);
    const [row] = await t.ctx.db.select().from(smsConfigs).where(eq(smsConfigs.assistantId, id));
    expect(row?.authTokenSealed).toBeTruthy();
    expect(row?.authTokenSealed).not.toContain(c.providerAuthToken);
    expect(JSON.stringify(row)).not.toContain(c.providerAuthToken);
  });

  it('reads and writes only its own names; PATCH any subset', async () => {
    const id = await createAssistant(t, w.owner, w.ws);
    await post(id, { ...creds(), maxMessageLength: 160, autoCreateContacts: false });
    const res = await patch(id, { isEnabled: false, enableContactMatching: false });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({
      isEnabled: false,
      enableContactMatching: false,
      maxMessageLength: 160,
      autoCreateContacts: false,
    });
    expect(res.json().data).not.toHaveProperty('enabled');
    expect(res.json().data).not.toHaveProperty('sessionTimeoutMinutes');
    // Form B's names are unknown fields here.
    const wrong = await patch(id, { enabled: true });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().code).toBe('bad_request:api');
  });

  it('409 when the assistant has a configuration already, or the number is on another assistant', async () => {
    const id = await createAssistant(t, w.owner, w.ws);
    const c = creds();
    expect((await post(id, c)).statusCode).toBe(201);
    const again = await post(id, creds());
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('conflict:api');
    // The account that holds the number, putting it on a second assistant: the provider confirms,
    // then the 409.
    const other = await createAssistant(t, w.owner, w.ws);
    const taken = await post(other, c);
    expect(taken.statusCode).toBe(409);
    const second = await createAssistant(t, w.owner, w.ws);
    const mine = newNumber();
    provider.addAccount(c.providerAccountSid, c.providerAuthToken, {
      [c.providerPhoneNumber]: {},
      [mine]: {},
    });
    expect((await post(second, { ...c, providerPhoneNumber: mine })).statusCode).toBe(201);
    const patched = await patch(second, { providerPhoneNumber: c.providerPhoneNumber });
    expect(patched.statusCode).toBe(409);
  });

  it('404 not_found:api for GET, PATCH and DELETE without a configuration', async () => {
    const id = await createAssistant(t, w.owner, w.ws);
    for (const res of [
      await get(id),
      await patch(id, { isEnabled: true }),
      await t.request({ method: 'DELETE', url: aUrl(id), headers: w.owner.headers }),
    ]) {
      expect(res.statusCode, res.body).toBe(404);
      expect(res.json().code).toBe('not_found:api');
    }
  });

  it('DELETE removes it (204), then it is gone', async () => {
    const id = await createAssistant(t, w.owner, w.ws);
    await post(id, creds());
    const del = await t.request({ method: 'DELETE', url: aUrl(id), headers: w.owner.headers });
    expect(del.statusCode).toBe(204);
    expect((await get(id)).statusCode).toBe(404);
  });

  it.each([
    ['providerAccountSid', { providerAccountSid: 'AC123' }],
    ['providerAccountSid', { providerAccountSid: `XX${'a'.repeat(32)}` }],
    ['providerAccountSid', { providerAccountSid: `AC${'a'.repeat(31)}!` }],
    ['providerAuthToken', { providerAuthToken: 'short' }],
    ['providerAuthToken', { providerAuthToken: 'a'.repeat(31) }],
    ['providerPhoneNumber', { providerPhoneNumber: '5550102000' }],
    ['providerPhoneNumber', { providerPhoneNumber: '+0555010200' }],
    ['providerPhoneNumber', { providerPhoneNumber: '+1 555 010 2000' }],
    ['maxMessageLength', { maxMessageLength: 49 }],
    ['maxMessageLength', { maxMessageLength: 1601 }],
    ['maxMessageLength', { maxMessageLength: 100.5 }],
    ['isEnabled', { isEnabled: 'yes' }],
    ['webhookUrl', { webhookUrl: 'https://evil.example.com' }],
    ['createdAt', { createdAt: '2020-01-01T00:00:00.000Z' }],
  ])('400 naming %s', async (fieldName, override) => {
    const id = await createAssistant(t, w.owner, w.ws);
    const res = await post(id, { ...creds(), ...override });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().code).toBe('bad_request:api');
    expect(Object.keys(res.json().details ?? {}).join(' ')).toContain(fieldName);
  });

  it('400 when a required field is missing on create', async () => {
    const id = await createAssistant(t, w.owner, w.ws);
    for (const missing of ['providerAccountSid', 'providerAuthToken', 'providerPhoneNumber'] as const) {
      const body: Record<string, unknown> = creds();
      delete body[missing];
      const res = await post(id, body);
      expect(res.statusCode).toBe(400);
      expect(res.json().details).toHaveProperty(missing);
    }
  });
});

describe('Form B', () => {
  it('PUT creates and replaces with its own names; Form A reads the same record with its names', async () => {
    const id = await createAssistant(t, w.owner, w.ws);
    const c = creds();
    const body = {
      enabled: true,
      providerAccountSid: c.providerAccountSid,
      providerAuthToken: c.providerAuthToken,
      phoneNumber: c.providerPhoneNumber,
    };
    const created = await put(id, body);
    expect(created.statusCode, created.body).toBe(200);
    expect(created.json().data).toEqual({
      enabled: true,
      phoneNumber: c.providerPhoneNumber,
      providerAccountSid: c.providerAccountSid,
      webhookUrl: `${ORIGIN}/api/sms/webhook/${id}`,
      sessionTimeoutMinutes: 30,
      createdAt: expect.any(String),
    });
    expect(created.body).not.toContain(c.providerAuthToken);
    // Form A's own field set by Form A survives Form B's replace.
    await patch(id, { maxMessageLength: 300 });
    const replaced = await put(id, { ...body, enabled: false, sessionTimeoutMinutes: 5 });
    expect(replaced.json().data).toMatchObject({ enabled: false, sessionTimeoutMinutes: 5 });
    expect(replaced.json().data.createdAt).toBe(created.json().data.createdAt);
    const a = (await get(id)).json().data;
    expect(a).toMatchObject({
      isEnabled: false,
      providerPhoneNumber: c.providerPhoneNumber,
      maxMessageLength: 300,
    });
    expect(a).not.toHaveProperty('phoneNumber');
    expect((await getB(id)).json().data).toMatchObject({ enabled: false, sessionTimeoutMinutes: 5 });
    // An omitted timeout goes back to its default: PUT replaces.
    expect((await put(id, body)).json().data.sessionTimeoutMinutes).toBe(30);
  });

  it('400 without its required fields, with Form A names, or a timeout out of 1..1440', async () => {
    const id = await createAssistant(t, w.owner, w.ws);
    const c = creds();
    const body = {
      enabled: true,
      providerAccountSid: c.providerAccountSid,
      providerAuthToken: c.providerAuthToken,
      phoneNumber: c.providerPhoneNumber,
    };
    for (const bad of [
      { ...body, enabled: undefined },
      { ...body, phoneNumber: undefined, providerPhoneNumber: c.providerPhoneNumber },
      { ...body, isEnabled: true },
      { ...body, sessionTimeoutMinutes: 0 },
      { ...body, sessionTimeoutMinutes: 1441 },
      { ...body, maxMessageLength: 200 },
    ]) {
      const res = await put(id, bad);
      expect(res.statusCode, JSON.stringify(bad)).toBe(400);
    }
  });

  it('409 on a number another assistant holds; 404 on GET and DELETE without a configuration', async () => {
    const first = await createAssistant(t, w.owner, w.ws);
    const c = creds();
    await post(first, c);
    const id = await createAssistant(t, w.owner, w.ws);
    const res = await put(id, {
      enabled: true,
      providerAccountSid: c.providerAccountSid,
      providerAuthToken: c.providerAuthToken,
      phoneNumber: c.providerPhoneNumber,
    });
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('conflict:api');
    expect((await getB(id)).statusCode).toBe(404);
    const del = await t.request({ method: 'DELETE', url: bUrl(id), headers: bearer });
    expect(del.statusCode).toBe(404);
    expect(del.json().code).toBe('not_found:api');
  });

  it('400 on a period other than 7d, 30d or 90d; 404 analytics without a configuration', async () => {
    const id = await createAssistant(t, w.owner, w.ws);
    const none = await t.request({ method: 'GET', url: `${bUrl(id)}/analytics`, headers: bearer });
    expect(none.statusCode).toBe(404);
    await post(id, creds());
    for (const p of ['1d', '30', '', '365d']) {
      const res = await t.request({
        method: 'GET',
        url: `${bUrl(id)}/analytics?period=${p}`,
        headers: bearer,
      });
      expect(res.statusCode, p).toBe(400);
    }
    const ok = await t.request({ method: 'GET', url: `${bUrl(id)}/analytics`, headers: bearer });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().data).toMatchObject({ period: '30d', totalMessages: 0, inbound: 0, outbound: 0 });
    expect(ok.json().data.series).toHaveLength(30);
  });
});

describe('testing credentials', () => {
  const test = (id: string, body: object) =>
    t.request({ method: 'POST', url: `${aUrl(id)}/test`, headers: w.owner.headers, payload: body });

  it('valid with the capabilities when the account holds the number; nothing is saved', async () => {
    const id = await createAssistant(t, w.owner, w.ws);
    const saved = creds();
    await post(id, saved);
    const c = creds();
    provider.addAccount(c.providerAccountSid, c.providerAuthToken, {
      [c.providerPhoneNumber]: { mms: false },
    });
    const res = await test(id, c);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toEqual({
      valid: true,
      phoneNumberCapabilities: { sms: true, mms: false, voice: true },
    });
    // Nothing saved: the configuration still has the first credentials.
    expect((await get(id)).json().data.providerAccountSid).toBe(saved.providerAccountSid);
    // Form B's test, with its own name for the number.
    const b = await t.request({
      method: 'POST',
      url: `${bUrl(id)}/test`,
      headers: bearer,
      payload: {
        providerAccountSid: c.providerAccountSid,
        providerAuthToken: c.providerAuthToken,
        phoneNumber: c.providerPhoneNumber,
      },
    });
    expect(b.json().data.valid).toBe(true);
  });

  it('valid false, every capability false, on a rejected token or a number not in the account', async () => {
    const id = await createAssistant(t, w.owner, w.ws);
    await post(id, creds());
    const c = creds();
    provider.addAccount(c.providerAccountSid, c.providerAuthToken, { [c.providerPhoneNumber]: {} });
    const none = { sms: false, mms: false, voice: false };
    const wrongToken = await test(id, { ...c, providerAuthToken: newAuthToken() });
    expect(wrongToken.json().data).toMatchObject({ valid: false, phoneNumberCapabilities: none });
    const unknownNumber = await test(id, { ...c, providerPhoneNumber: newNumber() });
    expect(unknownNumber.json().data).toMatchObject({ valid: false, phoneNumberCapabilities: none });
    const unknownAccount = await test(id, { ...c, providerAccountSid: newAccountSid() });
    expect(unknownAccount.json().data).toMatchObject({ valid: false, phoneNumberCapabilities: none });
  });

  it('asks the provider with basic auth at SMS_PROVIDER_API_BASE', async () => {
    const id = await createAssistant(t, w.owner, w.ws);
    await post(id, creds());
    const c = creds();
    const before = provider.requests.length;
    await test(id, c);
    expect(provider.requests.slice(before)).toEqual([
      {
        method: 'GET',
        path: `/2010-04-01/Accounts/${c.providerAccountSid}/IncomingPhoneNumbers.json`,
      },
    ]);
  });
});

describe('the plan', () => {
  it('403 plan_upgrade_required on Free, for both forms', async () => {
    const id = await createAssistant(t, w.freeOwner, w.freeWs);
    const a = await t.request({
      method: 'POST',
      url: aUrl(id),
      headers: w.freeOwner.headers,
      payload: creds(),
    });
    expect(a.statusCode).toBe(403);
    expect(a.json().code).toBe('plan_upgrade_required');
    const b = await t.request({
      method: 'GET',
      url: `/api/workspaces/${w.freeWs}/assistants/${id}/sms`,
      headers: await personalToken(t, w.freeOwner),
    });
    expect(b.statusCode).toBe(403);
    expect(b.json().code).toBe('plan_upgrade_required');
  });
});

describe('deleting the assistant', () => {
  it('removes its SMS configuration, and frees the number', async () => {
    const id = await createAssistant(t, w.owner, w.ws);
    const c = creds();
    await post(id, c);
    const del = await t.request({ method: 'DELETE', url: `/api/assistants/${id}`, headers: w.owner.headers });
    expect(del.statusCode).toBe(204);
    const rows = await t.ctx.db.select().from(smsConfigs).where(eq(smsConfigs.assistantId, id));
    expect(rows).toHaveLength(0);
    const other = await createAssistant(t, w.owner, w.ws);
    expect((await post(other, c)).statusCode).toBe(201);
  });
});
