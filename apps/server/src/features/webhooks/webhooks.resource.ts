import { defineResource, resourceNotFound } from '../../http/resources.ts';
import { resolveTenant } from '../workspaces/tenant.service.ts';
import { findWebhook, findWebhookOfMember, type WebhookRow } from './webhooks.repo.ts';

declare module '../../http/resources.ts' {
  interface Resources {
    /** A format A webhook of the workspace in the path (`:webhookId`). */
    webhook: WebhookRow;
    /** A format B webhook, addressed without a workspace (`/api/webhooks/:webhookId`). */
    webhookB: WebhookRow;
  }
}

export const webhookResource = defineResource({
  kind: 'webhook',
  param: 'webhookId',
  notFound: resourceNotFound('Webhook'),
  load: (ctx, { tenant }, id) => findWebhook(ctx.db, tenant.workspaceId, 'A', id),
});

export const webhookBResource = defineResource({
  kind: 'webhookB',
  param: 'webhookId',
  notFound: resourceNotFound('Webhook'),
  load: (ctx, { tenant }, id) => findWebhook(ctx.db, tenant.workspaceId, 'B', id),
  async locate(ctx, actor, id) {
    if (actor.kind !== 'user') return undefined;
    const row = await findWebhookOfMember(ctx.db, 'B', id, actor.userId);
    return row && { tenant: await resolveTenant(ctx, actor, row.workspaceId), row };
  },
});
