import type { Notification } from '@parley/contract/notifications';
import { i18n } from '../../i18n/index.ts';
import type { Resources } from '../../i18n/resources.ts';
import { formatDate } from '../../shell/dates.ts';

/**
 * In-app notifications (docs/notifications.md "Kinds", "Preferences"): `GET /api/notifications`
 * (cursor pages, newest first), `POST .../{id}/read`, `POST .../read-all`, and the per-kind
 * preferences at `/api/account/notification-preferences`.
 */
export type { Channels, Notification, Preferences } from '@parley/contract/notifications';

type KindKey = keyof Resources['notifications']['kinds'];

/**
 * What each kind is called in the preferences: its key in the notifications catalog's `kinds`
 * (apps/web/src/i18n/en/notifications.ts, and es). A kind the server adds later shows its code.
 */
export const KIND_KEYS: Record<string, KindKey> = {
  'credits.warning': 'creditsWarning',
  'credits.exhausted': 'creditsExhausted',
  'webhook.disabled': 'webhookDisabled',
  'ingestion.failed': 'ingestionFailed',
  invitation: 'invitation',
  'trial.ending': 'trialEnding',
  'trial.ended': 'trialEnded',
  'payment.failed': 'paymentFailed',
  'sla.breached': 'slaBreached',
  'conversation.assigned': 'conversationAssigned',
};

/** A kind's name in the dashboard's language, or its code. */
export function kindName(kind: string): string {
  const key = KIND_KEYS[kind];
  return key ? i18n.t(`notifications:kinds.${key}`) : kind;
}

/** The page a notification is about, inside its workspace (none for an invitation). */
export function pageOf(n: Notification): string | null {
  if (!n.workspaceId) return null;
  const w = `/w/${n.workspaceId}`;
  if (n.type.startsWith('credits') || n.type.startsWith('trial') || n.type.startsWith('payment')) {
    return `${w}/billing`;
  }
  if (n.type.startsWith('webhook')) return `${w}/webhooks`;
  if (n.type.startsWith('ingestion')) return `${w}/assistants`;
  if (n.type === 'conversation.assigned' || n.type === 'sla.breached') {
    // The body names the conversation as "(conv_…)" after its title: the last id named is it.
    const id = n.body.match(/\bconv_[0-9A-Za-z]+\b/g)?.at(-1);
    return id ? `${w}/inbox/${id}` : `${w}/inbox`;
  }
  return null;
}

/** "5 min ago", "3 h ago", then the date. */
export function ago(iso: string, at = Date.now()): string {
  const s = Math.max(0, Math.round((at - new Date(iso).getTime()) / 1000));
  if (s < 60) return i18n.t('notifications:ago.justNow');
  if (s < 3600) return i18n.t('notifications:ago.minutes', { count: Math.floor(s / 60) });
  if (s < 86_400) return i18n.t('notifications:ago.hours', { count: Math.floor(s / 3600) });
  return formatDate(iso);
}
