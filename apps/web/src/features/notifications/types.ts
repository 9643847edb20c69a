import type { Notification } from '@parley/contract/notifications';
import { formatDate } from '../../shell/dates.ts';

/**
 * In-app notifications (docs/notifications.md "Kinds", "Preferences"): `GET /api/notifications`
 * (cursor pages, newest first), `POST .../{id}/read`, `POST .../read-all`, and the per-kind
 * preferences at `/api/account/notification-preferences`.
 */
export type { Channels, Notification, Preferences } from '@parley/contract/notifications';

/** What each kind is called in the preferences; a kind the server adds later shows its code. */
export const KIND_NAMES: Record<string, string> = {
  'credits.warning': 'Credits at 80%',
  'credits.exhausted': 'Credits used up',
  'webhook.disabled': 'A webhook was turned off after failing',
  'ingestion.failed': 'A knowledge source failed to index',
  invitation: 'An invitation to a workspace',
  'trial.ending': 'The trial ends in 3 days',
  'trial.ended': 'The trial ended',
  'payment.failed': 'A payment failed',
  'sla.breached': 'An SLA target ran out',
  'conversation.assigned': 'A conversation was assigned to you',
};

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
  if (s < 60) return 'just now';
  if (s < 3600) return `${Math.floor(s / 60)} min ago`;
  if (s < 86_400) return `${Math.floor(s / 3600)} h ago`;
  return formatDate(iso);
}
