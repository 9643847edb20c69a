import { z } from 'zod';
import type { Feature } from '../../../app.ts';
import { actorOf } from '../../../http/auth.ts';
import { dataOf, errorBody } from '../../../http/envelope.ts';
import { offsetPage, offsetQuery } from '../../../http/pagination.ts';
import { assertValid } from '../../../http/validation.ts';
import { assertCanManage, loadAssistant } from '../../assistants/assistants.service.ts';
import { retrieveForAssistant } from '../knowledge.service.ts';
import { realtimeLookup } from '../realtime/realtime.service.ts';
import { createSourceBody, searchQuery, searchResult, sourceSchema, toSource } from './sources.schemas.ts';
import * as svc from './sources.service.ts';
import { readUpload } from './upload.ts';

const errors = { 400: errorBody, 401: errorBody, 403: errorBody, 404: errorBody, 413: errorBody };
const params = z.object({ assistantId: z.string().min(1).max(100) });
const sourceParams = params.extend({ sourceId: z.string().min(1).max(100) });
const config = { auth: 'session', deferValidation: true } as const;
const lookupBody = z.strictObject({
  query: z.string().trim().min(1).max(500),
  orderNumber: z.string().trim().min(1).max(40).optional(),
  email: z.email().max(254).optional(),
});
const tags = ['knowledge'];

type P = { assistantId: string; sourceId?: string };
const ownerOf = (row: { id: string; workspaceId: string }) => ({
  workspaceId: row.workspaceId,
  assistantId: row.id,
});

/** decisions §6: an assistant's own knowledge base, on the session surface. */
export const assistantSourcesRoutes: Feature = (app, ctx) => {
  app.get(
    '/api/assistants/:assistantId/sources',
    {
      config,
      schema: {
        tags,
        params,
        querystring: offsetQuery,
        response: { 200: offsetPage(sourceSchema), ...errors },
      },
    },
    async (request) => {
      const { row } = await loadAssistant(ctx, actorOf(request), (request.params as P).assistantId);
      assertValid(request);
      const { rows, total } = await svc.listSources(ctx, ownerOf(row), request.query);
      return { data: rows.map(toSource), total, limit: request.query.limit, offset: request.query.offset };
    },
  );

  app.post(
    '/api/assistants/:assistantId/sources',
    {
      config,
      schema: { tags, params, body: createSourceBody, response: { 201: dataOf(sourceSchema), ...errors } },
    },
    async (request, reply) => {
      const { row } = await assertCanManage(ctx, actorOf(request), (request.params as P).assistantId);
      assertValid(request);
      const source = await svc.createSource(ctx, ownerOf(row), request.body);
      return reply.status(201).send({ data: toSource(source) });
    },
  );

  app.post(
    '/api/assistants/:assistantId/sources/files',
    {
      config,
      schema: {
        tags,
        params,
        consumes: ['multipart/form-data'],
        response: { 201: dataOf(sourceSchema), ...errors },
      },
    },
    async (request, reply) => {
      const { row } = await assertCanManage(ctx, actorOf(request), (request.params as P).assistantId);
      const upload = await readUpload(request, ctx.config.uploadLimitBytes);
      const source = await svc.createFileSource(ctx, ownerOf(row), upload);
      return reply.status(201).send({ data: toSource(source) });
    },
  );

  app.get(
    '/api/assistants/:assistantId/sources/:sourceId',
    { config, schema: { tags, params: sourceParams, response: { 200: dataOf(sourceSchema), ...errors } } },
    async (request) => {
      const p = request.params as P;
      const { row } = await loadAssistant(ctx, actorOf(request), p.assistantId);
      return { data: toSource(await svc.getSource(ctx, ownerOf(row), p.sourceId ?? '')) };
    },
  );

  app.delete(
    '/api/assistants/:assistantId/sources/:sourceId',
    { config, schema: { tags, params: sourceParams, response: { 204: z.undefined(), ...errors } } },
    async (request, reply) => {
      const p = request.params as P;
      const { row } = await assertCanManage(ctx, actorOf(request), p.assistantId);
      await svc.deleteSource(ctx, ownerOf(row), p.sourceId ?? '');
      return reply.status(204).send();
    },
  );

  app.post(
    '/api/assistants/:assistantId/sources/:sourceId/sync',
    { config, schema: { tags, params: sourceParams, response: { 202: dataOf(sourceSchema), ...errors } } },
    async (request, reply) => {
      const p = request.params as P;
      const { row } = await assertCanManage(ctx, actorOf(request), p.assistantId);
      const source = await svc.syncSource(ctx, ownerOf(row), p.sourceId ?? '');
      return reply.status(202).send({ data: toSource(source) });
    },
  );

  app.post(
    '/api/assistants/:assistantId/sources/:sourceId/lookup',
    {
      config,
      schema: {
        tags,
        params: sourceParams,
        body: lookupBody,
        response: { 200: dataOf(z.record(z.string(), z.unknown())), ...errors },
      },
    },
    async (request) => {
      const p = request.params as P;
      const { row } = await loadAssistant(ctx, actorOf(request), p.assistantId);
      const source = await svc.getSource(ctx, ownerOf(row), p.sourceId ?? '');
      assertValid(request);
      return { data: await realtimeLookup(ctx, source, request.body) };
    },
  );

  app.get(
    '/api/assistants/:assistantId/search',
    {
      config,
      schema: {
        tags,
        params,
        querystring: searchQuery,
        response: { 200: z.object({ data: z.array(searchResult) }), ...errors },
      },
    },
    async (request) => {
      const { row } = await loadAssistant(ctx, actorOf(request), (request.params as P).assistantId);
      assertValid(request);
      const hits = await retrieveForAssistant(ctx, row, request.query.q, request.query.k);
      return { data: hits.map(({ namespace: _ns, ...hit }) => hit) };
    },
  );
};
