import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ORIGIN, type TestApp } from '../support/harness.ts';
import type { SmsProvider } from '../support/sms-provider.ts';
import { signRequest } from '../support/sms-provider.ts';
import { createWorld } from '../support/world.ts';
import { type Line, newMessageSid, smsApp, smsLine } from './helpers.ts';

/**
 * The provider's request signature (src/features/sms/provider.ts) on the status callback, signed
 * by the provider's own library: the URL it signed may name the scheme's default port or leave it
 * out, on the public URL (PUBLIC_BASE_URL, http here) and on the one the request came to (behind a
 * trusted proxy, https); repeated form fields are signed as the library signs them. Anything else
 * is a 403.
 */
const PUBLIC = ORIGIN;
let t: TestApp;
let provider: SmsProvider;
let line: Line;
beforeAll(async () => {
  ({ t, provider } = await smsApp({ TRUST_PROXY: 'true' }));
  const w = await createWorld(t);
  line = await smsLine(t, provider, w.owner, w.ws);
});
afterAll(async () => {
  await t.close();
  await provider.close();
});

const path = (query = '') => `/api/sms/status/${line.assistantId}${query}`;

/** Posts `form` (pairs, in this order) to `url` with a host header, signed for `signedUrl`. */
function post(
  signedUrl: string,
  opts: {
    form?: [string, string][];
    host?: string;
    https?: boolean;
    query?: string;
    signature?: string;
  } = {},
) {
  const form = opts.form ?? [
    ['MessageSid', newMessageSid()],
    ['MessageStatus', 'delivered'],
  ];
  const signed: Record<string, string | string[]> = {};
  for (const [k, v] of form) {
    const seen = signed[k];
    signed[k] = seen === undefined ? v : [...[seen].flat(), v];
  }
  const signature = opts.signature ?? signRequest(line.token, signedUrl, signed as Record<string, string>);
  return t.app.inject({
    method: 'POST',
    url: path(opts.query),
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      'x-twilio-signature': signature,
      host: opts.host ?? 'localhost',
      ...(opts.https ? { 'x-forwarded-proto': 'https' } : {}),
    },
    payload: new URLSearchParams(form).toString(),
  });
}

describe('SMS provider signature', () => {
  it('the public http URL is accepted with or without :80, never with :443', async () => {
    expect((await post(`${PUBLIC}${path()}`)).statusCode).toBe(200);
    expect((await post(`${PUBLIC}:80${path()}`)).statusCode).toBe(200);
    expect((await post(`${PUBLIC}:443${path()}`)).statusCode).toBe(403);
    expect((await post(`http://elsewhere${path()}`)).statusCode).toBe(403);
  });

  it('the https URL the request came to is accepted with or without :443, never with :80', async () => {
    const https = true;
    expect((await post(`https://proxy.example${path()}`, { host: 'proxy.example', https })).statusCode).toBe(
      200,
    );
    expect(
      (await post(`https://proxy.example:443${path()}`, { host: 'proxy.example', https })).statusCode,
    ).toBe(200);
    expect(
      (await post(`https://proxy.example${path()}`, { host: 'proxy.example:443', https })).statusCode,
    ).toBe(200);
    expect(
      (await post(`https://proxy.example:80${path()}`, { host: 'proxy.example', https })).statusCode,
    ).toBe(403);
    expect((await post(`http://proxy.example${path()}`, { host: 'proxy.example', https })).statusCode).toBe(
      403,
    );
  });

  it('an IPv6 host in brackets keeps its brackets, with or without the default port', async () => {
    const https = true;
    const host = '[2001:db8::7]';
    expect((await post(`https://${host}${path()}`, { host, https })).statusCode).toBe(200);
    expect((await post(`https://${host}:443${path()}`, { host, https })).statusCode).toBe(200);
    expect((await post(`https://${host}${path()}`, { host: `${host}:443`, https })).statusCode).toBe(200);
    expect((await post(`https://${host}:80${path()}`, { host, https })).statusCode).toBe(403);
    expect((await post(`https://2001:db8::7${path()}`, { host, https })).statusCode).toBe(403);
  });

  it('a query string keeps its place when the port is added or left out', async () => {
    const query = '?attempt=2';
    expect((await post(`http://localhost:80${path(query)}`, { query })).statusCode).toBe(200);
    expect((await post(`${PUBLIC}:80${path(query)}`, { query })).statusCode).toBe(200);
  });

  it('repeated fields: values deduplicated and sorted, as the provider signs them; three values', async () => {
    const sid = newMessageSid();
    const twice: [string, string][] = [
      ['MessageSid', sid],
      ['MessageStatus', 'delivered'],
      ['Note', 'b'],
      ['Note', 'a'],
      ['Note', 'b'],
    ];
    expect((await post(`${PUBLIC}${path()}`, { form: twice })).statusCode).toBe(200);
    const same: [string, string][] = [
      ['MessageSid', sid],
      ['MessageStatus', 'delivered'],
      ['Note', 'x'],
      ['Note', 'x'],
    ];
    expect((await post(`${PUBLIC}${path()}`, { form: same })).statusCode).toBe(200);
  });

  it('fields posted out of name order are signed with their names sorted', async () => {
    const unsorted: [string, string][] = [
      ['MessageStatus', 'delivered'],
      ['MessageSid', newMessageSid()],
      ['AccountSid', line.accountSid],
    ];
    expect((await post(`${PUBLIC}${path()}`, { form: unsorted })).statusCode).toBe(200);
  });

  it('a missing, empty, forged or oversized signature is a 403', async () => {
    const url = `${PUBLIC}${path()}`;
    const res = await t.app.inject({
      method: 'POST',
      url: path(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ MessageSid: newMessageSid(), MessageStatus: 'delivered' }).toString(),
    });
    expect(res.statusCode).toBe(403);
    expect((await post(url, { signature: '' })).statusCode).toBe(403);
    expect((await post(url, { signature: 'A'.repeat(28) })).statusCode).toBe(403);
    expect((await post(url, { signature: 'A'.repeat(5000) })).statusCode).toBe(403);
  });
});
