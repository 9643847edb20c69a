import type { deliverySchema, webhookSchema } from '@parley/contract/webhooks';
import type { z } from 'zod';
import { iso } from '../../http/envelope.ts';
import type { DeliveryRow, WebhookRow } from './webhooks.repo.ts';

/** Webhook and delivery rows as the API shows them (packages/contract/src/webhooks.ts). */
export const toWebhook = (w: WebhookRow): z.infer<typeof webhookSchema> => ({
  id: w.id,
  url: w.url,
  events: w.events,
  active: w.active,
  createdAt: iso(w.createdAt),
});

export const toWebhookB = (w: WebhookRow) => ({ ...toWebhook(w), workspaceId: w.workspaceId });

export const toDelivery = (d: DeliveryRow): z.infer<typeof deliverySchema> => ({
  id: d.id,
  eventId: d.eventId,
  event: d.event,
  status: d.status,
  statusCode: d.statusCode,
  attempt: d.attempt,
  duration: d.durationMs,
  createdAt: iso(d.createdAt),
});
