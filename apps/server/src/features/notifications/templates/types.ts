/** A notice as stored in the app and sent by email (docs/notifications.md "Kinds"). */
export type Notice = { type: NoticeKind; title: string; body: string };

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
] as const;

export type NoticeKind = (typeof NOTICE_KINDS)[number];

/** A date as people read it in a notice: `2026-12-01` (UTC). */
export const day = (d: Date) => d.toISOString().slice(0, 10);
