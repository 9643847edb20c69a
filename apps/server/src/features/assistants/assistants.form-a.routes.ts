import {
  assistantListItem,
  assistantSchema,
  createAssistantBody,
  listAssistantsQuery,
  patchAssistantBody,
} from '@parley/contract/assistants';
import { dataOf } from '@parley/contract/envelope';
import { offsetPage } from '@parley/contract/pagination';
import { z } from 'zod';
import { actorOf } from '../../http/auth.ts';
import type { Feature } from '../../http/feature.ts';
import { resourceOf, tenantOf } from '../../http/tenant.ts';
import { toAssistant } from './assistants.serialize.ts';
import * as svc from './assistants.service.ts';

const assistantParams = z.object({ assistantId: z.string().min(1).max(100) });
/** Session surface: cookie only. The workspace is the `workspaceId` input, or the assistant's own. */
const listing = { auth: 'session', workspace: 'input', permission: 'workspace.view' } as const;
const read = { auth: 'session', resources: ['assistant'] } as const;
const manage = { auth: 'session', resources: ['assistant'], permission: 'assistants.manage' } as const;
const tags = ['assistants (Form A)'];

/** Assistants on the session surface, Form A (docs/api.md). */
export const assistantsFormARoutes: Feature = (app, ctx) => {
  app.get(
    '/api/assistants',
    {
      config: listing,
      schema: {
        tags,
        querystring: listAssistantsQuery,
        response: { 200: offsetPage(assistantListItem) },
      },
    },
    async (request) => {
      const { rows, total } = await svc.listAssistants(
        ctx,
        actorOf(request),
        tenantOf(request),
        request.query,
      );
      return {
        data: rows.map((r) => {
          const a = toAssistant(r);
          return { id: a.id, name: a.name, model: a.model, visibility: a.visibility, createdAt: a.createdAt };
        }),
        total,
        limit: request.query.limit,
        offset: request.query.offset,
      };
    },
  );

  app.post(
    '/api/assistants',
    {
      config: { ...listing, permission: 'assistants.manage' },
      schema: { tags, body: createAssistantBody, response: { 201: dataOf(assistantSchema) } },
    },
    async (request, reply) => {
      const { workspaceId: _ignored, ...input } = request.body;
      const row = await svc.createAssistant(ctx, actorOf(request), tenantOf(request), input);
      return reply.status(201).send({ data: toAssistant(row) });
    },
  );

  app.get(
    '/api/assistants/:assistantId',
    {
      config: read,
      schema: { tags, params: assistantParams, response: { 200: dataOf(assistantSchema) } },
    },
    async (request) => ({ data: toAssistant(resourceOf(request, 'assistant').row) }),
  );

  app.patch(
    '/api/assistants/:assistantId',
    {
      config: manage,
      schema: {
        tags,
        params: assistantParams,
        body: patchAssistantBody,
        response: { 200: dataOf(assistantSchema) },
      },
    },
    async (request) => {
      const { row } = resourceOf(request, 'assistant');
      return { data: toAssistant(await svc.updateAssistant(ctx, row, request.body)) };
    },
  );

  app.delete(
    '/api/assistants/:assistantId',
    {
      config: manage,
      schema: { tags, params: assistantParams, response: { 204: z.undefined() } },
    },
    async (request, reply) => {
      await svc.deleteAssistant(ctx, resourceOf(request, 'assistant').row);
      return reply.status(204).send();
    },
  );

  const accessParams = assistantParams.extend({ userId: z.string().min(1).max(100) });
  for (const granted of [true, false]) {
    app.route({
      method: granted ? 'PUT' : 'DELETE',
      url: '/api/assistants/:assistantId/access/:userId',
      config: manage,
      schema: { tags, params: accessParams, response: { 204: z.undefined() } },
      handler: async (request, reply) => {
        const { row } = resourceOf(request, 'assistant');
        await svc.setAccess(ctx, row, (request.params as { userId: string }).userId, granted);
        return reply.status(204).send();
      },
    });
  }
};
