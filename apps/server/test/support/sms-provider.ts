import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import twilio from 'twilio';

/**
 * A local stand-in of the SMS provider's REST API (the two calls Parley makes), speaking its
 * protocol: basic auth with the account SID and auth token, form-encoded bodies, JSON answers in
 * the provider's shape. It records every message sent. Requests to Parley's callbacks are signed
 * with the provider's own library (`twilio`), never with Parley's code.
 */

export type Capabilities = { sms: boolean; mms: boolean; voice: boolean };
export type SentMessage = {
  sid: string;
  accountSid: string;
  to: string;
  from: string;
  body: string;
  statusCallback: string | undefined;
};

export type SmsProvider = {
  url: string;
  sent: SentMessage[];
  /** Ids of the messages taken, in order, including those whose answer is held. */
  accepted: string[];
  /** Every request, for asserting what was (not) called. */
  requests: Array<{ method: string; path: string }>;
  /** An account with its token and numbers (capabilities default to SMS and MMS and voice). */
  addAccount(sid: string, token: string, numbers: Record<string, Partial<Capabilities>>): void;
  /** The next `count` sends answer `status` with the provider's error `code`. */
  failSends(status: number, code: number, count?: number): void;
  /** Sends wait until `release` is called (a slow provider). */
  holdSends(): { release(): void };
  waitForSent(count: number, timeoutMs?: number): Promise<SentMessage[]>;
  close(): Promise<void>;
};

export const newAccountSid = () => `AC${randomBytes(16).toString('hex')}`;
export const newAuthToken = () => randomBytes(16).toString('hex');
export const newMessageSid = () => `SM${randomBytes(16).toString('hex')}`;

/** The `X-Twilio-Signature` the provider would send for `params` posted to `url`. */
export const signRequest = (token: string, url: string, params: Record<string, string>) =>
  twilio.getExpectedTwilioSignature(token, url, params);

function json(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

const authError = () => ({
  code: 20003,
  message: 'Authenticate',
  more_info: 'https://www.twilio.com/docs/errors/20003',
  status: 401,
});

export async function startSmsProvider(): Promise<SmsProvider> {
  const accounts = new Map<string, { token: string; numbers: Map<string, Capabilities> }>();
  const sent: SentMessage[] = [];
  const requests: Array<{ method: string; path: string }> = [];
  const failures: Array<{ status: number; code: number }> = [];
  const accepted: string[] = [];
  let hold: Promise<void> | undefined;
  const waiters: Array<() => void> = [];

  const authorized = (req: IncomingMessage, sid: string) => {
    const account = accounts.get(sid);
    const header = req.headers.authorization ?? '';
    if (!account || !header.startsWith('Basic ')) return undefined;
    const [user, pass] = Buffer.from(header.slice(6), 'base64').toString('utf8').split(':');
    return user === sid && pass === account.token ? account : undefined;
  };

  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const url = new URL(req.url ?? '/', 'http://provider.local');
    requests.push({ method: req.method ?? '', path: url.pathname });
    const m = /^\/2010-04-01\/Accounts\/([^/]+)\/(IncomingPhoneNumbers|Messages)\.json$/.exec(url.pathname);
    if (!m) return json(res, 404, { code: 20404, message: 'Not found', status: 404 });
    const sid = decodeURIComponent(m[1] as string);
    const account = authorized(req, sid);
    if (!account) return json(res, 401, authError());
    if (m[2] === 'IncomingPhoneNumbers' && req.method === 'GET') {
      const wanted = url.searchParams.get('PhoneNumber');
      const list = [...account.numbers.entries()]
        .filter(([n]) => !wanted || n === wanted)
        .map(([n, caps]) => ({
          sid: `PN${randomBytes(16).toString('hex')}`,
          account_sid: sid,
          phone_number: n,
          friendly_name: n,
          capabilities: { voice: caps.voice, sms: caps.sms, mms: caps.mms, fax: false },
        }));
      return json(res, 200, {
        incoming_phone_numbers: list,
        page: 0,
        page_size: 50,
        first_page_uri: url.pathname,
        next_page_uri: null,
        previous_page_uri: null,
        uri: url.pathname + url.search,
        start: 0,
        end: Math.max(0, list.length - 1),
      });
    }
    if (m[2] === 'Messages' && req.method === 'POST') {
      // The id exists from the moment the provider takes the request: a status callback for it may
      // reach Parley before this answer does (a slow answer, `holdSends`).
      const messageSid = newMessageSid();
      accepted.push(messageSid);
      if (hold) await hold;
      const form = new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
      const failure = failures.shift();
      if (failure) {
        return json(res, failure.status, {
          code: failure.code,
          message: `Error ${failure.code}`,
          more_info: `https://www.twilio.com/docs/errors/${failure.code}`,
          status: failure.status,
        });
      }
      const to = form.get('To');
      const from = form.get('From');
      const body = form.get('Body');
      if (!to || !from || body === null) {
        return json(res, 400, { code: 21604, message: "A 'To' phone number is required.", status: 400 });
      }
      if (!account.numbers.has(from)) {
        return json(res, 400, {
          code: 21606,
          message: 'The From phone number is not valid for this account',
          status: 400,
        });
      }
      const message: SentMessage = {
        sid: messageSid,
        accountSid: sid,
        to,
        from,
        body,
        statusCallback: form.get('StatusCallback') ?? undefined,
      };
      sent.push(message);
      for (const w of waiters.splice(0)) w();
      const now = new Date().toUTCString();
      return json(res, 201, {
        account_sid: sid,
        api_version: '2010-04-01',
        body,
        date_created: now,
        date_sent: null,
        date_updated: now,
        direction: 'outbound-api',
        error_code: null,
        error_message: null,
        from,
        messaging_service_sid: null,
        num_media: '0',
        num_segments: String(Math.ceil(body.length / 153) || 1),
        price: null,
        price_unit: 'USD',
        sid: message.sid,
        status: 'queued',
        subresource_uris: { media: `/2010-04-01/Accounts/${sid}/Messages/${message.sid}/Media.json` },
        to,
        uri: `/2010-04-01/Accounts/${sid}/Messages/${message.sid}.json`,
      });
    }
    return json(res, 405, { code: 20004, message: 'Method not allowed', status: 405 });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    sent,
    accepted,
    requests,
    addAccount(sid, token, numbers) {
      accounts.set(sid, {
        token,
        numbers: new Map(
          Object.entries(numbers).map(([n, c]) => [n, { sms: true, mms: true, voice: true, ...c }]),
        ),
      });
    },
    failSends(status, code, count = 1) {
      for (let i = 0; i < count; i++) failures.push({ status, code });
    },
    holdSends() {
      let open: () => void = () => undefined;
      hold = new Promise<void>((r) => {
        open = r;
      });
      return {
        release() {
          hold = undefined;
          open();
        },
      };
    },
    async waitForSent(count, timeoutMs = 15_000) {
      const end = Date.now() + timeoutMs;
      while (sent.length < count) {
        if (Date.now() > end)
          throw new Error(`Timed out waiting for ${count} sent SMS (have ${sent.length})`);
        await new Promise<void>((r) => {
          waiters.push(r);
          setTimeout(r, 50);
        });
      }
      return sent;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
