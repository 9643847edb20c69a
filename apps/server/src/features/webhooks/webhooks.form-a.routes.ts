import { dataOf, idParam } from '@parley/contract/envelope';
import { cursorPage, cursorQuery, offsetPage, offsetQuery } from '@parley/contract/pagination';
import {
  createdWebhookSchema,
  createWebhookBody,
  deliverySchema,
  updateWebhookBody,
  webhookSchema,
} from '@parley/contract/webhooks';
import { z } from 'zod';
import { conflictResponse } from '../../http/envelope.ts';
import type { Feature } from '../../http/feature.ts';
import { resourceOf, tenantOf } from '../../http/tenant.ts';
import { toDelivery, toWebhook } from './webhooks.serialize.ts';
import * as service from './webhooks.service.ts';

const errors = conflictResponse;
const wsParams = z.object({ workspaceId: idParam });
const hookParams = wsParams.extend({ webhookId: idParam });

/**
 * Format A webhooks (docs/webhooks.md): owners and admins by session or personal token (permission
 * webhooks.manage), or a workspace API key with events:read (docs/api.md "Surfaces and credentials"). Manages
 * format A only.
 */
const guard = { auth: 'user-or-key', permission: 'webhooks.manage', scope: 'events:read' } as const;
const one = { ...guard, resources: ['webhook'] } as const;
const base = '/api/workspaces/:workspaceId/webhooks';

export const webhooksFormARoutes: Feature = (app, ctx) => {
  app.get(
    base,
    {
      config: guard,
      schema: {
        tags: ['webhooks'],
        params: wsParams,
        querystring: offsetQuery.strict(),
        response: { 200: offsetPage(webhookSchema), ...errors },
      },
    },
    async (request) => {
      const { limit, offset } = request.query;
      const { rows, total } = await service.listWebhooks(ctx, tenantOf(request).workspaceId, 'A', {
        limit,
        offset,
      });
      return { data: rows.map(toWebhook), total, limit, offset };
    },
  );

  app.post(
    base,
    {
      config: guard,
      schema: {
        tags: ['webhooks'],
        params: wsParams,
        body: createWebhookBody,
        response: { 201: dataOf(createdWebhookSchema), ...errors },
      },
    },
    async (request, reply) => {
      const { row, secret } = await service.createWebhook(
        ctx,
        tenantOf(request).workspaceId,
        'A',
        request.body,
      );
      return reply.status(201).send({ data: { ...toWebhook(row), secret } });
    },
  );

  app.get(
    `${base}/:webhookId`,
    {
      config: one,
      schema: { tags: ['webhooks'], params: hookParams, response: { 200: dataOf(webhookSchema), ...errors } },
    },
    async (request) => ({ data: toWebhook(resourceOf(request, 'webhook')) }),
  );

  app.patch(
    `${base}/:webhookId`,
    {
      config: one,
      schema: {
        tags: ['webhooks'],
        params: hookParams,
        body: updateWebhookBody,
        response: { 200: dataOf(webhookSchema), ...errors },
      },
    },
    async (request) => {
      const ws = tenantOf(request).workspaceId;
      const row = await service.updateWebhook(ctx, ws, 'A', request.params.webhookId, request.body);
      return { data: toWebhook(row) };
    },
  );

  app.delete(
    `${base}/:webhookId`,
    {
      config: one,
      schema: { tags: ['webhooks'], params: hookParams, response: { 204: z.undefined(), ...errors } },
    },
    async (request, reply) => {
      await service.deleteWebhook(ctx, tenantOf(request).workspaceId, 'A', request.params.webhookId);
      return reply.status(204).send();
    },
  );

  app.get(
    `${base}/:webhookId/deliveries`,
    {
      config: one,
      schema: {
        tags: ['webhooks'],
        params: hookParams,
        querystring: cursorQuery.strict(),
        response: { 200: cursorPage(deliverySchema), ...errors },
      },
    },
    async (request) => {
      const ws = tenantOf(request).workspaceId;
      const page = await service.listDeliveries(ctx, ws, request.params.webhookId, request.query);
      return { ...page, data: page.data.map(toDelivery) };
    },
  );

  app.post(
    `${base}/:webhookId/deliveries/:deliveryId/retry`,
    {
      config: one,
      schema: {
        tags: ['webhooks'],
        params: hookParams.extend({ deliveryId: idParam }),
        response: { 202: dataOf(deliverySchema), ...errors },
      },
    },
    async (request, reply) => {
      const { webhookId, deliveryId } = request.params;
      const row = await service.retryDelivery(ctx, tenantOf(request).workspaceId, webhookId, deliveryId);
      return reply.status(202).send({ data: toDelivery(row) });
    },
  );
};
