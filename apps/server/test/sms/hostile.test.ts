import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { smsConfigs, smsInbound } from '../../src/db/schema/index.ts';
import type { TestApp } from '../support/harness.ts';
import { newAccountSid, newAuthToken, type SmsProvider, signRequest } from '../support/sms-provider.ts';
import { expectNothingStored, untilQuiet } from '../support/stored-rows.ts';
import { waitFor } from '../support/wait.ts';
import { createWorld, personalToken, type World } from '../support/world.ts';
import { inbound, type Line, newMessageSid, newNumber, signedPost, smsApp, smsLine } from './helpers.ts';

/**
 * docs/sms.md: hostile input on every SMS route (wrong types, unknown fields, huge bodies,
 * unicode, bad E.164 numbers and SIDs, odd ids and queries) is a 4xx naming the field, never a 500
 * and never a change; hostile text from the provider is stored as sent (less NUL), signed or refused.
 */
let t: TestApp;
let provider: SmsProvider;
let w: World;
let bearer: Record<string, string>;
let line: Line;
beforeAll(async () => {
  ({ t, provider } = await smsApp());
  w = await createWorld(t);
  bearer = await personalToken(t, w.owner);
  line = await smsLine(t, provider, w.owner, w.ws);
  t.startJobs(['sms-inbound', 'sms-send'], { 'sms-inbound': 50, 'sms-send': 50 });
});
afterAll(async () => {
  await t.close();
  await provider.close();
});

const a = () => `/api/assistants/${line.assistantId}/sms`;
const b = () => `/api/workspaces/${w.ws}/assistants/${line.assistantId}/sms`;
const creds = () => ({
  providerAccountSid: newAccountSid(),
  providerAuthToken: newAuthToken(),
  providerPhoneNumber: newNumber(),
});
const credsB = () => {
  const c = creds();
  return {
    enabled: true,
    providerAccountSid: c.providerAccountSid,
    providerAuthToken: c.providerAuthToken,
    phoneNumber: c.providerPhoneNumber,
  };
};
const stored = async () =>
  (await t.ctx.db.select().from(smsConfigs).where(eq(smsConfigs.assistantId, line.assistantId)))[0];

/** Values of the wrong type or shape, per the field's type. */
const shapes: unknown[] = [null, [], {}, { $gt: '' }];
const wrongFor = {
  string: [...shapes, 42, true, ['AC']],
  boolean: [...shapes, 'true', 1, 'yes'],
  integer: [...shapes, '160', true, 1.5, 1e308],
};
type Kind = keyof typeof wrongFor;
const wrongValues = (fields: Record<string, Kind>) =>
  Object.entries(fields).flatMap(([f, kind]) => wrongFor[kind].map((v) => [f, v] as const));
const badSids = [
  'AC',
  `AC${'a'.repeat(33)}`,
  `ac${'a'.repeat(32)}`,
  `AC${'ａ'.repeat(32)}`,
  `AC${'a'.repeat(31)}\u0000`,
  `AC${'🚀'.repeat(16)}`,
];
const badNumbers = [
  '5550102000',
  '+',
  '+0123456789',
  '+1555010200012345',
  '+1 555 010 2000',
  '+1-555-010-2000',
  '+１５５５０１０２０００',
  '+1555\u202e0102000',
  '+15550102000\n',
  '+15550102000;drop table sms_configs',
];

describe('Form A body', () => {
  const bodies = (): Array<[string, Record<string, unknown>]> => [
    ...wrongValues({
      providerAccountSid: 'string',
      providerAuthToken: 'string',
      providerPhoneNumber: 'string',
      isEnabled: 'boolean',
      maxMessageLength: 'integer',
      enableContactMatching: 'boolean',
      autoCreateContacts: 'boolean',
    }).map(([f, v]): [string, Record<string, unknown>] => [f, { ...creds(), [f]: v }]),
    ...badSids.map((s): [string, Record<string, unknown>] => [
      'providerAccountSid',
      { ...creds(), providerAccountSid: s },
    ]),
    ...badNumbers.map((n): [string, Record<string, unknown>] => [
      'providerPhoneNumber',
      { ...creds(), providerPhoneNumber: n },
    ]),
    ['providerAuthToken', { ...creds(), providerAuthToken: `${'a'.repeat(31)} ` }],
    ['providerAuthToken', { ...creds(), providerAuthToken: '🔑'.repeat(20) }],
    ['providerAuthToken', { ...creds(), providerAuthToken: 'a'.repeat(257) }],
    ['maxMessageLength', { ...creds(), maxMessageLength: '160' }],
    ['maxMessageLength', { ...creds(), maxMessageLength: 1e308 }],
    ['sessionTimeoutMinutes', { ...creds(), sessionTimeoutMinutes: 10 }],
    ['phoneNumber', { ...creds(), phoneNumber: '+15550102000' }],
    ['__proto__', JSON.parse(`{"__proto__":{"isEnabled":false},"providerAccountSid":"${newAccountSid()}"}`)],
  ];

  it('PATCH: every hostile body is a 400 naming the field, and changes nothing', async () => {
    const before = await stored();
    for (const [field, body] of bodies()) {
      const res = await t.request({ method: 'PATCH', url: a(), headers: w.owner.headers, payload: body });
      expect(res.statusCode, `${field} ${JSON.stringify(body[field])}`).toBe(400);
      expect(res.json().code).toBe('bad_request:api');
      expect(JSON.stringify(res.json().details ?? {})).toContain(field === '__proto__' ? '' : field);
    }
    expect(await stored()).toEqual(before);
  });

  it('POST and test: the same bodies are 400s; nothing is asked of the provider', async () => {
    const asked = provider.requests.length;
    for (const [field, body] of bodies()) {
      for (const url of [a(), `${a()}/test`]) {
        const res = await expectNothingStored(t, () =>
          t.request({ method: 'POST', url, headers: w.owner.headers, payload: body }),
        );
        // POST on a configured assistant is a 409 only once the body is valid.
        expect(res.statusCode, `${url} ${field}`).toBe(400);
      }
    }
    expect(provider.requests.length).toBe(asked);
  });

  it('not JSON, a JSON array, or a huge body: 4xx, never 500', async () => {
    const cases: Array<[string, string, number[]]> = [
      ['application/json', '{"providerAccountSid":', [400]],
      ['application/json', '[]', [400]],
      ['application/json', '"AC"', [400]],
      ['text/plain', 'providerAccountSid=AC', [400, 415]],
      ['application/json', JSON.stringify({ ...creds(), pad: 'x'.repeat(3_000_000) }), [413]],
    ];
    for (const [type, payload, expected] of cases) {
      for (const method of ['PATCH', 'POST'] as const) {
        const res = await expectNothingStored(t, () =>
          t.request({ method, url: a(), headers: { ...w.owner.headers, 'content-type': type }, payload }),
        );
        expect(expected, `${method} ${type} ${payload.slice(0, 30)}`).toContain(res.statusCode);
      }
    }
  });
});

describe('Form B body', () => {
  it('PUT and test: wrong types, unknown fields, Form A names, bad numbers and SIDs are 400s; nothing changes', async () => {
    const before = await stored();
    const cases: Array<[string, Record<string, unknown>]> = [
      ...wrongValues({
        enabled: 'boolean',
        providerAccountSid: 'string',
        providerAuthToken: 'string',
        phoneNumber: 'string',
        sessionTimeoutMinutes: 'integer',
      }).map(([f, v]): [string, Record<string, unknown>] => [f, { ...credsB(), [f]: v }]),
      ...badSids.map((s): [string, Record<string, unknown>] => [
        'providerAccountSid',
        { ...credsB(), providerAccountSid: s },
      ]),
      ...badNumbers.map((n): [string, Record<string, unknown>] => [
        'phoneNumber',
        { ...credsB(), phoneNumber: n },
      ]),
      ['sessionTimeoutMinutes', { ...credsB(), sessionTimeoutMinutes: 0 }],
      ['sessionTimeoutMinutes', { ...credsB(), sessionTimeoutMinutes: 1441 }],
      ['sessionTimeoutMinutes', { ...credsB(), sessionTimeoutMinutes: 1.5 }],
      ['maxMessageLength', { ...credsB(), maxMessageLength: 160 }],
      ['providerPhoneNumber', { ...credsB(), providerPhoneNumber: newNumber() }],
    ];
    for (const [field, body] of cases) {
      const put = await t.request({ method: 'PUT', url: b(), headers: bearer, payload: body });
      expect(put.statusCode, `PUT ${field} ${JSON.stringify(body[field])}`).toBe(400);
      expect(JSON.stringify(put.json().details ?? {})).toContain(field);
      const { enabled: _e, sessionTimeoutMinutes: _s, ...testBody } = body;
      if (field === 'enabled' || field === 'sessionTimeoutMinutes') continue;
      const test = await t.request({
        method: 'POST',
        url: `${b()}/test`,
        headers: bearer,
        payload: testBody,
      });
      expect(test.statusCode, `test ${field}`).toBe(400);
    }
    expect(await stored()).toEqual(before);
  });
});

describe('ids and queries', () => {
  const odd = ['x'.repeat(300), '%F0%9F%9A%80', '%E2%80%AE', "asst_1'%20or%20'1'='1", '..%2F..%2Fsms'];

  it('odd assistant and workspace ids: 404 on every configuration route (400 for NUL), never 500', async () => {
    for (const id of odd) {
      for (const [method, url] of [
        ['GET', `/api/assistants/${id}/sms`],
        ['PATCH', `/api/assistants/${id}/sms`],
        ['DELETE', `/api/assistants/${id}/sms`],
        ['POST', `/api/assistants/${id}/sms/test`],
        ['GET', `/api/assistants/${id}/sms/sessions`],
        ['GET', `/api/workspaces/${w.ws}/assistants/${id}/sms`],
        ['PUT', `/api/workspaces/${w.ws}/assistants/${id}/sms`],
        ['DELETE', `/api/workspaces/${w.ws}/assistants/${id}/sms`],
        ['POST', `/api/workspaces/${w.ws}/assistants/${id}/sms/test`],
        ['GET', `/api/workspaces/${w.ws}/assistants/${id}/sms/analytics`],
        ['GET', `/api/workspaces/${id}/assistants/${line.assistantId}/sms`],
      ] as const) {
        const headers = url.startsWith('/api/workspaces') ? bearer : w.owner.headers;
        const payload =
          method === 'PUT'
            ? credsB()
            : method === 'POST'
              ? creds()
              : method === 'PATCH'
                ? { isEnabled: true }
                : undefined;
        const res = await t.request({ method, url, headers, payload });
        expect([400, 404], `${method} ${url}`).toContain(res.statusCode);
      }
    }
    const nul = await t.request({
      method: 'GET',
      url: '/api/assistants/asst%00x/sms',
      headers: w.owner.headers,
    });
    expect([400, 404]).toContain(nul.statusCode);
  });

  it('sessions and analytics queries: bad values and unknown parameters are 400s naming them', async () => {
    for (const [url, field] of [
      [`${a()}/sessions?limit=abc`, 'limit'],
      [`${a()}/sessions?limit=0`, 'limit'],
      [`${a()}/sessions?limit=101`, 'limit'],
      [`${a()}/sessions?offset=-1`, 'offset'],
      [`${a()}/sessions?limit=1e400`, 'limit'],
      [`${b()}/analytics?period=1y`, 'period'],
      [`${b()}/analytics?period=7d&period=30d`, 'period'],
      [`${b()}/analytics?period=%F0%9F%9A%80`, 'period'],
      [`${b()}/analytics?period=7d&since=2020-01-01`, 'since'],
    ] as const) {
      const headers = url.startsWith('/api/workspaces') ? bearer : w.owner.headers;
      const res = await t.request({ method: 'GET', url, headers });
      expect(res.statusCode, url).toBe(400);
      expect(JSON.stringify(res.json().details ?? {}), url).toContain(field);
    }
  });
});

describe('the provider callbacks', () => {
  const path = () => `/api/sms/webhook/${line.assistantId}`;
  const rows = () => t.ctx.db.select().from(smsInbound).where(eq(smsInbound.assistantId, line.assistantId));

  it('unicode, RTL marks, emoji and NUL in a signed message: stored as sent, less NUL; answered', async () => {
    const from = `+1888${String(process.pid % 1000).padStart(3, '0')}0001`;
    const text = 'Hé 👩‍👩‍👧‍👦 \u202eevil\u202c 字 \u0000end <Response><Say>x</Say></Response>';
    const res = await inbound(t, line, from, text);
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('<?xml version="1.0" encoding="UTF-8"?><Response/>');
    await waitFor(async () => (await rows()).some((r) => r.fromNumber === from), 5_000, 'stored');
    const row = (await rows()).find((r) => r.fromNumber === from);
    expect(row?.body).toBe(text.replace('\u0000', ''));
    await waitFor(() => provider.sent.some((m) => m.to === from), 15_000, 'the reply');
  });

  it('a signed post with a bad or missing MessageSid or From: 400 naming it, nothing stored', async () => {
    await untilQuiet(t); // the reply of the test above, and its status callbacks
    const before = (await rows()).length;
    for (const [params, field] of [
      [{ From: '+15550001111', Body: 'x' }, 'MessageSid'],
      [{ MessageSid: '../../etc', From: '+15550001111', Body: 'x' }, 'MessageSid'],
      [{ MessageSid: 'SM🚀', From: '+15550001111', Body: 'x' }, 'MessageSid'],
      [{ MessageSid: `SM${'a'.repeat(100)}`, From: '+15550001111', Body: 'x' }, 'MessageSid'],
      [{ MessageSid: newMessageSid(), Body: 'x' }, 'From'],
    ] as const) {
      const res = await expectNothingStored(t, () =>
        signedPost(t, path(), line.token, params as Record<string, string>),
      );
      expect(res.statusCode, JSON.stringify(params)).toBe(400);
      expect(res.json().details).toHaveProperty(field);
    }
    expect((await rows()).length).toBe(before);
  });

  it('a body over 64 KB is refused (413) before the signature is checked; JSON or text bodies are not the provider: 403', async () => {
    const params = { MessageSid: newMessageSid(), From: '+15550001111', Body: 'x'.repeat(70_000) };
    const huge = await expectNothingStored(t, () => signedPost(t, path(), line.token, params));
    expect(huge.statusCode).toBe(413);
    for (const type of ['application/json', 'text/plain']) {
      const payload =
        type === 'application/json' ? JSON.stringify({ MessageSid: newMessageSid(), From: '+1555' }) : 'hi';
      const res = await expectNothingStored(t, () =>
        t.app.inject({
          method: 'POST',
          url: path(),
          headers: {
            'content-type': type,
            'x-twilio-signature': signRequest(line.token, `http://parley.test${path()}`, {}),
          },
          payload,
        }),
      );
      expect([400, 403, 415], type).toContain(res.statusCode);
    }
    const status = await expectNothingStored(t, () =>
      signedPost(t, `/api/sms/status/${line.assistantId}`, line.token, {
        MessageSid: newMessageSid(),
        MessageStatus: 'delivered',
        ErrorCode: 'x'.repeat(70_000),
      }),
    );
    expect(status.statusCode).toBe(413);
  });

  it('repeated form fields are signed and read as the provider sends them; the first value counts', async () => {
    const sid = newMessageSid();
    const from = `+1888${String(process.pid % 1000).padStart(3, '0')}0002`;
    const body = new URLSearchParams([
      ['MessageSid', sid],
      ['From', from],
      ['Body', 'one'],
      ['Body', 'two'],
    ]).toString();
    // The provider's library signs a repeated name with each value, values sorted.
    const signature = signRequest(line.token, `http://parley.test${path()}`, {
      MessageSid: sid,
      From: from,
      Body: ['one', 'two'] as unknown as string,
    });
    const res = await t.app.inject({
      method: 'POST',
      url: path(),
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': signature },
      payload: body,
    });
    expect(res.statusCode, res.body).toBe(200);
    await waitFor(async () => (await rows()).some((r) => r.providerSid === sid), 5_000, 'stored');
    expect((await rows()).find((r) => r.providerSid === sid)?.body).toBe('one');
  });

  it('odd assistant ids on the callbacks: 404 (or 403), never 500, nothing stored', async () => {
    await untilQuiet(t); // the answer to the message above
    for (const id of ['x'.repeat(300), '%F0%9F%9A%80', '..%2F..%2Fx', "a'%20or%20'1'='1"]) {
      for (const kind of ['webhook', 'status']) {
        const res = await expectNothingStored(t, () =>
          signedPost(t, `/api/sms/${kind}/${id}`, line.token, { MessageSid: newMessageSid() }),
        );
        expect([400, 403, 404], `${kind} ${id}`).toContain(res.statusCode);
      }
    }
  });
});
