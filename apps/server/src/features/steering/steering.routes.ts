import { dataOf, idParam } from '@parley/contract/envelope';
import { offsetPage, offsetQuery } from '@parley/contract/pagination';
import {
  createAnswerBody,
  createGuidanceBody,
  createTestBody,
  curatedAnswerSchema,
  guidanceSchema,
  testFromConversationBody,
  testSchema,
  updateAnswerBody,
  updateGuidanceBody,
  updateTestBody,
} from '@parley/contract/steering';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { actorOf } from '../../http/auth.ts';
import type { Feature, FeatureApp } from '../../http/feature.ts';
import type { ResourceKind } from '../../http/resources.ts';
import { resourceOf } from '../../http/tenant.ts';
import type { ItemKind, ItemRow } from './steering.repo.ts';
import { toCuratedAnswer, toGuidance, toTest } from './steering.serialize.ts';
import * as svc from './steering.service.ts';
import { testFromConversation } from './tests-from-conversation.ts';

const params = z.object({ assistantId: idParam });
const read = { auth: 'session', permission: 'workspace.view', resources: ['assistant'] } as const;
const manage = { ...read, permission: 'assistants.manage' } as const;
const tags = ['steering'];

export const ownerOf = (request: FastifyRequest) => {
  const { row } = resourceOf(request, 'assistant');
  return { workspaceId: row.workspaceId, assistantId: row.id };
};

type ItemRoutes<K extends ItemKind> = {
  kind: K;
  path: string;
  resource: 'guidance' | 'curatedAnswer' | 'assistantTest';
  param: string;
  schema: z.ZodType;
  create: z.ZodObject;
  update: z.ZodObject;
  serialize: (row: ItemRow<K>) => unknown;
};

/**
 * List, create, change and delete one kind of an assistant's steering (docs/steering.md): the
 * guidance rules, the curated answers and the tests are served alike.
 */
function registerItems<K extends ItemKind>(app: FeatureApp, ctx: AppContext, r: ItemRoutes<K>) {
  const base = `/api/assistants/:assistantId/${r.path}`;
  const one = params.extend({ [r.param]: idParam });
  const resources: ResourceKind[] = ['assistant', r.resource];
  const readOne = { ...read, resources };
  const manageOne = { ...manage, resources };
  const item = (request: FastifyRequest) => resourceOf(request, r.resource) as ItemRow<K>;
  app.get(
    base,
    {
      config: read,
      schema: { tags, params, querystring: offsetQuery, response: { 200: offsetPage(r.schema) } },
    },
    async (request) => {
      const query = request.query as z.output<typeof offsetQuery>;
      const { rows, total } = await svc.listItems(ctx.db, r.kind, ownerOf(request), query);
      return { data: rows.map(r.serialize), total, limit: query.limit, offset: query.offset };
    },
  );
  app.post(
    base,
    { config: manage, schema: { tags, params, body: r.create, response: { 201: dataOf(r.schema) } } },
    async (request, reply) => {
      const row = await svc.createItem(ctx, r.kind, ownerOf(request), request.body as never);
      return reply.status(201).send({ data: r.serialize(row) });
    },
  );
  app.get(
    `${base}/:${r.param}`,
    { config: readOne, schema: { tags, params: one, response: { 200: dataOf(r.schema) } } },
    async (request) => ({ data: r.serialize(item(request)) }),
  );
  app.patch(
    `${base}/:${r.param}`,
    {
      config: manageOne,
      schema: { tags, params: one, body: r.update, response: { 200: dataOf(r.schema) } },
    },
    async (request) => {
      const row = await svc.updateItem(
        ctx,
        r.kind,
        ownerOf(request),
        item(request).id,
        request.body as never,
      );
      return { data: r.serialize(row) };
    },
  );
  app.delete(
    `${base}/:${r.param}`,
    { config: manageOne, schema: { tags, params: one, response: { 204: z.undefined() } } },
    async (request, reply) => {
      await svc.deleteItem(ctx, r.kind, ownerOf(request), item(request).id);
      return reply.status(204).send();
    },
  );
}

/** An assistant's guidance rules, curated answers and tests, on the session surface (docs/steering.md). */
export const steeringRoutes: Feature = (app, ctx) => {
  registerItems(app, ctx, {
    kind: 'guidance',
    path: 'guidance',
    resource: 'guidance',
    param: 'guidanceId',
    schema: guidanceSchema,
    create: createGuidanceBody,
    update: updateGuidanceBody,
    serialize: toGuidance,
  });
  registerItems(app, ctx, {
    kind: 'answers',
    path: 'answers',
    resource: 'curatedAnswer',
    param: 'answerId',
    schema: curatedAnswerSchema,
    create: createAnswerBody,
    update: updateAnswerBody,
    serialize: toCuratedAnswer,
  });
  // Before `tests/:testId`, so that its path is not taken for a test's id.
  app.post(
    '/api/assistants/:assistantId/tests/from-conversation',
    {
      config: manage,
      schema: { tags, params, body: testFromConversationBody, response: { 201: dataOf(testSchema) } },
    },
    async (request, reply) => {
      const actor = actorOf(request);
      const row = await testFromConversation(ctx, ownerOf(request), {
        ...request.body,
        userId: actor.kind === 'user' ? actor.userId : null,
      });
      return reply.status(201).send({ data: toTest(row) });
    },
  );
  registerItems(app, ctx, {
    kind: 'tests',
    path: 'tests',
    resource: 'assistantTest',
    param: 'testId',
    schema: testSchema,
    create: createTestBody,
    update: updateTestBody,
    serialize: toTest,
  });
};
