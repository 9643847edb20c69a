import { z } from 'zod';
import type { Feature } from '../../app.ts';
import { actorOf } from '../../http/auth.ts';
import { dataOf, errorBody } from '../../http/envelope.ts';
import { offsetPage } from '../../http/pagination.ts';
import { assertValid } from '../../http/validation.ts';
import {
  assistantListItem,
  assistantSchema,
  createAssistantBody,
  listAssistantsQuery,
  patchAssistantBody,
  toAssistant,
} from './assistants.schemas.ts';
import * as svc from './assistants.service.ts';

const errors = { 400: errorBody, 401: errorBody, 403: errorBody, 404: errorBody };
const assistantParams = z.object({ assistantId: z.string().min(1).max(100) });
/** Session surface (spec Surfaces): cookie only; checks run in the handler in decisions §2 order. */
const config = { auth: 'session', deferValidation: true } as const;
const tags = ['assistants (Form A)'];

/** Spec "Assistants, Form A" and decisions §5/§6. */
export const assistantsFormARoutes: Feature = (app, ctx) => {
  app.get(
    '/api/assistants',
    {
      config,
      schema: {
        tags,
        querystring: listAssistantsQuery,
        response: { 200: offsetPage(assistantListItem), ...errors },
      },
    },
    async (request) => {
      const actor = actorOf(request);
      assertValid(request);
      const { rows, total } = await svc.listAssistants(ctx, actor, request.query);
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
      config,
      schema: { tags, body: createAssistantBody, response: { 201: dataOf(assistantSchema), ...errors } },
    },
    async (request, reply) => {
      const actor = actorOf(request);
      const rawBody = request.body as { workspaceId?: unknown } | null;
      const tenant = await svc.tenantForCreate(ctx, actor, rawBody?.workspaceId);
      assertValid(request);
      const { workspaceId: _ignored, ...input } = request.body;
      const row = await svc.createAssistant(ctx, actor, tenant, input);
      return reply.status(201).send({ data: toAssistant(row) });
    },
  );

  app.get(
    '/api/assistants/:assistantId',
    {
      config,
      schema: { tags, params: assistantParams, response: { 200: dataOf(assistantSchema), ...errors } },
    },
    async (request) => {
      const { row } = await svc.loadAssistant(
        ctx,
        actorOf(request),
        (request.params as { assistantId: string }).assistantId,
      );
      return { data: toAssistant(row) };
    },
  );

  app.patch(
    '/api/assistants/:assistantId',
    {
      config,
      schema: {
        tags,
        params: assistantParams,
        body: patchAssistantBody,
        response: { 200: dataOf(assistantSchema), ...errors },
      },
    },
    async (request) => {
      const id = (request.params as { assistantId: string }).assistantId;
      const { row } = await svc.assertCanManage(ctx, actorOf(request), id);
      assertValid(request);
      return { data: toAssistant(await svc.updateAssistant(ctx, row, request.body)) };
    },
  );

  app.delete(
    '/api/assistants/:assistantId',
    { config, schema: { tags, params: assistantParams, response: { 204: z.undefined(), ...errors } } },
    async (request, reply) => {
      const id = (request.params as { assistantId: string }).assistantId;
      const { row } = await svc.assertCanManage(ctx, actorOf(request), id);
      await svc.deleteAssistant(ctx, row);
      return reply.status(204).send();
    },
  );

  const accessParams = assistantParams.extend({ userId: z.string().min(1).max(100) });
  for (const granted of [true, false]) {
    app.route({
      method: granted ? 'PUT' : 'DELETE',
      url: '/api/assistants/:assistantId/access/:userId',
      config,
      schema: { tags, params: accessParams, response: { 204: z.undefined(), ...errors } },
      handler: async (request, reply) => {
        const params = request.params as { assistantId: string; userId: string };
        const { row } = await svc.assertCanManage(ctx, actorOf(request), params.assistantId);
        await svc.setAccess(ctx, row, params.userId, granted);
        return reply.status(204).send();
      },
    });
  }
};
