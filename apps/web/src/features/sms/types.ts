import type { Plan } from '@parley/contract/api-types';
import { isE164 } from '@parley/contract/phone';
import type {
  analytics,
  formAConfig,
  formACreate,
  formAPatch,
  formBConfig,
  formBPut,
  smsSession,
  testResult,
} from '@parley/contract/sms';
import { ACCOUNT_SID, AUTH_TOKEN, MESSAGE_LENGTH, SESSION_TIMEOUT } from '@parley/contract/sms-limits';
import type { z } from 'zod';
import { ApiError } from '../../api.ts';

/**
 * The SMS channel of an assistant as the API answers it (docs/dashboard.md "SMS"; the server's
 * types, type-only). One stored record is read and written in both forms: Form A holds the
 * credentials, the number and the message options, Form B adds the session timeout.
 */
export type FormAConfig = z.output<typeof formAConfig>;
export type FormBConfig = z.output<typeof formBConfig>;
export type FormACreate = z.input<typeof formACreate>;
export type FormAPatch = z.input<typeof formAPatch>;
export type FormBPut = z.input<typeof formBPut>;
export type SmsSession = z.output<typeof smsSession>;
export type TestResult = z.output<typeof testResult>;
export type SmsAnalytics = z.output<typeof analytics>;
export type Period = '7d' | '30d' | '90d';

/** Both forms of the one record, or null when the assistant has none yet. */
export type SmsConfig = { a: FormAConfig; b: FormBConfig };

export const formAPath = (id: string) => `/api/assistants/${id}/sms`;
export const formBPath = (ws: string, id: string) => `/api/workspaces/${ws}/assistants/${id}/sms`;

/** Plans that include channels (docs/api.md "Plans"): the API refuses the others with 403. */
const CHANNEL_PLANS: readonly Plan[] = ['pro', 'enterprise'];
export const hasChannels = (plan: Plan | undefined) => plan === undefined || CHANNEL_PLANS.includes(plan);

/** The limits the API checks (packages/contract/src/sms-limits.ts), said before any request. */
export { MESSAGE_LENGTH, SESSION_TIMEOUT };

/** The form as typed. The token is write-only: empty means "keep the saved one". */
export type Draft = {
  isEnabled: boolean;
  accountSid: string;
  authToken: string;
  phoneNumber: string;
  maxMessageLength: string;
  sessionTimeoutMinutes: string;
  enableContactMatching: boolean;
  autoCreateContacts: boolean;
};

export const emptyDraft = (): Draft => ({
  isEnabled: true,
  accountSid: '',
  authToken: '',
  phoneNumber: '',
  maxMessageLength: String(MESSAGE_LENGTH.default),
  sessionTimeoutMinutes: String(SESSION_TIMEOUT.default),
  enableContactMatching: true,
  autoCreateContacts: true,
});

export const toDraft = (c: SmsConfig | null): Draft =>
  c
    ? {
        isEnabled: c.a.isEnabled,
        accountSid: c.a.providerAccountSid,
        authToken: '',
        phoneNumber: c.a.providerPhoneNumber,
        maxMessageLength: String(c.a.maxMessageLength),
        sessionTimeoutMinutes: String(c.b.sessionTimeoutMinutes),
        enableContactMatching: c.a.enableContactMatching,
        autoCreateContacts: c.a.autoCreateContacts,
      }
    : emptyDraft();

export type FieldErrors = Partial<Record<keyof Draft, string>>;

/** "+1 (415) 555-0100" → "+14155550100": spaces, dots, dashes and brackets are not part of E.164. */
export const compactNumber = (s: string) => s.trim().replace(/[\s().-]/g, '');

function wholeIn(text: string, range: { min: number; max: number }) {
  const n = Number(text);
  return text.trim() !== '' && Number.isInteger(n) && n >= range.min && n <= range.max;
}

/**
 * The same rules as the API, in words, per field. `needToken`: a first save, a test without the
 * saved token to fall back on, or a change of the session timeout (Form B saves it together with
 * the credentials).
 */
export function check(d: Draft, opts: { needToken: boolean; only?: Array<keyof Draft> }): FieldErrors {
  const errors: FieldErrors = {};
  const sid = d.accountSid.trim();
  if (!sid) errors.accountSid = 'Enter the account SID from the provider’s console.';
  else if (!ACCOUNT_SID.test(sid))
    errors.accountSid = `The account SID is AC followed by 32 letters or digits (34 characters in all); this one has ${sid.length}.`;
  const token = d.authToken.trim();
  if (
    token &&
    (token.length < AUTH_TOKEN.min || token.length > AUTH_TOKEN.max || !AUTH_TOKEN.chars.test(token))
  )
    errors.authToken =
      token.length < AUTH_TOKEN.min
        ? `The auth token has at least 32 characters; this one has ${token.length}.`
        : 'The auth token is printable characters without spaces, at most 256.';
  else if (!token && opts.needToken) errors.authToken = 'Enter the auth token.';
  const number = compactNumber(d.phoneNumber);
  if (!number) errors.phoneNumber = 'Enter the phone number that receives the messages.';
  else if (!isE164(number))
    errors.phoneNumber = number.startsWith('+')
      ? 'The phone number must be in international (E.164) form: + then the country code and 7 to 15 digits in all, such as +15550102000.'
      : 'The phone number must start with + and the country code, such as +15550102000 (E.164).';
  if (!wholeIn(d.maxMessageLength, MESSAGE_LENGTH))
    errors.maxMessageLength = `The longest reply is a whole number of characters from ${MESSAGE_LENGTH.min} to ${MESSAGE_LENGTH.max.toLocaleString('en')}.`;
  if (!wholeIn(d.sessionTimeoutMinutes, SESSION_TIMEOUT))
    errors.sessionTimeoutMinutes = `The session timeout is a whole number of minutes from ${SESSION_TIMEOUT.min} to ${SESSION_TIMEOUT.max.toLocaleString('en')} (a day).`;
  if (opts.only)
    for (const k of Object.keys(errors) as Array<keyof Draft>) if (!opts.only.includes(k)) delete errors[k];
  return errors;
}

/** The API's field names (either form) → the form's. */
const FIELD_OF: Record<string, keyof Draft> = {
  providerAccountSid: 'accountSid',
  providerAuthToken: 'authToken',
  providerPhoneNumber: 'phoneNumber',
  phoneNumber: 'phoneNumber',
  maxMessageLength: 'maxMessageLength',
  sessionTimeoutMinutes: 'sessionTimeoutMinutes',
};

/** The field messages of an API refusal (400 validation, 409 number in use), shown at each field. */
export function fieldErrorsOf(error: unknown): FieldErrors {
  if (!(error instanceof ApiError) || !error.details) return {};
  const out: FieldErrors = {};
  for (const [k, v] of Object.entries(error.details)) {
    const field = FIELD_OF[k];
    if (field) out[field] = error.status === 409 ? 'Another assistant already uses this number.' : v;
  }
  return out;
}

/** The API's refusals said for people; anything else keeps the API's own words. */
export function explain(error: unknown): unknown {
  if (!(error instanceof ApiError)) return error;
  if (error.code === 'plan_upgrade_required')
    return new Error('SMS needs the Pro or Enterprise plan. The workspace’s owner can upgrade it.');
  if (error.status === 409 && error.details && 'phoneNumber' in error.details)
    return new Error(
      'This phone number is already connected to another assistant. Disconnect it there first, or use another number.',
    );
  if (error.status === 409)
    return new Error('This assistant already has an SMS configuration: reload the page to see it.');
  // The provider did not confirm the account and number (docs/sms.md "Proof of ownership"): its
  // words for the whole form; the fields at fault carry their own.
  if (error.status === 400 && error.details?._) return new Error(error.details._);
  if (error.status === 400) return new Error('Some fields are not valid: see the messages at each field.');
  return error;
}

/** A test's outcome in words. */
export function testWords(r: TestResult, number: string): { ok: boolean; text: string } {
  const caps = r.phoneNumberCapabilities;
  if (!r.valid) {
    return {
      ok: false,
      text: `Not valid. ${r.reason ?? 'The provider did not confirm these credentials and this number'}. Check the account SID, the auth token and the number in the provider’s console.`,
    };
  }
  const yes = (b: boolean) => (b ? 'yes' : 'no');
  const can = `SMS ${yes(caps.sms)}, MMS ${yes(caps.mms)}, voice ${yes(caps.voice)}`;
  return caps.sms
    ? { ok: true, text: `Valid: the provider account holds ${number}. It can receive and send: ${can}.` }
    : {
        ok: false,
        text: `The credentials are valid and the account holds ${number}, but the number cannot send SMS (${can}). Enable SMS for it at the provider or choose another number.`,
      };
}
