import {
  cannedListQuery,
  cannedResponseSchema,
  createCannedBody,
  updateCannedBody,
} from '@parley/contract/canned-responses';
import { dataOf, idParam } from '@parley/contract/envelope';
import { workspaceQuery } from '@parley/contract/inbox';
import { offsetPage } from '@parley/contract/pagination';
import { z } from 'zod';
import { userIdOf } from '../../http/auth.ts';
import { conflictResponse } from '../../http/envelope.ts';
import type { Feature } from '../../http/feature.ts';
import { resourceOf, tenantOf } from '../../http/tenant.ts';
import { userCard } from '../inbox/inbox.repo.ts';
import * as service from './canned.service.ts';

const base = '/api/workspaces/:workspaceId/canned-responses';
const params = z.object({ workspaceId: idParam });
const one = params.extend({ cannedId: idParam });
const tags = ['canned-responses'];
const read = { auth: 'user', permission: 'workspace.view' } as const;
const write = { auth: 'user', permission: 'inbox.manage' } as const;

/**
 * Canned responses (docs/canned-responses.md): every member reads them (to use them in a reply),
 * owners and admins write them. A taken shortcut is a 409; an unknown variable a 400.
 */
export const cannedRoutes: Feature = (app, ctx) => {
  app.get(
    base,
    {
      config: read,
      schema: {
        tags,
        params,
        querystring: cannedListQuery,
        response: { 200: offsetPage(cannedResponseSchema) },
      },
    },
    async (request) => {
      const { limit, offset, q } = request.query;
      const { rows, total } = await service.listCanned(ctx, tenantOf(request).workspaceId, q, {
        limit,
        offset,
      });
      return { data: rows.map(service.toCanned), total, limit, offset };
    },
  );

  app.post(
    base,
    {
      config: write,
      schema: {
        tags,
        params,
        body: createCannedBody,
        response: { 201: dataOf(cannedResponseSchema), ...conflictResponse },
      },
    },
    async (request, reply) => {
      const row = await service.createCanned(ctx, tenantOf(request).workspaceId, request.body);
      return reply.status(201).send({ data: service.toCanned(row) });
    },
  );

  app.get(
    `${base}/:cannedId`,
    {
      config: { ...read, resources: ['canned'] },
      schema: { tags, params: one, response: { 200: dataOf(cannedResponseSchema) } },
    },
    async (request) => ({ data: service.toCanned(resourceOf(request, 'canned')) }),
  );

  app.patch(
    `${base}/:cannedId`,
    {
      config: { ...write, resources: ['canned'] },
      schema: {
        tags,
        params: one,
        body: updateCannedBody,
        response: { 200: dataOf(cannedResponseSchema), ...conflictResponse },
      },
    },
    async (request) => {
      const { id } = resourceOf(request, 'canned');
      const row = await service.updateCanned(ctx, tenantOf(request).workspaceId, id, request.body);
      return { data: service.toCanned(row) };
    },
  );

  app.delete(
    `${base}/:cannedId`,
    {
      config: { ...write, resources: ['canned'] },
      schema: { tags, params: one, response: { 204: z.undefined() } },
    },
    async (request, reply) => {
      await service.deleteCanned(ctx, tenantOf(request).workspaceId, resourceOf(request, 'canned').id);
      return reply.status(204).send();
    },
  );

  // The reply box's preview: the text the reply would send, to edit first (docs/canned-responses.md "Endpoints").
  app.get(
    '/api/inbox/conversations/:conversationId/canned-responses/:cannedId',
    {
      config: {
        auth: 'session',
        resources: ['inboxConversation', 'canned'],
        permission: 'assistants.use',
      },
      schema: {
        tags,
        params: z.object({ conversationId: idParam, cannedId: idParam }),
        querystring: workspaceQuery,
        response: { 200: dataOf(cannedResponseSchema) },
      },
    },
    async (request) => {
      const canned = resourceOf(request, 'canned');
      const author = await userCard(ctx.db, userIdOf(request));
      const content = await service.renderCanned(ctx, canned, resourceOf(request, 'inboxConversation'), {
        name: author?.name ?? null,
      });
      return { data: { ...service.toCanned(canned), content } };
    },
  );
};
