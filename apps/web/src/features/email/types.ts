import type { EmailConfig, EmailCreate, EmailPatch, emailTestResult } from '@parley/contract/email';
import type { z } from 'zod';
import { ApiError } from '../../api.ts';
import { i18n } from '../../i18n/index.ts';

/**
 * The email channel of an assistant as the API answers it (docs/email.md "Configuration"; the
 * contract's types, type-only) and the form's draft of it. Passwords are write-only: an empty
 * field means "keep the saved one" (the API keeps it for the same host and user name).
 */
export type { EmailConfig };
export type TestResult = z.output<typeof emailTestResult>;

export const emailPath = (id: string) => `/api/assistants/${id}/email`;

export type Draft = {
  isEnabled: boolean;
  address: string;
  displayName: string;
  mode: 'forward' | 'imap';
  imapHost: string;
  imapPort: string;
  imapSecure: boolean;
  imapUsername: string;
  imapPassword: string;
  imapMailbox: string;
  smtpOwn: boolean;
  smtpHost: string;
  smtpPort: string;
  smtpSecure: boolean;
  smtpUsername: string;
  smtpPassword: string;
  aiReplies: boolean;
  signature: string;
  enableContactMatching: boolean;
  autoCreateContacts: boolean;
};

export type FieldErrors = Partial<Record<keyof Draft, string>>;

export function toDraft(c: EmailConfig | null): Draft {
  const imap = c?.inbound.mode === 'imap' ? c.inbound : null;
  return {
    isEnabled: c?.isEnabled ?? true,
    address: c?.address ?? '',
    displayName: c?.displayName ?? '',
    mode: c?.inbound.mode ?? 'forward',
    imapHost: imap?.host ?? '',
    imapPort: String(imap?.port ?? 993),
    imapSecure: imap?.secure ?? true,
    imapUsername: imap?.username ?? '',
    imapPassword: '',
    imapMailbox: imap?.mailbox ?? 'INBOX',
    smtpOwn: Boolean(c?.smtp),
    smtpHost: c?.smtp?.host ?? '',
    smtpPort: String(c?.smtp?.port ?? 587),
    smtpSecure: c?.smtp?.secure ?? false,
    smtpUsername: c?.smtp?.username ?? '',
    smtpPassword: '',
    aiReplies: c?.aiReplies ?? true,
    signature: c?.signature ?? '',
    enableContactMatching: c?.enableContactMatching ?? true,
    autoCreateContacts: c?.autoCreateContacts ?? true,
  };
}

/** Whether the saved password still applies: the same host and user name as saved. */
export function savedPassword(d: Draft, saved: EmailConfig | null, side: 'imap' | 'smtp'): boolean {
  if (side === 'imap') {
    const s = saved?.inbound.mode === 'imap' ? saved.inbound : null;
    return Boolean(s && s.host === d.imapHost.trim() && s.username === d.imapUsername.trim());
  }
  const s = saved?.smtp;
  return Boolean(s && s.host === d.smtpHost.trim() && s.username === d.smtpUsername.trim());
}

/** The inbound and SMTP parts of a request body, passwords only when typed. */
function servers(d: Draft): Pick<EmailCreate, 'inbound' | 'smtp'> {
  const inbound: EmailCreate['inbound'] =
    d.mode === 'imap'
      ? {
          mode: 'imap',
          host: d.imapHost.trim(),
          port: Number(d.imapPort),
          secure: d.imapSecure,
          username: d.imapUsername.trim(),
          mailbox: d.imapMailbox.trim() || 'INBOX',
          ...(d.imapPassword ? { password: d.imapPassword } : {}),
        }
      : { mode: 'forward' };
  const smtp = d.smtpOwn
    ? {
        host: d.smtpHost.trim(),
        port: Number(d.smtpPort),
        secure: d.smtpSecure,
        username: d.smtpUsername.trim(),
        ...(d.smtpPassword ? { password: d.smtpPassword } : {}),
      }
    : null;
  return { inbound, smtp };
}

/** The create (and test) body: every field. */
export function createBody(d: Draft): EmailCreate {
  return {
    address: d.address.trim(),
    displayName: d.displayName.trim(),
    ...servers(d),
    aiReplies: d.aiReplies,
    signature: d.signature,
    isEnabled: d.isEnabled,
    enableContactMatching: d.enableContactMatching,
    autoCreateContacts: d.autoCreateContacts,
  };
}

/**
 * The PATCH body: the options always, the address when changed, the servers only when changed
 * or a password was typed (a PATCH naming them checks the hosts and seals the passwords again).
 */
export function patchBody(d: Draft, saved: EmailConfig): EmailPatch {
  const { address, inbound, smtp, ...options } = createBody(d);
  const body: EmailPatch = { ...options };
  if (address.toLowerCase() !== saved.address) body.address = address;
  const before = servers(toDraft(saved));
  if (
    JSON.stringify(inbound) !== JSON.stringify(before.inbound) ||
    JSON.stringify(smtp) !== JSON.stringify(before.smtp)
  ) {
    body.inbound = inbound;
    body.smtp = smtp;
  }
  return body;
}

const HOST = /^[A-Za-z0-9.-]+$|^\[[0-9A-Fa-f:.]+\]$/;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The API's rules in words, per field, before any request (passwords: when not saved). */
export function check(d: Draft, saved: EmailConfig | null): FieldErrors {
  const t = i18n.t.bind(i18n);
  const e: FieldErrors = {};
  const address = d.address.trim();
  if (!address) e.address = t('email:check.address');
  else if (!EMAIL.test(address) || address.length > 254) e.address = t('email:check.addressForm');
  const name = d.displayName.trim();
  if (!name || name.length > 100) e.displayName = t('email:check.displayName');
  const side = (prefix: 'imap' | 'smtp') => {
    const host = d[`${prefix}Host`].trim();
    if (!host) e[`${prefix}Host`] = t('email:check.host');
    else if (!HOST.test(host) || host.length > 253) e[`${prefix}Host`] = t('email:check.hostForm');
    const port = Number(d[`${prefix}Port`]);
    if (!Number.isInteger(port) || port < 1 || port > 65535 || d[`${prefix}Port`].trim() === '')
      e[`${prefix}Port`] = t('email:check.port');
    if (!d[`${prefix}Username`].trim()) e[`${prefix}Username`] = t('email:check.username');
    if (!d[`${prefix}Password`] && !savedPassword(d, saved, prefix)) {
      const had = prefix === 'imap' ? saved?.inbound.mode === 'imap' : Boolean(saved?.smtp);
      e[`${prefix}Password`] = had ? t('email:check.passwordChanged') : t('email:check.password');
    }
  };
  if (d.mode === 'imap') side('imap');
  if (d.smtpOwn) side('smtp');
  if (d.signature.length > 2000) e.signature = t('email:check.signature', { count: d.signature.length });
  return e;
}

/** The API's field names (its `details` keys) → the form's. */
const FIELD_OF: Record<string, keyof Draft> = {
  address: 'address',
  displayName: 'displayName',
  'inbound.host': 'imapHost',
  'inbound.port': 'imapPort',
  'inbound.username': 'imapUsername',
  'inbound.password': 'imapPassword',
  'inbound.mailbox': 'imapMailbox',
  'smtp.host': 'smtpHost',
  'smtp.port': 'smtpPort',
  'smtp.username': 'smtpUsername',
  'smtp.password': 'smtpPassword',
  signature: 'signature',
};

/** The field messages of an API refusal (400 details; 409: the address is another assistant's). */
export function fieldErrorsOf(error: unknown): FieldErrors {
  if (!(error instanceof ApiError) || !error.details) return {};
  const out: FieldErrors = {};
  for (const [k, v] of Object.entries(error.details)) {
    const field = FIELD_OF[k];
    if (field) out[field] = error.status === 409 ? i18n.t('email:check.taken') : v;
  }
  return out;
}

/** The API's refusals said for people; anything else keeps the API's own words. */
export function explain(error: unknown): unknown {
  if (!(error instanceof ApiError)) return error;
  if (error.code === 'plan_upgrade_required') return new Error(i18n.t('email:upgrade.refused'));
  if (error.status === 409 && error.details?.address) return new Error(i18n.t('email:check.taken'));
  if (error.status === 409) return new Error(i18n.t('email:check.reload'));
  if (error.status === 400 && error.details?._) return new Error(error.details._);
  if (error.status === 400) return new Error(i18n.t('email:check.invalid'));
  return error;
}

/** A test's outcome in words, one line a side. */
export function testWords(r: TestResult): Array<{ ok: boolean; text: string }> {
  const t = i18n.t.bind(i18n);
  return [
    r.imap
      ? {
          ok: r.imap.ok,
          text: t(r.imap.ok ? 'email:result.imapOk' : 'email:result.imapFailed', { message: r.imap.message }),
        }
      : { ok: true, text: t('email:result.imapNone') },
    {
      ok: r.smtp.ok,
      text: t(r.smtp.ok ? 'email:result.smtpOk' : 'email:result.smtpFailed', { message: r.smtp.message }),
    },
  ];
}
