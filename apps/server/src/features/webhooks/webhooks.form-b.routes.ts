import { dataOf, idParam } from '@parley/contract/envelope';
import { offsetPage } from '@parley/contract/pagination';
import {
  createdWebhookSchemaB,
  createWebhookBodyB,
  listQueryB,
  updateWebhookBodyB,
  webhookSchemaB,
} from '@parley/contract/webhooks';
import { z } from 'zod';
import { conflictResponse } from '../../http/envelope.ts';
import type { Feature } from '../../http/feature.ts';
import { resourceOf, tenantOf } from '../../http/tenant.ts';
import { toWebhookB } from './webhooks.serialize.ts';
import * as service from './webhooks.service.ts';

const errors = conflictResponse;
const hookParams = z.object({ webhookId: idParam });
/** The workspace is the `workspaceId` input (or the caller's only one), or the webhook's own. */
const some = { auth: 'user', workspace: 'input', permission: 'webhooks.manage' } as const;
const one = { auth: 'user', resources: ['webhookB'], permission: 'webhooks.manage' } as const;

/**
 * Format B webhooks (docs/webhooks.md; `/api/webhooks`, bearer token = personal access token, or the
 * session): format B webhooks only. Response shapes follow docs/api.md "Requests and responses".
 */
export const webhooksFormBRoutes: Feature = (app, ctx) => {
  app.post(
    '/api/webhooks',
    {
      config: some,
      schema: {
        tags: ['webhooks'],
        body: createWebhookBodyB,
        response: { 201: dataOf(createdWebhookSchemaB), ...errors },
      },
    },
    async (request, reply) => {
      const { workspaceId: _ignored, ...input } = request.body;
      const { row, secret } = await service.createWebhook(ctx, tenantOf(request).workspaceId, 'B', input);
      return reply.status(201).send({ data: { ...toWebhookB(row), secret } });
    },
  );

  app.get(
    '/api/webhooks',
    {
      config: some,
      schema: {
        tags: ['webhooks'],
        querystring: listQueryB,
        response: { 200: offsetPage(webhookSchemaB), ...errors },
      },
    },
    async (request) => {
      const { limit, offset } = request.query;
      const ws = tenantOf(request).workspaceId;
      const { rows, total } = await service.listWebhooks(ctx, ws, 'B', { limit, offset });
      return { data: rows.map(toWebhookB), total, limit, offset };
    },
  );

  app.patch(
    '/api/webhooks/:webhookId',
    {
      config: one,
      schema: {
        tags: ['webhooks'],
        params: hookParams,
        body: updateWebhookBodyB,
        response: { 200: dataOf(webhookSchemaB), ...errors },
      },
    },
    async (request) => {
      const { workspaceId, id } = resourceOf(request, 'webhookB');
      const row = await service.updateWebhook(ctx, workspaceId, 'B', id, request.body);
      return { data: toWebhookB(row) };
    },
  );

  app.delete(
    '/api/webhooks/:webhookId',
    {
      config: one,
      schema: { tags: ['webhooks'], params: hookParams, response: { 204: z.undefined(), ...errors } },
    },
    async (request, reply) => {
      const { workspaceId, id } = resourceOf(request, 'webhookB');
      await service.deleteWebhook(ctx, workspaceId, 'B', id);
      return reply.status(204).send();
    },
  );
};
