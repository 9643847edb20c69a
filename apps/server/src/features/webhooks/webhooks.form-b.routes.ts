import { z } from 'zod';
import type { Feature } from '../../app.ts';
import type { AppContext } from '../../context.ts';
import type { Actor } from '../../http/actor.ts';
import { actorOf } from '../../http/auth.ts';
import { dataOf, errorBody, idParam } from '../../http/envelope.ts';
import { offsetPage, offsetQuery } from '../../http/pagination.ts';
import { assertValid } from '../../http/validation.ts';
import { tenantFromInput } from '../workspaces/implicit-tenant.service.ts';
import { authorize, resolveTenant } from '../workspaces/tenant.service.ts';
import {
  createdWebhookSchemaB,
  createWebhookBodyB,
  toWebhookB,
  updateWebhookBodyB,
  webhookSchemaB,
} from './webhooks.schemas.ts';
import * as service from './webhooks.service.ts';

const errors = {
  400: errorBody,
  401: errorBody,
  403: errorBody,
  404: errorBody,
  409: errorBody,
  429: errorBody,
};
const hookParams = z.object({ webhookId: idParam });
const listQuery = offsetQuery.extend({ workspaceId: z.string().min(1).max(100).optional() }).strict();

/** The caller's workspace (decisions §2 last bullet), then owner/admin (webhooks.manage). */
async function managedWorkspace(ctx: AppContext, actor: Actor, workspaceId: string | undefined) {
  const tenant = await tenantFromInput(ctx, actor, workspaceId);
  authorize(actor, tenant, { permission: 'webhooks.manage' });
  return tenant.workspaceId;
}

/** A webhook addressed by id: its workspace must be the caller's (else 404), then the role check. */
async function managedWebhookWorkspace(ctx: AppContext, actor: Actor, webhookId: string) {
  const ws = await service.workspaceOfWebhook(ctx, 'B', webhookId);
  const tenant = await resolveTenant(ctx, actor, ws).catch(() => {
    throw service.webhookNotFound();
  });
  authorize(actor, tenant, { permission: 'webhooks.manage' });
  return ws;
}

/**
 * Spec "Webhooks, Form B" (`/api/webhooks`, bearer token = personal access token, or the
 * session): format B webhooks only (decisions §1). Response shapes follow decisions §2.
 */
export const webhooksFormBRoutes: Feature = (app, ctx) => {
  app.post(
    '/api/webhooks',
    {
      config: { auth: 'user', deferValidation: true },
      schema: {
        tags: ['webhooks'],
        body: createWebhookBodyB,
        response: { 201: dataOf(createdWebhookSchemaB), ...errors },
      },
    },
    async (request, reply) => {
      const raw = request.body as { workspaceId?: unknown } | undefined;
      const wsInput = typeof raw?.workspaceId === 'string' ? raw.workspaceId : undefined;
      const ws = await managedWorkspace(ctx, actorOf(request), wsInput);
      assertValid(request);
      const { workspaceId: _ignored, ...input } = request.body;
      const { row, secret } = await service.createWebhook(ctx, ws, 'B', input);
      return reply.status(201).send({ data: { ...toWebhookB(row), secret } });
    },
  );

  app.get(
    '/api/webhooks',
    {
      config: { auth: 'user', deferValidation: true },
      schema: {
        tags: ['webhooks'],
        querystring: listQuery,
        response: { 200: offsetPage(webhookSchemaB), ...errors },
      },
    },
    async (request) => {
      const raw = request.query as { workspaceId?: unknown } | undefined;
      const wsInput = typeof raw?.workspaceId === 'string' ? raw.workspaceId : undefined;
      const ws = await managedWorkspace(ctx, actorOf(request), wsInput);
      assertValid(request);
      const { limit, offset } = request.query;
      const { rows, total } = await service.listWebhooks(ctx, ws, 'B', { limit, offset });
      return { data: rows.map(toWebhookB), total, limit, offset };
    },
  );

  app.patch(
    '/api/webhooks/:webhookId',
    {
      config: { auth: 'user', deferValidation: true },
      schema: {
        tags: ['webhooks'],
        params: hookParams,
        body: updateWebhookBodyB,
        response: { 200: dataOf(webhookSchemaB), ...errors },
      },
    },
    async (request) => {
      const id = (request.params as { webhookId: string }).webhookId;
      const ws = await managedWebhookWorkspace(ctx, actorOf(request), id);
      assertValid(request);
      const row = await service.updateWebhook(ctx, ws, 'B', id, request.body);
      return { data: toWebhookB(row) };
    },
  );

  app.delete(
    '/api/webhooks/:webhookId',
    {
      config: { auth: 'user', deferValidation: true },
      schema: { tags: ['webhooks'], params: hookParams, response: { 204: z.undefined(), ...errors } },
    },
    async (request, reply) => {
      const id = (request.params as { webhookId: string }).webhookId;
      const ws = await managedWebhookWorkspace(ctx, actorOf(request), id);
      assertValid(request);
      await service.deleteWebhook(ctx, ws, 'B', id);
      return reply.status(204).send();
    },
  );
};
