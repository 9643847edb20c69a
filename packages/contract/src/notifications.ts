import { z } from 'zod';

/** Every kind of notification; each can be turned off per user (docs/notifications.md "Preferences"). */
export const NOTICE_KINDS = [
  'credits.warning',
  'credits.exhausted',
  'webhook.disabled',
  'ingestion.failed',
  'invitation',
  'trial.ending',
  'trial.ended',
  'payment.failed',
  'assistant.tests_failed',
  'conversation.assigned',
  'sla.breached',
] as const;

export type NoticeKind = (typeof NOTICE_KINDS)[number];

/** One in-app notification (docs/notifications.md "Kinds"). */
export const notificationSchema = z.object({
  id: z.string(),
  type: z.string(),
  title: z.string(),
  body: z.string(),
  workspaceId: z.string().nullable(),
  readAt: z.string().nullable(),
  createdAt: z.string(),
});

export const unreadSchema = z.object({ unread: z.number().int() });

const channels = z.object({ inApp: z.boolean(), email: z.boolean() });

/** A user's preferences: for each kind, in-app and email on or off. */
export const preferencesSchema = z.object(
  Object.fromEntries(NOTICE_KINDS.map((k) => [k, channels])) as Record<NoticeKind, typeof channels>,
);

/** A change of preferences: any kinds, any of their two channels. */
export const preferencesPatch = z.strictObject(
  Object.fromEntries(
    NOTICE_KINDS.map((k) => [
      k,
      z.strictObject({ inApp: z.boolean().optional(), email: z.boolean().optional() }).optional(),
    ]),
  ),
);

export type Notification = z.output<typeof notificationSchema>;
export type Channels = z.output<typeof channels>;
export type Preferences = z.output<typeof preferencesSchema>;
