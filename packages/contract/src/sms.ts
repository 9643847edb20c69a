import { z } from 'zod';
import { periodField } from './periods.ts';
import { e164Field } from './phone-fields.ts';
import { ACCOUNT_SID, AUTH_TOKEN, MESSAGE_LENGTH, SESSION_TIMEOUT } from './sms-limits.ts';

export const accountSid = z.string().regex(ACCOUNT_SID, 'AC followed by 32 letters or digits');
export const authToken = z
  .string()
  .min(AUTH_TOKEN.min, `At least ${AUTH_TOKEN.min} characters`)
  .max(AUTH_TOKEN.max)
  .regex(AUTH_TOKEN.chars, 'Printable characters without spaces');
export const e164 = e164Field;
const maxMessageLength = z.number().int().min(MESSAGE_LENGTH.min).max(MESSAGE_LENGTH.max);
const sessionTimeoutMinutes = z.number().int().min(SESSION_TIMEOUT.min).max(SESSION_TIMEOUT.max);

/** Form A create: the three credentials fields required. */
export const formACreate = z.strictObject({
  providerAccountSid: accountSid,
  providerAuthToken: authToken,
  providerPhoneNumber: e164,
  isEnabled: z.boolean().optional(),
  maxMessageLength: maxMessageLength.optional(),
  enableContactMatching: z.boolean().optional(),
  autoCreateContacts: z.boolean().optional(),
});
export const formAPatch = formACreate.partial();
/** Test: the token may be left out to use the saved one (docs/sms.md "Configuration"). */
export const formATest = z.strictObject({
  providerAccountSid: accountSid,
  providerAuthToken: authToken.optional(),
  providerPhoneNumber: e164,
});

export const formAConfig = z.object({
  providerAccountSid: z.string(),
  providerPhoneNumber: z.string(),
  isEnabled: z.boolean(),
  maxMessageLength: z.number().int(),
  enableContactMatching: z.boolean(),
  autoCreateContacts: z.boolean(),
  webhookUrl: z.string(),
  createdAt: z.string(),
});

/** Form B PUT: creates or replaces; its required fields required. */
export const formBPut = z.strictObject({
  enabled: z.boolean(),
  providerAccountSid: accountSid,
  providerAuthToken: authToken,
  phoneNumber: e164,
  sessionTimeoutMinutes: sessionTimeoutMinutes.optional(),
});
export const formBTest = z.strictObject({
  providerAccountSid: accountSid,
  providerAuthToken: authToken.optional(),
  phoneNumber: e164,
});

export const formBConfig = z.object({
  enabled: z.boolean(),
  phoneNumber: z.string(),
  providerAccountSid: z.string(),
  webhookUrl: z.string(),
  sessionTimeoutMinutes: z.number().int(),
  createdAt: z.string(),
});

export const testResult = z.object({
  valid: z.boolean(),
  phoneNumberCapabilities: z.object({ sms: z.boolean(), mms: z.boolean(), voice: z.boolean() }),
  /** Why it is not valid, in words (an addition: rejected credentials, unknown number, unreachable). */
  reason: z.string().optional(),
});

export const smsSession = z.object({
  id: z.string(),
  conversationId: z.string().nullable(),
  phoneNumber: z.string(),
  contactId: z.string().nullable(),
  status: z.enum(['active', 'ended']),
  messageCount: z.number().int(),
  startedAt: z.string(),
  lastMessageAt: z.string(),
});

/** The analytics periods (periods.ts, the same as workspace analytics'). */
export const period = periodField;
export const analyticsQuery = z.strictObject({ period });

export const analytics = z.object({
  totalMessages: z.number().int(),
  inbound: z.number().int(),
  outbound: z.number().int(),
  uniqueContacts: z.number().int(),
  activeSessions: z.number().int(),
  period: z.string(),
  /** Per UTC day of the period, oldest first (an addition, for a chart). */
  series: z.array(z.object({ date: z.string(), inbound: z.number().int(), outbound: z.number().int() })),
});

export type FormACreate = z.infer<typeof formACreate>;
export type FormAPatch = z.infer<typeof formAPatch>;
export type FormBPut = z.infer<typeof formBPut>;
