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
import { i18n } from '../../i18n/index.ts';

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
  const t = i18n.t.bind(i18n);
  const errors: FieldErrors = {};
  const sid = d.accountSid.trim();
  if (!sid) errors.accountSid = t('sms:check.accountSid');
  else if (!ACCOUNT_SID.test(sid)) errors.accountSid = t('sms:check.accountSidForm', { count: sid.length });
  const token = d.authToken.trim();
  if (
    token &&
    (token.length < AUTH_TOKEN.min || token.length > AUTH_TOKEN.max || !AUTH_TOKEN.chars.test(token))
  )
    errors.authToken =
      token.length < AUTH_TOKEN.min
        ? t('sms:check.authTokenShort', { count: token.length })
        : t('sms:check.authTokenChars');
  else if (!token && opts.needToken) errors.authToken = t('sms:check.authToken');
  const number = compactNumber(d.phoneNumber);
  if (!number) errors.phoneNumber = t('sms:check.phoneNumber');
  else if (!isE164(number))
    errors.phoneNumber = number.startsWith('+')
      ? t('sms:check.phoneNumberForm')
      : t('sms:check.phoneNumberPlus');
  if (!wholeIn(d.maxMessageLength, MESSAGE_LENGTH))
    errors.maxMessageLength = t('sms:check.maxMessageLength', {
      min: MESSAGE_LENGTH.min,
      max: MESSAGE_LENGTH.max,
    });
  if (!wholeIn(d.sessionTimeoutMinutes, SESSION_TIMEOUT))
    errors.sessionTimeoutMinutes = t('sms:check.sessionTimeout', {
      min: SESSION_TIMEOUT.min,
      max: SESSION_TIMEOUT.max,
    });
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
    if (field) out[field] = error.status === 409 ? i18n.t('sms:check.taken') : v;
  }
  return out;
}

/** The API's refusals said for people; anything else keeps the API's own words. */
export function explain(error: unknown): unknown {
  if (!(error instanceof ApiError)) return error;
  if (error.code === 'plan_upgrade_required') return new Error(i18n.t('sms:upgrade.refused'));
  if (error.status === 409 && error.details && 'phoneNumber' in error.details)
    return new Error(i18n.t('sms:check.numberConnected'));
  if (error.status === 409) return new Error(i18n.t('sms:check.reload'));
  // The provider did not confirm the account and number (docs/sms.md "Proof of ownership"): its
  // words for the whole form; the fields at fault carry their own.
  if (error.status === 400 && error.details?._) return new Error(error.details._);
  if (error.status === 400) return new Error(i18n.t('sms:check.invalid'));
  return error;
}

/** A test's outcome in words. */
export function testWords(r: TestResult, number: string): { ok: boolean; text: string } {
  const t = i18n.t.bind(i18n);
  const caps = r.phoneNumberCapabilities;
  if (!r.valid) {
    return {
      ok: false,
      text: t('sms:result.notValid', { reason: r.reason ?? t('sms:result.notConfirmed') }),
    };
  }
  const yes = (b: boolean) => (b ? t('sms:result.yes') : t('sms:result.no'));
  const capabilities = t('sms:result.capabilities', {
    sms: yes(caps.sms),
    mms: yes(caps.mms),
    voice: yes(caps.voice),
  });
  return caps.sms
    ? { ok: true, text: t('sms:result.valid', { number, capabilities }) }
    : { ok: false, text: t('sms:result.noSms', { number, capabilities }) };
}
