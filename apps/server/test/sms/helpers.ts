import type { LightMyRequestResponse } from 'fastify';
import { createAssistant, type TestUser } from '../support/factories.ts';
import { createTestApp, ORIGIN, type TestApp } from '../support/harness.ts';
import {
  newAccountSid,
  newAuthToken,
  newMessageSid,
  type SmsProvider,
  signRequest,
  startSmsProvider,
} from '../support/sms-provider.ts';

export { newMessageSid };

/** The app with the provider stand-in as SMS_PROVIDER_API_BASE (a local address, allowed as in other outbound tests). */
export async function smsApp(
  env: Record<string, string> = {},
): Promise<{ t: TestApp; provider: SmsProvider }> {
  const provider = await startSmsProvider();
  const t = await createTestApp({
    SMS_PROVIDER_API_BASE: provider.url,
    WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
    ...env,
  });
  return { t, provider };
}

let numberSeq = 0;
/** A fresh E.164 number per call (numbers are unique across assistants). */
export const newNumber = () =>
  `+1555${String(process.pid % 1000).padStart(3, '0')}${String(++numberSeq).padStart(4, '0')}`;

export type Line = { assistantId: string; accountSid: string; token: string; number: string };

/** An assistant with an SMS configuration (Form A), its account registered at the provider. */
export async function smsLine(
  t: TestApp,
  provider: SmsProvider,
  owner: TestUser,
  workspaceId: string,
  extra: Record<string, unknown> = {},
): Promise<Line> {
  const assistantId = await createAssistant(t, owner, workspaceId);
  const line = { assistantId, accountSid: newAccountSid(), token: newAuthToken(), number: newNumber() };
  provider.addAccount(line.accountSid, line.token, { [line.number]: {} });
  const res = await t.request({
    method: 'POST',
    url: `/api/assistants/${assistantId}/sms`,
    headers: owner.headers,
    payload: {
      providerAccountSid: line.accountSid,
      providerAuthToken: line.token,
      providerPhoneNumber: line.number,
      ...extra,
    },
  });
  if (res.statusCode !== 201) throw new Error(`sms config: ${res.statusCode} ${res.body}`);
  return line;
}

/** A form post signed by the provider's library for `url` (the public URL by default). */
export function signedPost(
  t: Pick<TestApp, 'app'>,
  path: string,
  token: string,
  params: Record<string, string>,
  opts: { url?: string; headers?: Record<string, string>; signature?: string } = {},
): Promise<LightMyRequestResponse> {
  const signature = opts.signature ?? signRequest(token, opts.url ?? `${ORIGIN}${path}`, params);
  return t.app.inject({
    method: 'POST',
    url: path,
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      'x-twilio-signature': signature,
      ...opts.headers,
    },
    payload: new URLSearchParams(params).toString(),
  });
}

/** An inbound SMS as the provider posts it. */
export function inbound(
  t: Pick<TestApp, 'app'>,
  line: Line,
  from: string,
  body: string,
  opts: { sid?: string; extra?: Record<string, string> } = {},
) {
  const params = {
    ToCountry: 'US',
    SmsMessageSid: opts.sid ?? newMessageSid(),
    NumMedia: '0',
    SmsSid: opts.sid ?? newMessageSid(),
    SmsStatus: 'received',
    Body: body,
    To: line.number,
    NumSegments: '1',
    MessageSid: opts.sid ?? newMessageSid(),
    AccountSid: line.accountSid,
    From: from,
    ApiVersion: '2010-04-01',
    ...opts.extra,
  };
  if (opts.sid) {
    params.SmsMessageSid = opts.sid;
    params.SmsSid = opts.sid;
  } else {
    params.SmsMessageSid = params.MessageSid;
    params.SmsSid = params.MessageSid;
  }
  return signedPost(t, `/api/sms/webhook/${line.assistantId}`, line.token, params);
}

/** A delivery status callback as the provider posts it. */
export function statusCallback(
  t: TestApp,
  line: Line,
  messageSid: string,
  status: string,
  errorCode?: string,
) {
  const params: Record<string, string> = {
    AccountSid: line.accountSid,
    MessageSid: messageSid,
    SmsSid: messageSid,
    MessageStatus: status,
    SmsStatus: status,
    To: '+15550001111',
    From: line.number,
    ApiVersion: '2010-04-01',
  };
  if (errorCode) params.ErrorCode = errorCode;
  return signedPost(t, `/api/sms/status/${line.assistantId}`, line.token, params);
}
