import { createHmac } from 'node:crypto';
import { constantTimeEqual } from '../../lib/crypto.ts';
import { createFetch } from '../../lib/outbound/web-fetch.ts';

/**
 * The SMS provider, spoken to directly (docs/sms.md "The provider"): its request signature, and the
 * two REST calls Parley makes (look a number up, send a message), through Parley's one outbound
 * client (lib/outbound/client.ts).
 *
 * The signature is checked here rather than with the provider's SDK: it is an HMAC-SHA1 over the
 * URL and the sorted form parameters, a dozen lines, while the SDK would bring an HTTP stack of its
 * own into the server (docs/decisions/0019-sms-channel.md). The tests sign with the SDK itself, so
 * a difference between the two would fail them.
 */

/** Form parameters as the provider sent them; a repeated name keeps every value. */
export type FormParams = Record<string, string | string[]>;

const param = (name: string, value: string | string[]): string =>
  Array.isArray(value)
    ? [...new Set(value)]
        .sort()
        .map((v) => name + v)
        .join('')
    : name + value;

/** base64(HMAC-SHA1(token, url + each parameter's name and value, names sorted)). */
export function expectedSignature(authToken: string, url: string, params: FormParams): string {
  const data = Object.keys(params)
    .sort()
    .reduce((acc, key) => acc + param(key, params[key] as string | string[]), url);
  return createHmac('sha1', authToken).update(Buffer.from(data, 'utf8')).digest('base64');
}

/**
 * The URL as given, and with the scheme's default port written out and left out. An IPv6 host is
 * read whole, brackets and all, before a plain name is tried: its colons are not a port.
 */
function portVariants(url: string): string[] {
  const m = /^(https?:\/\/)(\[[^\]]+\]|[^/:?#]+)(:\d+)?(.*)$/i.exec(url);
  if (!m) return [url];
  const [, scheme, host, port, rest] = m as unknown as [string, string, string, string | undefined, string];
  const fallback = scheme.toLowerCase() === 'https://' ? ':443' : ':80';
  return [...new Set([url, `${scheme}${host}${rest}`, `${scheme}${host}${port ?? fallback}${rest}`])];
}

/** Does `signature` sign this request for one of `urls` (each with and without its default port)? */
export function validSignature(
  authToken: string,
  signature: string | undefined,
  urls: string[],
  params: FormParams,
): boolean {
  if (!signature || signature.length > 200) return false;
  for (const url of urls) {
    for (const candidate of portVariants(url)) {
      if (constantTimeEqual(signature, expectedSignature(authToken, candidate, params))) return true;
    }
  }
  return false;
}

/** Parses an `application/x-www-form-urlencoded` body; a repeated name collects its values. */
export function parseForm(body: string): FormParams {
  const out: FormParams = Object.create(null);
  for (const [key, value] of new URLSearchParams(body)) {
    const seen = out[key];
    if (seen === undefined) out[key] = value;
    else out[key] = Array.isArray(seen) ? [...seen, value] : [seen, value];
  }
  return out;
}

/** One value of a form field: the first when it was repeated. */
export const field = (params: FormParams, name: string): string | undefined => {
  const v = params[name];
  return Array.isArray(v) ? v[0] : v;
};

export type ProviderAccount = { accountSid: string; authToken: string };
export type Capabilities = { sms: boolean; mms: boolean; voice: boolean };
/**
 * Why a lookup is not valid: the credentials were refused, the account does not hold the number,
 * or the provider gave no answer to the question (unreachable, 5xx, 429, anything unexpected).
 */
export type LookupFailure = 'credentials' | 'number' | 'unanswered';
export type Lookup = {
  valid: boolean;
  phoneNumberCapabilities: Capabilities;
  reason?: string;
  failure?: LookupFailure;
};
export type SendResult =
  | { ok: true; sid: string; status: string; errorCode: string | null }
  | { ok: false; retry: boolean; status: number | undefined; errorCode: string | null; error: string };

const NONE: Capabilities = { sms: false, mms: false, voice: false };
const TIMEOUT_MS = 15_000;

export type ProviderClient = {
  lookupNumber(account: ProviderAccount, phoneNumber: string): Promise<Lookup>;
  sendMessage(
    account: ProviderAccount,
    message: { from: string; to: string; body: string; statusCallback: string },
  ): Promise<SendResult>;
};

const basic = (a: ProviderAccount) =>
  `Basic ${Buffer.from(`${a.accountSid}:${a.authToken}`).toString('base64')}`;

async function readJson(res: Response): Promise<Record<string, unknown>> {
  const text = await res.text();
  try {
    const parsed = JSON.parse(text) as unknown;
    return parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

const codeOf = (body: Record<string, unknown>): string | null =>
  body.code === undefined || body.code === null ? null : String(body.code).slice(0, 40);

/**
 * The provider's REST API at `apiBase` (SMS_PROVIDER_API_BASE). The address policy is the one the
 * webhooks use: private addresses are refused unless WEBHOOK_ALLOW_PRIVATE_NETWORKS (tests, a
 * local stand-in).
 */
export function providerClient(apiBase: string, allowPrivateNetworks: boolean): ProviderClient {
  const fetchOut = createFetch({ allowPrivateNetworks });
  const base = apiBase.replace(/\/+$/, '');
  const accountPath = (sid: string) => `${base}/2010-04-01/Accounts/${encodeURIComponent(sid)}`;
  return {
    async lookupNumber(account, phoneNumber) {
      const url = `${accountPath(account.accountSid)}/IncomingPhoneNumbers.json?PhoneNumber=${encodeURIComponent(phoneNumber)}`;
      let res: Response;
      try {
        res = await fetchOut(url, {
          headers: { authorization: basic(account), accept: 'application/json' },
          redirect: 'manual',
          signal: AbortSignal.timeout(TIMEOUT_MS),
        });
      } catch {
        return {
          valid: false,
          phoneNumberCapabilities: NONE,
          reason: 'The provider could not be reached',
          failure: 'unanswered',
        };
      }
      const body = await readJson(res);
      if (res.status === 401 || res.status === 403 || res.status === 404) {
        return {
          valid: false,
          phoneNumberCapabilities: NONE,
          reason: 'The provider rejected these credentials',
          failure: 'credentials',
        };
      }
      if (!res.ok) {
        return {
          valid: false,
          phoneNumberCapabilities: NONE,
          reason: `The provider answered HTTP ${res.status}`,
          failure: 'unanswered',
        };
      }
      const list = Array.isArray(body.incoming_phone_numbers) ? body.incoming_phone_numbers : [];
      const found = list.find(
        (n): n is { phone_number: string; capabilities?: Record<string, unknown> } =>
          typeof n === 'object' &&
          n !== null &&
          (n as { phone_number?: unknown }).phone_number === phoneNumber,
      );
      if (!found) {
        return {
          valid: false,
          phoneNumberCapabilities: NONE,
          reason: 'This number is not in the provider account',
          failure: 'number',
        };
      }
      const caps = found.capabilities ?? {};
      return {
        valid: true,
        phoneNumberCapabilities: {
          sms: caps.sms === true || caps.SMS === true,
          mms: caps.mms === true || caps.MMS === true,
          voice: caps.voice === true,
        },
      };
    },

    async sendMessage(account, message) {
      const form = new URLSearchParams({
        To: message.to,
        From: message.from,
        Body: message.body,
        StatusCallback: message.statusCallback,
      });
      let res: Response;
      try {
        res = await fetchOut(`${accountPath(account.accountSid)}/Messages.json`, {
          method: 'POST',
          headers: {
            authorization: basic(account),
            'content-type': 'application/x-www-form-urlencoded',
            accept: 'application/json',
          },
          body: form.toString(),
          redirect: 'manual',
          signal: AbortSignal.timeout(TIMEOUT_MS),
        });
      } catch (err) {
        return {
          ok: false,
          retry: true,
          status: undefined,
          errorCode: null,
          error: `The provider could not be reached: ${(err as Error).message}`.slice(0, 300),
        };
      }
      const body = await readJson(res);
      if (res.ok && typeof body.sid === 'string') {
        return {
          ok: true,
          sid: body.sid,
          status: typeof body.status === 'string' ? body.status : 'queued',
          errorCode:
            body.error_code === null || body.error_code === undefined ? null : String(body.error_code),
        };
      }
      const retry = res.status === 429 || res.status >= 500;
      const message_ = typeof body.message === 'string' ? body.message : `HTTP ${res.status}`;
      return { ok: false, retry, status: res.status, errorCode: codeOf(body), error: message_.slice(0, 300) };
    },
  };
}
