import type { AppContext } from '../../context.ts';
import type { WebhookFormat } from '../../db/schema/index.ts';
import { badRequest, conflict, notFound } from '../../http/errors.ts';
import { now } from '../../lib/clock.ts';
import { encrypt } from '../../lib/crypto.ts';
import { newId } from '../../lib/ids.ts';
import { checkOutboundUrl } from '../../lib/outbound/guard.ts';
import { vocabulary } from './event-names.ts';
import { generateSecret } from './signing.ts';
import * as repo from './webhooks.repo.ts';

export type CreateInput = { url: string; events: string[]; secret?: string; active?: boolean };
export type UpdateInput = { url?: string; events?: string[]; active?: boolean };

/**
 * docs/webhooks.md "Addresses Parley will not call": https only, never a private or reserved address (SSRF
 * guard, creation time).
 */
async function validUrl(ctx: AppContext, url: string): Promise<string> {
  const problem = await checkOutboundUrl(url, {
    allowPrivateNetworks: ctx.config.webhooks.allowPrivateNetworks,
  });
  if (problem) throw badRequest('Invalid webhook URL', { url: problem });
  return new URL(url).toString();
}

/**
 * Names of the webhook's own format, or exactly ["*"]
 * (docs/webhooks.md "Two families: Format A and Format B").
 */
function validEvents(format: WebhookFormat, events: string[]): string[] {
  const unique = [...new Set(events)];
  if (unique.includes('*')) {
    if (unique.length > 1)
      throw badRequest('Invalid events', { events: '"*" cannot be combined with other names' });
    return unique;
  }
  const known = vocabulary(format);
  const unknown = unique.filter((e) => !known.includes(e));
  if (unknown.length > 0) {
    throw badRequest('Invalid events', { events: `Unknown event names: ${unknown.slice(0, 5).join(', ')}` });
  }
  return unique;
}

export async function createWebhook(
  ctx: AppContext,
  workspaceId: string,
  format: WebhookFormat,
  input: CreateInput,
) {
  const url = await validUrl(ctx, input.url);
  const events = validEvents(format, input.events);
  const secret = input.secret ?? generateSecret();
  const at = now();
  const row = await repo.insertWebhook(ctx.db, {
    id: newId('whk'),
    workspaceId,
    format,
    url,
    events,
    secretEnc: encrypt(ctx.config.encryptionKey, secret),
    active: input.active ?? true,
    createdAt: at,
    updatedAt: at,
  });
  return { row, secret };
}

export async function listWebhooks(
  ctx: AppContext,
  workspaceId: string,
  format: WebhookFormat,
  page: { limit: number; offset: number },
) {
  return repo.listWebhooks(ctx.db, workspaceId, format, page);
}

export async function getWebhook(ctx: AppContext, workspaceId: string, format: WebhookFormat, id: string) {
  const row = await repo.findWebhook(ctx.db, workspaceId, format, id);
  if (!row) throw notFound('Webhook');
  return row;
}

/**
 * Deactivation ends pending retries as `failed`; re-activation resets the failure streak
 * (docs/webhooks.md).
 */
export async function updateWebhook(
  ctx: AppContext,
  workspaceId: string,
  format: WebhookFormat,
  id: string,
  input: UpdateInput,
) {
  const current = await getWebhook(ctx, workspaceId, format, id);
  const url = input.url === undefined ? undefined : await validUrl(ctx, input.url);
  const events = input.events === undefined ? undefined : validEvents(format, input.events);
  const at = now();
  return ctx.db.transaction(async (tx) => {
    const row = await repo.updateWebhook(tx, workspaceId, id, {
      ...(url !== undefined && { url }),
      ...(events !== undefined && { events }),
      ...(input.active !== undefined && { active: input.active }),
      ...(input.active === true && { disabledAt: null }),
      updatedAt: at,
    });
    if (!row) throw notFound('Webhook');
    if (input.active === false && current.active) await repo.failPendingDeliveries(tx, workspaceId, id, at);
    if (input.active === true && !current.active) await repo.resetFailures(tx, id);
    return row;
  });
}

export async function deleteWebhook(ctx: AppContext, workspaceId: string, format: WebhookFormat, id: string) {
  await getWebhook(ctx, workspaceId, format, id);
  await repo.deleteWebhook(ctx.db, workspaceId, id);
}

export async function listDeliveries(
  ctx: AppContext,
  workspaceId: string,
  webhookId: string,
  q: { limit: number; cursor?: string },
) {
  await getWebhook(ctx, workspaceId, 'A', webhookId);
  const cursor = ctx.cursors.open(
    { list: 'webhooks.deliveries', workspaceId, parentId: webhookId },
    q.cursor,
  );
  const rows = await repo.listDeliveries(ctx.db, workspaceId, webhookId, q.limit, cursor.after);
  return cursor.page(rows, q.limit, (r) => ({ t: r.createdAt.getTime(), id: r.id }));
}

/**
 * Manual retry (docs/webhooks.md "Delivery, retries and replay"): any final status → one new attempt, now.
 */
export async function retryDelivery(
  ctx: AppContext,
  workspaceId: string,
  webhookId: string,
  deliveryId: string,
) {
  const webhook = await getWebhook(ctx, workspaceId, 'A', webhookId);
  const delivery = await repo.findDelivery(ctx.db, workspaceId, webhookId, deliveryId);
  if (!delivery) throw notFound('Delivery');
  if (!webhook.active) throw conflict('The webhook is inactive; activate it before retrying');
  const row = await repo.requeueDelivery(ctx.db, workspaceId, deliveryId, now());
  if (!row) throw conflict('The delivery is already pending');
  ctx.jobs.wake('webhook-delivery');
  return row;
}

export const webhookNotFound = () => notFound('Webhook');
