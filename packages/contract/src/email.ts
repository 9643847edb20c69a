import { z } from 'zod';

/**
 * The email channel (docs/email.md): an assistant's configuration, its test, and what an email
 * message carries in the inbox. Shapes fixed by the interface decisions, section "20. Email channel".
 */

/** 25 MB: the largest raw message taken by forwarding, and all of a message's attachments together. */
export const EMAIL_MAX_BYTES = 25 * 1024 * 1024;
/** At most this many AI replies to one sender in an hour (docs/email.md "Not answered"). */
export const EMAIL_REPLIES_PER_SENDER_HOUR = 10;

const host = z
  .string()
  .trim()
  .min(1)
  .max(253)
  .regex(/^[A-Za-z0-9.-]+$|^\[[0-9A-Fa-f:.]+\]$/, 'A host name or an IP address');
const port = z.number().int().min(1).max(65535);
const username = z.string().min(1).max(320);
const password = z.string().min(1).max(1000);
export const emailAddress = z
  .string()
  .trim()
  .max(254)
  .email('An email address')
  .transform((s) => s.toLowerCase());

const imapIn = z.strictObject({
  mode: z.literal('imap'),
  host,
  port,
  secure: z.boolean(),
  username,
  /** Required on create; on PATCH and test the saved one is used when left out (same host and user). */
  password: password.optional(),
  mailbox: z.string().min(1).max(200).optional(),
});
const forwardIn = z.strictObject({ mode: z.literal('forward') });
export const inboundInput = z.discriminatedUnion('mode', [imapIn, forwardIn]);
export const smtpInput = z.strictObject({
  host,
  port,
  secure: z.boolean(),
  username,
  password: password.optional(),
});

const common = {
  displayName: z.string().trim().min(1).max(100),
  aiReplies: z.boolean().optional(),
  signature: z.string().max(2000).optional(),
  isEnabled: z.boolean().optional(),
  enableContactMatching: z.boolean().optional(),
  autoCreateContacts: z.boolean().optional(),
};

/** `POST /api/assistants/{id}/email`: creates the configuration. */
export const emailCreate = z.strictObject({
  address: emailAddress,
  ...common,
  inbound: inboundInput,
  smtp: smtpInput.nullable().optional(),
});
/** `PATCH`: any subset; `rotateForwardToken: true` gives forwarding a new URL (the old one stops). */
export const emailPatch = emailCreate
  .partial()
  .extend({ rotateForwardToken: z.boolean().optional() })
  .strict();
/** `POST .../email/test`: the configuration's body; nothing is saved. */
export const emailTest = emailCreate;

export const emailStatus = z.object({
  state: z.enum(['ok', 'error']),
  message: z.string(),
  checkedAt: z.string().nullable(),
});

export const emailConfig = z.object({
  assistantId: z.string(),
  address: z.string(),
  displayName: z.string(),
  inbound: z.discriminatedUnion('mode', [
    z.object({
      mode: z.literal('imap'),
      host: z.string(),
      port: z.number().int(),
      secure: z.boolean(),
      username: z.string(),
      mailbox: z.string(),
    }),
    z.object({
      mode: z.literal('forward'),
      forwardUrl: z.string().describe('POST the raw message here as message/rfc822; holds the secret token'),
    }),
  ]),
  smtp: z
    .object({ host: z.string(), port: z.number().int(), secure: z.boolean(), username: z.string() })
    .nullable()
    .describe("null: replies go out through the server's SMTP_URL"),
  aiReplies: z.boolean(),
  signature: z.string(),
  isEnabled: z.boolean(),
  enableContactMatching: z.boolean(),
  autoCreateContacts: z.boolean(),
  status: emailStatus,
  createdAt: z.string(),
  updatedAt: z.string(),
});

const check = z.object({ ok: z.boolean(), message: z.string() });
export const emailTestResult = z.object({ imap: check.nullable(), smtp: check });

/** Why an inbound email got no AI reply (docs/email.md "Not answered"); null when answered. */
export const EMAIL_NOT_ANSWERED = [
  'auto_submitted',
  'bulk',
  'bounce',
  'own_address',
  'dmarc_fail',
  'rate_limited',
  'ai_replies_off',
  'disabled',
] as const;

const mailbox = z.object({ address: z.string(), name: z.string() });
const verdict = z.string().describe('pass, fail, softfail, neutral, none, temperror, permerror, policy');

export const emailAttachment = z.object({
  id: z.string(),
  filename: z.string(),
  contentType: z.string().describe('The type found in the bytes when known, else application/octet-stream'),
  declaredType: z.string().describe('The type the sender declared'),
  size: z.number().int(),
  url: z.string().describe('Download (members of the workspace only), always as an attachment'),
});

/** What an email message carries in the inbox and the v1 API, beside the message's own fields. */
export const emailMessageInfo = z.object({
  direction: z.enum(['inbound', 'outbound']),
  subject: z.string(),
  from: mailbox,
  to: z.array(mailbox),
  cc: z.array(mailbox),
  messageId: z.string().describe('The Message-ID header'),
  inReplyTo: z.string().nullable(),
  html: z
    .string()
    .nullable()
    .describe('The HTML part, sanitised on the server (no scripts, handlers, javascript: links)'),
  attachments: z.array(emailAttachment),
  authentication: z
    .object({ spf: verdict, dkim: verdict, dmarc: verdict })
    .nullable()
    .describe('SPF, DKIM and DMARC of an inbound message; null on outbound ones'),
  marked: z.boolean().describe('Failed DMARC: shown marked, never answered by the AI'),
  notAnswered: z.enum(EMAIL_NOT_ANSWERED).nullable(),
  delivery: z
    .object({ state: z.enum(['pending', 'sent', 'failed']), error: z.string().nullable() })
    .nullable()
    .describe('An outbound message: whether the SMTP server took it'),
});

export type EmailCreate = z.infer<typeof emailCreate>;
export type EmailPatch = z.infer<typeof emailPatch>;
export type EmailConfig = z.infer<typeof emailConfig>;
export type EmailMessageInfo = z.infer<typeof emailMessageInfo>;
export type EmailNotAnswered = (typeof EMAIL_NOT_ANSWERED)[number];
